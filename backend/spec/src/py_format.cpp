// Python's float repr, str/repr of scalars, and `str.format` with the common format-spec subset.
#include "spec/py_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace trainyard::spec {
namespace {

Error format_error(std::string message) {
  return make_error(ErrorKind::Usage, std::move(message));
}

// Python writes exponents with a sign and at least two digits: `1e-05`, `1e+16`.
std::string exponent_text(int exp10) {
  std::string digits = std::to_string(std::abs(exp10));
  if (digits.size() < 2) digits.insert(0, "0");
  return (exp10 < 0 ? "e-" : "e+") + digits;
}

// Shortest round-trip digits of a finite positive x and the exponent of the first digit.
std::pair<std::string, int> shortest_digits(double x) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  std::string text(buf, res.ptr);
  const size_t e = text.find('e');
  std::string digits;
  for (size_t i = 0; i < e; ++i) {
    if (text[i] != '.') digits += text[i];
  }
  return {digits, std::atoi(text.c_str() + e + 1)};
}

// Fixed notation of digits d1d2… whose decimal point sits after `decpt` digits; adds `.0`.
std::string fixed_from_digits(const std::string& digits, int decpt) {
  if (decpt <= 0) return "0." + std::string(static_cast<size_t>(-decpt), '0') + digits;
  const auto point = static_cast<size_t>(decpt);
  if (point >= digits.size()) return digits + std::string(point - digits.size(), '0') + ".0";
  return digits.substr(0, point) + "." + digits.substr(point);
}

size_t code_points(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
  return n;
}

// A parsed format spec: [[fill]align][sign][0][width][.precision][type].
struct Spec {
  std::string fill = " ";
  char align = 0;
  char sign = '-';
  std::optional<size_t> width;
  std::optional<int> precision;
  char type = 0;
};

// The length of the UTF-8 sequence starting at s[0] (fill may be any character).
size_t utf8_len(std::string_view s) {
  const auto c = static_cast<unsigned char>(s[0]);
  size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  return n <= s.size() ? n : 1;
}

bool is_align(char c) {
  return c == '<' || c == '>' || c == '^' || c == '=';
}

std::optional<size_t> read_number(std::string_view& s) {
  size_t i = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  if (i == 0) return std::nullopt;
  size_t value = 0;
  std::from_chars(s.data(), s.data() + i, value);
  s.remove_prefix(i);
  return value;
}

Result<Spec> parse_spec(std::string_view s) {
  Spec spec;
  if (!s.empty() && s.size() > utf8_len(s) && is_align(s[utf8_len(s)])) {
    spec.fill = std::string(s.substr(0, utf8_len(s)));
    spec.align = s[utf8_len(s)];
    s.remove_prefix(utf8_len(s) + 1);
  } else if (!s.empty() && is_align(s[0])) {
    spec.align = s[0];
    s.remove_prefix(1);
  }
  if (!s.empty() && (s[0] == '+' || s[0] == '-' || s[0] == ' ')) {
    spec.sign = s[0];
    s.remove_prefix(1);
  }
  if (!s.empty() && s[0] == '0') {
    if (spec.align == 0) spec.fill = "0", spec.align = '=';
    s.remove_prefix(1);
  }
  spec.width = read_number(s);
  if (!s.empty() && s[0] == '.') {
    s.remove_prefix(1);
    auto p = read_number(s);
    if (!p) return format_error("Format specifier missing precision");
    spec.precision = static_cast<int>(*p);
  }
  if (s.size() == 1 && std::string_view("sdfFeEgG%").find(s[0]) != std::string_view::npos) {
    spec.type = s[0];
  } else if (!s.empty()) {
    return format_error("unsupported format spec part '" + std::string(s) + "'");
  }
  return spec;
}

// Pads `body` (with its sign split off) to the spec's width.
std::string pad(const Spec& spec, std::string sign, std::string body, char default_align) {
  const char align = spec.align != 0 ? spec.align : default_align;
  const size_t len = code_points(sign) + code_points(body);
  if (!spec.width || *spec.width <= len) return sign + body;
  const size_t n = *spec.width - len;
  auto fill = [&](size_t k) {
    std::string out;
    for (size_t i = 0; i < k; ++i) out += spec.fill;
    return out;
  };
  if (align == '<') return sign + body + fill(n);
  if (align == '>') return fill(n) + sign + body;
  if (align == '^') return fill(n / 2) + sign + body + fill(n - n / 2);
  return sign + fill(n) + body;
}

