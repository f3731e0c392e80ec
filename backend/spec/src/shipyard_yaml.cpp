// Positioned, Python-typed reads of YAML nodes for the Shipyard parser. Scalars are typed as
// ruamel.yaml's YAML 1.2 loader (which Shipyard used) types them, so that `str.format` later
// writes `1e-05` for a plain `1e-5` and `1e-5` for a quoted one.
#include <charconv>
#include <regex>

#include "shipyard_internal.hpp"

namespace trainyard::spec::shipyard_detail {
namespace {

const std::regex& int_re() {
  static const std::regex re(R"([-+]?[0-9]+)");
  return re;
}

const std::regex& float_re() {
  static const std::regex re(
      R"([-+]?([0-9]+\.[0-9]*([eE][-+]?[0-9]+)?|[0-9]+[eE][-+]?[0-9]+|\.[0-9]+([eE][-+]?[0-9]+)?))");
  return re;
}

std::string type_name(const YAML::Node& n) {
  if (n.IsMap()) return "a mapping";
  if (n.IsSequence()) return "a list";
  if (n.IsNull()) return "null";
  return "'" + n.Scalar() + "'";
}

std::optional<double> special_float(const std::string& s) {
  const std::string body = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? s.substr(1) : s;
  const double sign = (!s.empty() && s[0] == '-') ? -1.0 : 1.0;
  if (body == ".inf" || body == ".Inf" || body == ".INF") return sign * HUGE_VAL;
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return std::nan("");
  return std::nullopt;
}

// Plain (unquoted, untagged) scalar text → the Python value ruamel.yaml would load.
Result<PyValue> type_plain(const std::string& s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return PyValue{};
  if (s == "true" || s == "True" || s == "TRUE") return PyValue(true);
  if (s == "false" || s == "False" || s == "FALSE") return PyValue(false);
  if (std::regex_match(s, int_re())) {
    int64_t v = 0;
    const char* b = s.data() + (s[0] == '+' ? 1 : 0);
    auto [p, ec] = std::from_chars(b, s.data() + s.size(), v);
    if (ec != std::errc()) return make_error(ErrorKind::Parse, "integer out of range");
    return PyValue(v);
  }
  if (auto special = special_float(s)) return PyValue(*special);
  if (std::regex_match(s, float_re())) {
    double v = 0;
    const char* b = s.data() + (s[0] == '+' ? 1 : 0);
    std::from_chars(b, s.data() + s.size(), v);
    return PyValue(v);
  }
  return PyValue(s);
}

}  // namespace

bool present(const At& at) {
  return at.node.IsDefined() && !at.node.IsNull();
}

SourcePos Doc::pos(const At& at) const {
  if (!at.node.IsDefined()) return at.fallback;
  const YAML::Mark m = at.node.Mark();
  if (m.line < 0) return at.fallback;
  return SourcePos{m.line + 1, m.column + 1};
}

At Doc::child(const At& parent, const std::string& key) const {
  const YAML::Node& p = parent.node;
  return At(p.IsMap() ? p[key] : YAML::Node(YAML::NodeType::Undefined),
            pointer_join(parent.ptr, key), pos(parent));
}

At Doc::item(const At& parent, std::size_t i) const {
  const YAML::Node& p = parent.node;
  return At(p[i], pointer_join(parent.ptr, i), pos(parent));
}

Error Doc::error(const At& at, std::string_view what) const {
  return spec_error(file_, pos(at), at.ptr, what);
}

std::string Doc::place(const At& at) const {
  return spec_place(file_, pos(at), at.ptr);
}

std::string Doc::location(const At& at) const {
  return spec_location(file_, pos(at));
}

Result<void> Doc::expect_map(const At& at) const {
  if (!at.node.IsDefined()) return error(at, "required: expected a mapping");
  if (!at.node.IsMap()) return error(at, "expected a mapping, got " + type_name(at.node));
  return ok_result();
}

Result<void> Doc::expect_seq(const At& at) const {
  if (!at.node.IsDefined()) return error(at, "required: expected a list");
  if (!at.node.IsSequence()) return error(at, "expected a list, got " + type_name(at.node));
  return ok_result();
}

Result<PyValue> Doc::scalar(const At& at) const {
  if (!at.node.IsDefined()) return error(at, "required: expected a value");
  if (at.node.IsNull()) return PyValue{};
  if (!at.node.IsScalar()) return error(at, "expected a single value, got " + type_name(at.node));
  const std::string& tag = at.node.Tag();
  if (tag == "!" || tag == "tag:yaml.org,2002:str") return PyValue(at.node.Scalar());
  auto v = type_plain(at.node.Scalar());
  if (!v) return error(at, v.error().message);
  return v;
}

Result<int64_t> Doc::integer(const At& at) const {
  auto v = scalar(at);
  if (!v) return v.error();
  if (const auto* i = std::get_if<int64_t>(&*v)) return *i;
  return error(at, "expected an integer, got " + type_name(at.node));
}

Result<double> Doc::number(const At& at) const {
  auto v = scalar(at);
  if (!v) return v.error();
  if (const auto* i = std::get_if<int64_t>(&*v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&*v)) return *d;
  return error(at, "expected a number, got " + type_name(at.node));
}

Result<bool> Doc::boolean(const At& at) const {
  auto v = scalar(at);
  if (!v) return v.error();
  if (const auto* b = std::get_if<bool>(&*v)) return *b;
  return error(at, "expected true or false, got " + type_name(at.node));
}

Result<std::string> Doc::text(const At& at) const {
  if (!at.node.IsDefined()) return error(at, "required: expected a string");
  if (!at.node.IsScalar()) return error(at, "expected a string, got " + type_name(at.node));
  return at.node.Scalar();
}

Result<std::vector<PyValue>> Doc::values(const At& at) const {
  std::vector<PyValue> out;
  if (at.node.IsScalar()) {
    auto v = scalar(at);
    if (!v) return v.error();
    const auto* s = std::get_if<std::string>(&*v);
    if (s == nullptr) return error(at, "expected a list, got " + type_name(at.node));
    // Python iterates a str by character (code point).
    for (std::size_t i = 0; i < s->size();) {
      std::size_t n = 1;
      while (i + n < s->size() && (static_cast<unsigned char>((*s)[i + n]) & 0xC0U) == 0x80U) ++n;
      out.emplace_back(s->substr(i, n));
      i += n;
    }
    return out;
  }
  if (auto ok = expect_seq(at); !ok) return ok.error();
  for (std::size_t i = 0; i < at.node.size(); ++i) {
    auto v = scalar(item(at, i));
    if (!v) return v.error();
    out.push_back(std::move(*v));
  }
  return out;
}

Result<std::vector<std::vector<PyValue>>> Doc::value_lists(const At& at) const {
  if (auto ok = expect_seq(at); !ok) return ok.error();
  std::vector<std::vector<PyValue>> out;
  for (std::size_t i = 0; i < at.node.size(); ++i) {
    auto v = values(item(at, i));
    if (!v) return v.error();
    out.push_back(std::move(*v));
  }
  return out;
}

}  // namespace trainyard::spec::shipyard_detail
