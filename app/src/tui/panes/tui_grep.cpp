// `:grep`: a job's logs searched on the reader thread (the Grep pane), and Enter on a hit
// opens that log at its line.
#include "tui_grep.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "tui_batch.hpp"

namespace trainyard {

void grep_command(AppContext& ctx, TuiState& st, const std::string& pattern) {
  const Frame& f = st.top();
  if (f.view != View::Jobs && f.view != View::Tasks)
    return set_status(st, "grep: on the Jobs or Tasks pane (it searches a job's logs)",
                      StatusLevel::Error);
  std::string job = f.view == View::Jobs ? selected_key(st).value_or("") : f.job;
  if (job.empty()) return set_status(st, "grep: select a job first", StatusLevel::Error);
  auto p = parse_grep_pattern(pattern);
  if (!p) return set_status(st, sanitize_text(p.error().message), StatusLevel::Error);
  Frame next = make_frame(View::Grep, f.account);
  next.job = job;
  next.query = pattern;
  st.stack.push_back(std::move(next));
  fetch_job_logs(ctx, st, "grep");
}

// `LINE|o|ATTEMPT|TASK`, ATTEMPT -1 for the latest attempt's log.
std::string grep_hit_key(const GrepHit& h) {
  return fmt::format("{}|{}|{}|{}", h.line, h.stderr_stream ? "e" : "o", h.earlier ? h.attempt : -1,
                     h.task);
}

std::optional<GrepHit> parse_grep_hit_key(const std::string& key) {
  auto a = key.find('|');
  if (a == std::string::npos || a == 0 || key.size() < a + 4 || key[a + 2] != '|')
    return std::nullopt;
  auto b = key.find('|', a + 3);
  if (b == std::string::npos) return std::nullopt;
  GrepHit h;
  h.line = std::stoull(key.substr(0, a));
  h.stderr_stream = key[a + 1] == 'e';
  int attempt = std::stoi(key.substr(a + 3, b - a - 3));
  h.earlier = attempt >= 0;
  h.attempt = std::max(attempt, 0);
  h.task = key.substr(b + 1);
  return h;
}

void open_grep_hit(AppContext& ctx, TuiState& st) {
  auto key = selected_key(st);
  auto hit = key ? parse_grep_hit_key(*key) : std::nullopt;
  if (!hit) return;
  auto pattern = parse_grep_pattern(st.top().query);
  Frame next = st.top();
  next.view = View::Logs;
  next.task = hit->task;
  next.entity = hit->earlier ? attempt_entity(hit->attempt) : "";
  next.query.clear();
  next.cursor = {};
  st.stack.push_back(std::move(next));
  open_logs(ctx, st, hit->stderr_stream);
  auto& lg = log_state(st);
  lg.follow = false;
  lg.match = hit->line;
  if (pattern && lg.file) {
    auto lines = lg.file->read_lines(hit->line, 1);
    if (lines && !lines->empty()) lg.search = grep_match_text(*pattern, lines->front().text);
  }
  scroll_to_line(lg.view, log_lines(lg), hit->line);
}

}  // namespace trainyard