std::string sign_text(const Spec& spec, bool negative) {
  if (negative) return "-";
  if (spec.sign == '+') return "+";
  return spec.sign == ' ' ? " " : "";
}

// printf for one finite non-negative double with a %-conversion like "%.6f".
std::string c_format(char conv, int precision, double x) {
  char fmt[16];
  std::snprintf(fmt, sizeof fmt, "%%.%d%c", precision, conv);
  int n = std::snprintf(nullptr, 0, fmt, x);
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(out.data(), out.size(), fmt, x);
  out.resize(static_cast<size_t>(n));
  return out;
}

std::string float_body(const Spec& spec, double mag) {
  const bool upper = spec.type == 'F' || spec.type == 'E' || spec.type == 'G';
  if (std::isnan(mag)) return std::string(upper ? "NAN" : "nan") + (spec.type == '%' ? "%" : "");
  if (std::isinf(mag)) return std::string(upper ? "INF" : "inf") + (spec.type == '%' ? "%" : "");
  const int p = spec.precision.value_or(6);
  switch (spec.type) {
    case 0: {
      if (!spec.precision) return py_repr_float(mag);
      std::string g = c_format('g', p == 0 ? 1 : p, mag);
      return g.find_first_of(".e") == std::string::npos ? g + ".0" : g;
    }
    case '%':
      return c_format('f', p, mag * 100.0) + "%";
    default:
      return c_format(spec.type, p, mag);
  }
}

Result<std::string> format_float(const Spec& spec, double x) {
  if (spec.type == 's' || spec.type == 'd') {
    return format_error(std::string("Unknown format code '") + spec.type +
                        "' for object of type 'float'");
  }
  bool negative = std::signbit(x) && !std::isnan(x);
  return pad(spec, sign_text(spec, negative), float_body(spec, std::fabs(x)), '>');
}

Result<std::string> format_int(const Spec& spec, int64_t i) {
  if (spec.type == 's') return format_error("Unknown format code 's' for object of type 'int'");
  if (spec.type != 0 && spec.type != 'd') {
    if (spec.type == 'e' || spec.type == 'E' || spec.type == 'f' || spec.type == 'F' ||
        spec.type == 'g' || spec.type == 'G' || spec.type == '%') {
      return format_float(spec, static_cast<double>(i));
    }
  }
  if (spec.precision) return format_error("Precision not allowed in integer format specifier");
  uint64_t mag = i < 0 ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i);
  return pad(spec, sign_text(spec, i < 0), std::to_string(mag), '>');
}

Result<std::string> format_str(const Spec& spec, const std::string& s) {
  if (spec.type != 0 && spec.type != 's') {
    return format_error(std::string("Unknown format code '") + spec.type +
                        "' for object of type 'str'");
  }
  if (spec.sign != '-') return format_error("Sign not allowed in string format specifier");
  if (spec.align == '=')
    return format_error("'=' alignment not allowed in string format specifier");
  std::string body = s;
  if (spec.precision) {
    size_t keep = 0;
    for (int n = 0; keep < body.size() && n < *spec.precision; ++n) {
      keep += utf8_len(std::string_view(body).substr(keep));
    }
    body.resize(keep);
  }
  return pad(spec, "", body, '<');
}

// `format(value, spec)`: dispatches on the Python type, as each type's __format__ does.
Result<std::string> format_value(const PyValue& v, std::string_view spec_text) {
  if (spec_text.empty()) return py_str(v);
  auto spec = parse_spec(spec_text);
  if (!spec) return spec.error();
  if (const auto* b = std::get_if<bool>(&v)) return format_int(*spec, *b ? 1 : 0);
  if (const auto* i = std::get_if<int64_t>(&v)) return format_int(*spec, *i);
  if (const auto* d = std::get_if<double>(&v)) return format_float(*spec, *d);
  if (const auto* s = std::get_if<std::string>(&v)) return format_str(*spec, *s);
  return format_error("unsupported format string passed to NoneType.__format__");
}

// One replacement field's text between `{` and `}`: name[!conv][:spec].
struct Field {
  std::string_view name;
  char conversion = 0;
  std::string_view spec;
};

