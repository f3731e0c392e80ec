#include "text_view.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"

#include "tui_state.hpp"

namespace trainyard {
namespace {

TextLines lines_of(const std::vector<LogLine>& lines) {
  TextLines t;
  t.count = lines.size();
  t.read = [&lines](size_t first, size_t n) {
    first = std::min(first, lines.size());
    auto end = lines.begin() + static_cast<long>(std::min(lines.size(), first + n));
    return std::vector<LogLine>(lines.begin() + static_cast<long>(first), end);
  };
  return t;
}

bool holds(const LogLine& line, const std::string& needle) {
  std::string text;
  for (const auto& span : line) text += span.text;
  auto it = std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                        [](char a, char b) { return ascii_lower(a) == ascii_lower(b); });
  return it != text.end();
}

// The next line holding the query, from `from` towards the end (or the start); round from the
// other end when none does (`wrapped`).
std::optional<size_t> find(const std::vector<LogLine>& lines, const std::string& query, size_t from,
                           bool forward, bool& wrapped) {
  wrapped = false;
  size_t n = lines.size();
  for (size_t step = 0; step < n; ++step) {
    size_t i = forward ? (from + step) % n : (from + n - step % n) % n;
    if (forward ? i < from : i > from) wrapped = true;
    if (holds(lines[i], query)) return i;
  }
  return std::nullopt;
}

void search_step(TextView& tv, const std::vector<LogLine>& lines, TuiState& st, bool forward) {
  if (tv.search.empty() || lines.empty()) return;
  size_t from = tv.view.top;
  if (tv.match) from = forward ? *tv.match + 1 : (*tv.match + lines.size() - 1);
  from %= lines.size();
  auto hit = find(lines, tv.search, from, forward, tv.wrapped);
  if (!hit) return set_status(st, fmt::format("'{}' not found", tv.search), StatusLevel::Error);
  tv.match = *hit;
  scroll_to_line(tv.view, lines_of(lines), *hit);
}

}  // namespace

LogLine text_line(const std::string& text) {
  return {LogSpan{text, Role::LogText}};
}

bool text_view_act(TextView& tv, const std::vector<LogLine>& lines, TuiState& st, Action a) {
  auto text = lines_of(lines);
  switch (a) {
    case Action::Up:
    case Action::Down:
      scroll_rows(tv.view, text, a == Action::Down ? 1 : -1);
      return true;
    case Action::PageUp:
    case Action::PageDown:
      scroll_rows(tv.view, text, a == Action::PageDown ? tv.view.height : -tv.view.height);
      return true;
    case Action::Top:
      scroll_to_top(tv.view);
      return true;
    case Action::Bottom:
      scroll_to_bottom(tv.view, text);
      return true;
    case Action::Wrap:
      toggle_wrap(tv.view);
      return true;
    case Action::Search:
      st.modal.mode = Mode::Search;
      st.modal.input.set_text("");
      return true;
    case Action::SearchNext:
    case Action::SearchPrev:
      search_step(tv, lines, st, a == Action::SearchNext);
      return true;
    case Action::ScrollLeft:
    case Action::ScrollRight:
    case Action::LineStart:
    case Action::LineEnd:
      if (tv.view.wrap)
        set_status(st, "wrap is on: w turns it off to scroll sideways");
      else
        scroll_sideways(tv.view, text, a);
      return true;
    default:
      return false;
  }
}

void text_view_search(TextView& tv, const std::vector<LogLine>& lines, TuiState& st,
                      const std::string& query) {
  tv.search = query;
  tv.match.reset();  // a new query starts from the top of the screen
  search_step(tv, lines, st, true);
}

void render_text_view(TextView& tv, const std::vector<LogLine>& lines, Canvas& c, Rect r) {
  LogViewVm vm;
  tv.view.height = std::max(1, r.h - 1);
  tv.view.width = std::max(1, r.w);
  auto text = lines_of(lines);
  // The position is kept within the lines there are now (a plugin's output may shrink).
  if (tv.view.top >= lines.size()) scroll_to_bottom(tv.view, text);
  vm.wrap = tv.view.wrap;
  vm.x_offset = tv.view.x;
  vm.search = tv.search;
  vm.current_match = tv.match;
  if (tv.wrapped) vm.note = "search wrapped";
  vm.total_lines = lines.size();
  vm.first_line = tv.view.top;
  vm.first_row = tv.view.top_row;
  vm.lines = text.read(tv.view.top, static_cast<size_t>(r.h));
  render_log_view(vm, c, r);
}

}  // namespace trainyard
