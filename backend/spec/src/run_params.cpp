// Named run parameters from command lines and task-factory templates: shell words are split as
// a POSIX shell splits them, then read as argparse reads flags.
#include "spec/run_params.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <utility>

#include "spec/py_format.hpp"

namespace trainyard::spec {
namespace {

constexpr int kMaxNesting = 4;  // `bash -c "…"` inside `sh -c '…'`: deeper is not a command

// A word as the command sees it (name empty) or a flag with its value.
struct Item {
  std::string name;
  std::string value;
};

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\n';
}

// The closing quote's index, appending the quoted text to `word` (POSIX rules: '…' is literal,
// "…" keeps its text but \" \\ \$ \` ).
size_t read_quoted(std::string_view s, size_t open, std::string& word) {
  const char q = s[open];
  size_t i = open + 1;
  for (; i < s.size() && s[i] != q; ++i) {
    if (q == '"' && s[i] == '\\' && i + 1 < s.size() &&
        std::string_view("\"\\$`").find(s[i + 1]) != std::string_view::npos)
      ++i;
    word += s[i];
  }
  return i;
}

// A character that, unquoted, ends a word and starts an operator (`;`, `&&`, `|`, `2>&1`'s
// `>&`, `$(…)`'s parentheses).
bool operator_char(char c) {
  return std::string_view(";|&<>()").find(c) != std::string_view::npos;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

// The operator starting at s[i] (`;`, `&&`, `>>`, `>&`; a parenthesis stands alone), after
// `fd_digits` (`2` of `2>&1`); `i` ends on its last character.
std::string read_operator(std::string_view s, size_t& i, std::string fd_digits) {
  size_t end = i + 1;
  auto joins = [](char c) { return operator_char(c) && c != '(' && c != ')'; };
  if (joins(s[i]))
    while (end < s.size() && joins(s[end])) ++end;
  fd_digits += s.substr(i, end - i);
  i = end - 1;
  return fd_digits;
}

// The words of `s`. In a template (`templ`), a replacement field (`{0:>12}`) is formatted before
// the shell sees the line, so its characters are never operators.
std::vector<std::string> shell_words(std::string_view s, bool templ) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false;
  int field = 0;  // depth of `{…}` replacement fields (templates only)
  auto end_word = [&] {
    if (in_word) out.push_back(std::move(word));
    word.clear();
    in_word = false;
  };
  for (size_t i = 0; i < s.size(); ++i) {
    if (blank(s[i])) {
      end_word();
      continue;
    }
    if (templ && (s[i] == '{' || s[i] == '}') && i + 1 < s.size() && s[i + 1] == s[i]) {
      word.append(2, s[i++]);  // `{{` and `}}` stand for a brace: no field
      in_word = true;
      continue;
    }
    if (templ && s[i] == '{') ++field;
    if (templ && s[i] == '}' && field > 0) --field;
    if (operator_char(s[i]) && field == 0) {
      // `2>&1`: the digits before a redirection name a file descriptor, not a word.
      std::string fd;
      if ((s[i] == '<' || s[i] == '>') && in_word && all_digits(word)) fd = std::exchange(word, {});
      if (!fd.empty()) in_word = false;
      end_word();
      out.push_back(read_operator(s, i, std::move(fd)));
      continue;
    }
    in_word = true;
    if (s[i] == '\'' || s[i] == '"')
      i = read_quoted(s, i, word);
    else if (s[i] == '\\' && i + 1 < s.size())
      word += s[++i];
    else
      word += s[i];
  }
  if (in_word) out.push_back(std::move(word));
  return out;
}

bool is_number(std::string_view w) {
  if (w.empty()) return false;
  std::string text(w);
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

bool is_identifier(std::string_view k) {
  if (k.empty() || !(std::isalpha(static_cast<unsigned char>(k[0])) || k[0] == '_')) return false;
  return std::all_of(k.begin(), k.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

// A `str.format` replacement field (not a `{{` escape) somewhere in `w`.
bool has_field(std::string_view w) {
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] != '{') continue;
    if (i + 1 < w.size() && w[i + 1] == '{') {
      ++i;
      continue;
    }
    return true;
  }
  return false;
}

// `lr` of `--lr` or `-lr`; empty when the word is no flag (`-1`, `--`, `-`).
std::string flag_name(std::string_view w) {
  if (w.size() < 2 || w[0] != '-' || is_number(w)) return "";
  auto name = w.substr(w[1] == '-' ? 2 : 1);
  return is_identifier(name) ? std::string(name) : "";
}

// `;`, `&&`, `>`, `2>&`: what shell_words makes of operator characters.
bool shell_operator(std::string_view w) {
  size_t digits = 0;
  while (digits < w.size() && std::isdigit(static_cast<unsigned char>(w[digits]))) ++digits;
  auto rest = w.substr(digits);
  return !rest.empty() && std::all_of(rest.begin(), rest.end(), operator_char);
}

// `$LR`, `$(awk …)`, `` `date` ``: known only when the shell runs it, so no parameter's value.
bool expanded_by_the_shell(std::string_view v) {
  return v.find('$') != std::string_view::npos || v.find('`') != std::string_view::npos;
}

bool has_blank(std::string_view w) {
  return std::any_of(w.begin(), w.end(), blank);
}

// Whether `v` is the value of flag `name`: a one-letter flag takes only a number (`-u train.py`
// is Python's option and a script, `-c '…'` a shell's script), a longer one any word but another
// flag.
bool takes_value(const std::string& name, std::string_view v, bool templ) {
  if (shell_operator(v)) return false;
  if (name.size() == 1) return is_number(v) || (templ && has_field(v) && !has_blank(v));
  if (templ && has_field(v)) return true;
  return v.empty() || v[0] != '-' || is_number(v);
}

// `--lr=0.1` or `lr=0.1` as an item; nullopt for other words.
std::optional<Item> assignment(const std::string& w) {
  auto eq = w.find('=');
  if (eq == std::string::npos || eq == 0) return std::nullopt;
  std::string head = w.substr(0, eq);
  std::string name = head[0] == '-' ? flag_name(head) : (is_identifier(head) ? head : "");
  if (name.empty() || expanded_by_the_shell(std::string_view(w).substr(eq + 1)))
    return std::nullopt;
  return Item{name, w.substr(eq + 1)};
}

void collect(std::string_view line, bool templ, int depth, std::vector<Item>& out) {
  auto words = shell_words(line, templ);
  bool options = true;  // argparse: after `--` every word is positional
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "--") {
      options = false;
      continue;
    }
    // A script (`bash -c '…'`, `A=1 python …`) is read as a command line of its own.
    if (depth < kMaxNesting && has_blank(w) && w[0] != '-') {
      collect(w, templ, depth + 1, out);
      continue;
    }
    if (options) {
      if (auto a = assignment(w)) {
        out.push_back(std::move(*a));
        continue;
      }
      auto flag = flag_name(w);
      if (!flag.empty()) {
        if (i + 1 < words.size() && takes_value(flag, words[i + 1], templ) &&
            !expanded_by_the_shell(words[++i]))
          out.push_back({flag, words[i]});
        continue;
      }
    }
    out.push_back({"", w});
  }
}