Result<Field> split_field(std::string_view body) {
  Field f;
  size_t colon = body.find(':');
  std::string_view head = body.substr(0, colon);
  if (colon != std::string_view::npos) f.spec = body.substr(colon + 1);
  size_t bang = head.find('!');
  f.name = head.substr(0, bang);
  if (bang != std::string_view::npos) {
    std::string_view conv = head.substr(bang + 1);
    if (conv.size() != 1) return format_error("expected ':' after conversion specifier");
    if (conv[0] != 's' && conv[0] != 'r' && conv[0] != 'a') {
      return format_error(std::string("Unknown conversion specifier ") + conv[0]);
    }
    f.conversion = conv[0];
  }
  return f;
}

// Walks the numbering rules: `{}` counts up, `{N}` names; the two may not be mixed.
class ArgPicker {
 public:
  explicit ArgPicker(const std::vector<PyValue>& args) : args_(args) {}

  Result<const PyValue*> pick(std::string_view name) {
    size_t index = 0;
    if (name.empty()) {
      if (mode_ == Mode::Manual) {
        return format_error(
            "cannot switch from manual field specification to automatic field "
            "numbering");
      }
      mode_ = Mode::Auto;
      index = next_++;
    } else {
      auto [p, ec] = std::from_chars(name.data(), name.data() + name.size(), index);
      if (ec != std::errc() || p != name.data() + name.size()) {
        return format_error("KeyError: '" + std::string(name) + "' (only positional fields)");
      }
      if (mode_ == Mode::Auto) {
        return format_error(
            "cannot switch from automatic field numbering to manual field "
            "specification");
      }
      mode_ = Mode::Manual;
    }
    if (index >= args_.size()) {
      return format_error("Replacement index " + std::to_string(index) +
                          " out of range for positional args tuple");
    }
    return &args_[index];
  }

 private:
  enum class Mode { None, Auto, Manual };
  const std::vector<PyValue>& args_;
  Mode mode_ = Mode::None;
  size_t next_ = 0;
};

Result<std::string> render_field(std::string_view body, ArgPicker& picker) {
  auto field = split_field(body);
  if (!field) return field.error();
  auto arg = picker.pick(field->name);
  if (!arg) return arg.error();
  if (field->conversion == 'r' || field->conversion == 'a') {
    return format_value(PyValue(py_repr(**arg)), field->spec);
  }
  if (field->conversion == 's') return format_value(PyValue(py_str(**arg)), field->spec);
  return format_value(**arg, field->spec);
}

}  // namespace

std::string py_repr_float(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  if (x == 0.0) return std::signbit(x) ? "-0.0" : "0.0";
  const std::string sign = x < 0 ? "-" : "";
  auto [digits, exp10] = shortest_digits(std::fabs(x));
  const int decpt = exp10 + 1;
  // CPython's repr switches to exponent notation when decpt <= -4 or decpt > 16.
  if (decpt > -4 && decpt <= 16) return sign + fixed_from_digits(digits, decpt);
  std::string mantissa = digits.substr(0, 1);
  if (digits.size() > 1) mantissa += "." + digits.substr(1);
  return sign + mantissa + exponent_text(exp10);
}

std::string py_str(const PyValue& v) {
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "True" : "False";
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return py_repr_float(*d);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  return "None";
}

std::string py_repr(const PyValue& v) {
  const auto* s = std::get_if<std::string>(&v);
  if (s == nullptr) return py_str(v);
  // Python prefers single quotes, and uses double quotes when only ' appears inside.
  const bool dq = s->find('\'') != std::string::npos && s->find('"') == std::string::npos;
  const char quote = dq ? '"' : '\'';
  std::string out(1, quote);
  for (char c : *s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == quote || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + quote;
}

Result<std::string> py_format(std::string_view fmt, const std::vector<PyValue>& args) {
  ArgPicker picker(args);
  std::string out;
  for (size_t i = 0; i < fmt.size(); ++i) {
    const char c = fmt[i];
    if (c == '}') {
      if (i + 1 >= fmt.size() || fmt[i + 1] != '}') {
        return format_error("Single '}' encountered in format string");
      }
      out += '}';
      ++i;
    } else if (c != '{') {
      out += c;
    } else if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
      out += '{';
      ++i;
    } else {
      const size_t close = fmt.find('}', i + 1);
      if (close == std::string_view::npos) {
        return format_error("Single '{' encountered in format string");
      }
      auto text = render_field(fmt.substr(i + 1, close - i - 1), picker);
      if (!text) return text.error();
      out += *text;
      i = close;
    }
  }
  return out;
}

}  // namespace trainyard::spec
