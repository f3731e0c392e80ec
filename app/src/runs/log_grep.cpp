// Grep over logs: the file is read through LogFile, so each line is matched as the log pane
// shows it (escapes gone, a colour code never splits a word) and memory stays bounded.
#include "log_grep.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "sync/log_file.hpp"

namespace trainyard {
namespace {

constexpr size_t kLinesPerRead = 4096;

bool contains_ascii_ci(const std::string& hay, const std::string& needle) {
  auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
  return it != hay.end();
}

}  // namespace

Result<GrepPattern> parse_grep_pattern(const std::string& text) {
  if (text.empty())
    return make_error(ErrorKind::Usage, "grep: give a pattern (:grep TEXT or /REGEX/)");
  GrepPattern p;
  bool slashed = text.size() >= 2 && text.front() == '/' && text.back() == '/';
  if (!slashed) {
    p.text = text;
    return p;
  }
  p.text = text.substr(1, text.size() - 2);
  p.regex = true;
  auto re = UserRegex::compile(p.text, false);
  if (!re)
    return make_error(ErrorKind::Usage,
                      fmt::format("grep: bad regex /{}/: {}", p.text, re.error().message));
  p.re = std::move(*re);
  return p;
}

bool grep_matches(const GrepPattern& p, const std::string& line) {
  if (p.regex) return p.re->matches(line);
  return contains_ascii_ci(line, p.text);
}

std::string grep_match_text(const GrepPattern& p, const std::string& line) {
  if (!p.regex) return grep_matches(p, line) ? p.text : std::string();
  auto m = p.re->find(line);
  return m ? line.substr(m->first, m->second) : std::string();
}

Result<std::vector<GrepLine>> grep_file(const std::string& path, const GrepPattern& p,
                                        size_t limit) {
  auto file = LogFile::open(path);
  if (!file) return file.error();
  std::vector<GrepLine> out;
  size_t n = file->line_count();
  for (size_t first = 0; first < n && out.size() < limit; first += kLinesPerRead) {
    auto lines = file->read_lines(first, kLinesPerRead);
    if (!lines) return lines.error();
    for (size_t i = 0; i < lines->size() && out.size() < limit; ++i)
      if (grep_matches(p, (*lines)[i].text))
        out.push_back({first + i, std::move((*lines)[i].text)});
  }
  return out;
}

}  // namespace trainyard