// One entry per name, where the name first appeared, with its last value.
void merge(std::vector<NameValue>& out, std::string name, std::string value) {
  auto it =
      std::find_if(out.begin(), out.end(), [&](const NameValue& p) { return p.name == name; });
  if (it != out.end())
    it->value = std::move(value);
  else
    out.push_back({std::move(name), std::move(value)});
}

// `{}` fields numbered (`{0}`, `{1}`, …) so that any piece of the template formats alone.
std::string number_auto_fields(std::string_view t) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    out += t[i];
    const bool doubled = i + 1 < t.size() && t[i + 1] == t[i];
    if ((t[i] == '{' || t[i] == '}') && doubled) {
      out += t[++i];
      continue;
    }
    const char after = i + 1 < t.size() ? t[i + 1] : '\0';
    if (t[i] == '{' && (after == '}' || after == ':' || after == '!'))
      out += std::to_string(next++);
  }
  return out;
}

}  // namespace

std::vector<NameValue> command_line_parameters(std::string_view command_line) {
  std::vector<Item> items;
  collect(command_line, false, 0, items);
  std::vector<NameValue> out;
  for (auto& it : items)
    if (!it.name.empty()) merge(out, std::move(it.name), std::move(it.value));
  return out;
}

Result<std::vector<NameValue>> placeholder_parameters(std::string_view command_template,
                                                      const PyArgs& args) {
  // The whole template first: its errors are Python's, with Python's numbering rules.
  if (auto whole = py_format(command_template, args); !whole) return whole.error();
  std::vector<Item> items;
  collect(number_auto_fields(command_template), true, 0, items);
  std::vector<NameValue> out;
  for (auto& it : items) {
    if (!has_field(it.value)) continue;
    auto value = py_format(it.value, args);
    if (!value) return value.error();
    merge(out, it.name.empty() ? it.value : it.name, std::move(*value));
  }
  return out;
}

std::vector<NameValue> name_positional_parameters(std::vector<NameValue> params,
                                                  std::string_view command_line) {
  auto flags = command_line_parameters(command_line);
  std::vector<bool> used(flags.size(), false);
  for (auto& p : params) {
    if (!all_digits(p.name)) continue;
    size_t j = 0;
    while (j < flags.size() && (used[j] || flags[j].value != p.value)) ++j;
    if (j < flags.size()) used[j] = true;
    p.name = j < flags.size() ? flags[j].name : "{" + p.name + "}";
  }
  return params;
}

}  // namespace trainyard::spec
