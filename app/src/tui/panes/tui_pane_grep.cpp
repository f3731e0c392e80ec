// The Grep pane: the lines of a job's stdout and stderr logs that match `:grep PATTERN`, by
// task, read on the reader thread; a file is searched again only when it grew.
#include <filesystem>
#include <unordered_map>

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "local/task_environment.hpp"
#include "tui_grep.hpp"

namespace trainyard {
namespace {

const std::vector<ColumnDef<GrepHit>>& grep_columns() {
  static const std::vector<ColumnDef<GrepHit>> defs{
      {"task",
       {"TASK", 0, 8, 1},
       [](const GrepHit& h) {
         return TableCell{sanitize_text(h.task), std::nullopt};
       }},
      {"stream",
       {"STREAM", 6},
       [](const GrepHit& h) {
         return TableCell{h.stderr_stream ? "stderr" : "stdout",
                          h.stderr_stream ? std::optional(Role::StatusError) : std::nullopt};
       }},
      {"attempt",
       {"TRY", 3, 1, 0, Align::Right},
       [](const GrepHit& h) {
         return TableCell{std::to_string(h.attempt), h.earlier ? Role::Dim : Role::Row};
       }},
      {"line",
       {"LINE", 7, 1, 0, Align::Right},
       [](const GrepHit& h) {
         return TableCell{std::to_string(h.line + 1), Role::Dim};
       }},
      {"text", {"TEXT", 0, 10, 4}, [](const GrepHit& h) {
         return TableCell{h.text, std::nullopt};  // sanitized when read (LogFile)
       }}};
  return defs;
}

// A file's hits, kept while its size stays the same.
struct FileHits {
  std::string pattern;
  uintmax_t size = 0;
  std::vector<GrepLine> lines;
};

class GrepPane : public Pane {
 public:
  std::string label() const override { return "Grep"; }
  std::string name() const override { return "grep"; }
  std::string title(const Frame& f) const override {
    return "Grep · " + f.job + " · " + sanitize_text(f.query);
  }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    const auto& f = st.stack.back();
    return {f.account, "jobs", f.job, "grep"};
  }
  std::vector<Context> contexts() const override { return {Context::Table, Context::Global}; }
  bool act(AppContext& ctx, TuiState& st, Action a) override {
    if (a != Action::Enter) return false;
    open_grep_hit(ctx, st);
    return true;
  }
  std::string empty_text(const TuiState&) const override { return "no line matches"; }
  Rect table_rect(const TuiState&, Rect body) const override { return body.drop_top(1); }

  TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows) override {
    const Frame& f = st.top();
    summary_ = std::make_shared<GrepSummary>();
    std::vector<GrepHit> hits;
    auto pattern = parse_grep_pattern(f.query);
    if (!pattern) summary_->error = pattern.error().message;
    if (pattern) hits = search(ctx, f, *pattern);
    TablePage p;
    fill_page(p, grep_columns(), false, hits, grep_hit_key, f.cursor, first, rows);
    return p;
  }
  std::shared_ptr<const PaneData> read_data(AppContext&, TuiState&) override { return summary_; }
  void render(AppContext& ctx, TuiState& st, Canvas& c, Rect body) override {
    if (const auto* s = shown_data<GrepSummary>(st))
      c.draw_text(body.x + 1, body.y, summary_text(*s, st.stack.back()), Role::Title, body.w - 1);
    Pane::render(ctx, st, c, table_rect(st, body));
  }

 private:
  static std::string summary_text(const GrepSummary& s, const Frame& f) {
    if (!s.error.empty()) return sanitize_text(s.error);
    auto text = fmt::format("{}{} line(s) match {} in {} log(s) of {}", s.capped ? "first " : "",
                            s.hits, sanitize_text(f.query), s.logs_read, sanitize_text(f.job));
    if (s.logs_missing) text += fmt::format(" · {} log(s) not in the cache (yet)", s.logs_missing);
    return text;
  }

  std::vector<GrepHit> search(AppContext& ctx, const Frame& f, const GrepPattern& pattern) {
    std::vector<GrepHit> hits;
    TaskQuery q;
    q.account = f.account;
    q.job = f.job;
    auto tasks = ctx.store->tasks(q);
    if (!tasks) return hits;
    Frame log_frame = f;
    for (const auto& t : *tasks) {
      log_frame.task = t.id;
      // A local run's earlier attempts first (stdout.attempt-N.txt), then its latest.
      int earlier = f.account == kLocalAccount ? earlier_attempts(ctx, f.job, t.id) : 0;
      for (int n = 0; n <= earlier; ++n) {
        log_frame.entity = n < earlier ? attempt_entity(n) : "";
        for (bool err : {false, true})
          search_file(ctx, log_frame, err, f.query, pattern, {n, n < earlier}, hits);
      }
    }
    summary_->hits = hits.size();
    summary_->capped = hits.size() >= kGrepMaxHits;
    return hits;
  }

  // How many earlier attempts of a local run kept their logs (stdout.attempt-0.txt, -1, …).
  static int earlier_attempts(AppContext& ctx, const std::string& job, const std::string& task) {
    auto paths = run_paths(ctx.data_dir, job, task);
    int n = 0;
    std::error_code ec;
    while (std::filesystem::exists(attempt_log_path(paths.stdout_txt, n), ec) ||
           std::filesystem::exists(attempt_log_path(paths.stderr_txt, n), ec))
      ++n;
    return n;
  }

  struct Attempt {
    int number = 0;
    bool earlier = false;
  };

  void search_file(AppContext& ctx, const Frame& task_log, bool err, const std::string& query,
                   const GrepPattern& pattern, Attempt attempt, std::vector<GrepHit>& hits) {
    if (hits.size() >= kGrepMaxHits) return;
    auto path = log_path(ctx, task_log, err);
    std::error_code ec;
    auto size = path.empty() ? 0 : std::filesystem::file_size(path, ec);
    if (path.empty() || ec) {
      // A local run that has not started has no logs; a Batch task's copy may not be fetched.
      if (task_log.account != kLocalAccount) ++summary_->logs_missing;
      return;
    }
    ++summary_->logs_read;
    auto& cached = cache_[path];
    if (cached.pattern != query || cached.size != size) {
      auto lines = grep_file(path, pattern, kGrepMaxHits);
      cached = {query, size, lines ? std::move(*lines) : std::vector<GrepLine>{}};
    }
    for (const auto& l : cached.lines) {
      if (hits.size() >= kGrepMaxHits) return;
      hits.push_back({task_log.task, err, l.line, l.text, attempt.number, attempt.earlier});
    }
  }

  std::shared_ptr<GrepSummary> summary_ = std::make_shared<GrepSummary>();
  std::unordered_map<std::string, FileHits> cache_;
};

}  // namespace

std::unique_ptr<Pane> make_grep_pane() {
  return std::make_unique<GrepPane>();
}

}  // namespace trainyard
