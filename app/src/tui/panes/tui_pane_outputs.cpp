// The Outputs pane (`i` on a Batch task): what the task was given and everything it produced,
// wherever it is now: its node's files while the node lives, what its outputFiles uploaded (each
// destination with its upload state), and its File Conventions blobs; so results can be fetched
// after the node is gone. Read on the account's worker; `d` fetches a row, `a` all of them.
#include <fmt/format.h>

#include "account_lookup.hpp"
#include "azure/task_outputs.hpp"
#include "core/byte_size.hpp"
#include "core/sanitizer.hpp"
#include "core/text.hpp"
#include "storage_lookup.hpp"
#include "sync/incremental_sync.hpp"
#include "task_output_sources.hpp"
#include "tui_batch.hpp"
#include "tui_storage.hpp"

namespace trainyard {
namespace {

/// One row: an input, an upload destination with its state, or an output found.
struct OutputRow {
  std::string key;   ///< `in/N`, `up/N` or `out/N` (N: the index in its list)
  std::string kind;  ///< input, upload, node, outputFiles, conventions
  std::string name;
  std::optional<uint64_t> size;
  std::optional<Timestamp> modified;
  std::string info;  ///< where from or to; an upload's state
  std::optional<Role> role;
  Timestamp now;
};

const std::vector<ColumnDef<OutputRow>>& output_columns() {
  using R = const OutputRow&;
  static const std::vector<ColumnDef<OutputRow>> columns = {
      {"kind",
       {"KIND", 11},
       [](R r) {
         return TableCell{r.kind, Role::Dim};
       }},
      {"name", {"NAME", 0, 10, 3}, [](R r) { return TableCell{sanitize_text(r.name)}; }},
      {"size",
       {"SIZE", 10, 1, 0, Align::Right},
       [](R r) { return TableCell{r.size ? human_size(*r.size) : ""}; },
       [](R r) { return SortKey{static_cast<int64_t>(r.size.value_or(0))}; }},
      {"modified",
       {"MODIFIED", 8, 1, 0, Align::Right},
       [](R r) { return TableCell{r.modified ? age_of(r.modified, r.now) : ""}; }},
      {"info", {"WHERE · STATE", 0, 10, 3}, [](R r) {
         return TableCell{sanitize_text(r.info), r.role};
       }}};
  return columns;
}

/// What the worker read for one task.
struct ReadOutputs {
  std::string frame;  ///< frame_key() of the pane it was read for
  Result<TaskOutputs> found = make_error(ErrorKind::Internal, "not read yet");
};

bool blob_of(const TaskOutput& o, const azure::ContainerUrl& where, const OutputFile& f) {
  return o.source != OutputSource::Node && o.container == where.container &&
         output_file_holds(f, o.name);
}

bool condition_met(const std::string& condition, const Task& t) {
  auto c = ascii_lowercase(condition);
  bool failed = t.execution_info.result == TaskResult::Failure;
  if (c == "tasksuccess") return !failed;
  if (c == "taskfailure") return failed;
  return true;
}

// The service's word on why entry `f` was not uploaded: the failureInfo detail naming its
// pattern, else the only upload detail there is.
std::optional<std::string> upload_error_of(const OutputFile& f, const Task& t) {
  const auto& fi = t.execution_info.failure_info;
  if (!fi) return std::nullopt;
  std::vector<std::string> uploads;
  for (const auto& d : fi->details) {
    if (d.name != "FileUploadError") continue;
    if (d.value.find(f.file_pattern) != std::string::npos) return sanitize_text(d.value);
    uploads.push_back(d.value);
  }
  if (uploads.size() == 1) return sanitize_text(uploads.front());
  return std::nullopt;
}

// Whether an outputFiles entry's blobs are there: counted from what the listing found.
std::pair<std::string, std::optional<Role>> upload_state(const OutputFile& f,
                                                         const TaskOutputs& found) {
  auto where = azure::parse_container_url(f.container_url);
  size_t n = 0;
  uint64_t bytes = 0;
  for (const auto& o : found.items)
    if (where && blob_of(o, *where, f)) bytes += (++n, o.size);
  const Task& t = found.task;
  if (n > 0)
    return {fmt::format("uploaded: {} blob(s), {}", n, human_size(bytes)), Role::StateSuccess};
  if (t.state != TaskState::Completed) return {"uploads when the task ends", Role::Dim};
  if (!condition_met(f.upload_condition, t))
    return {"not uploaded: only " + condition_text(f.upload_condition), Role::Dim};
  if (auto why = upload_error_of(f, t)) return {"upload failed: " + *why, Role::StateFailure};
  return {"nothing uploaded there (see the task's fileuploaderr.txt)", Role::StateFailure};
}

std::vector<OutputRow> rows_of(const TaskOutputs& found, Timestamp now) {
  std::vector<OutputRow> rows;
  const Task& t = found.task;
  for (size_t i = 0; i < t.resource_files.size(); ++i)
    rows.push_back({fmt::format("in/{}", i), "input", input_line(t.resource_files[i]), std::nullopt,
                    std::nullopt, "", std::nullopt, now});
  for (size_t i = 0; i < t.output_files.size(); ++i) {
    auto [state, role] = upload_state(t.output_files[i], found);
    rows.push_back({fmt::format("up/{}", i), "upload", output_line(t.output_files[i]), std::nullopt,
                    std::nullopt, state, role, now});
  }
  for (size_t i = 0; i < found.items.size(); ++i) {
    const auto& o = found.items[i];
    bool node = o.source == OutputSource::Node;
    rows.push_back({fmt::format("out/{}", i), to_string(o.source),
                    node ? o.name : o.container + "/" + o.name, o.size, o.last_modified,
                    node ? "the node (while it lives)" : "storage " + o.storage, std::nullopt,
                    now});
  }
  return rows;
}

// The output a row key names (`out/N`), or null.
const TaskOutput* output_of(const TaskOutputs& found, const std::string& key) {
  if (!key.starts_with("out/")) return nullptr;
  size_t i = std::stoul(key.substr(4));
  return i < found.items.size() ? &found.items[i] : nullptr;
}

class OutputsPane : public Pane {
 public:
  std::string label() const override { return "Outputs"; }
  std::string name() const override { return "outputs"; }
  std::string title(const Frame& f) const override {
    return "Inputs and outputs · " + sanitize_text(f.job + "/" + f.task);
  }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    const auto& f = st.stack.back();
    return {f.account, "jobs", f.job, f.task, "outputs"};
  }
  std::vector<Context> contexts() const override {
    return {Context::Outputs, Context::Table, Context::Global};
  }
  bool reads_in_background() const override { return false; }
  std::string focus_scope(const Frame& f) const override { return tasks_scope(f.job); }

  void entered(AppContext& ctx, TuiState& st) override { read(ctx, st); }
  bool act(AppContext& ctx, TuiState& st, Action a) override;
  TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows) override {
    TablePage p;
    auto found = shown(st);
    std::vector<OutputRow> items;
    if (found) items = rows_of(*found, ctx.clock.now());
    fill_page(
        p, output_columns(), true, items, [](const OutputRow& r) { return r.key; }, st.top().cursor,
        first, rows);
    return p;
  }
  std::string empty_text(const TuiState& st) const override {
    if (!read_ || read_->frame != frame_key(st.stack.back())) return "reading the task's files…";
    return read_->found ? "the task has no input or output"
                        : sanitize_text(read_->found.error().message);
  }
  Rect table_rect(const TuiState& st, Rect body) const override {
    return body.drop_bottom(std::min(notes(st), std::max(0, body.h - 4)));
  }
  void render(AppContext& ctx, TuiState& st, Canvas& c, Rect body) override {
    Rect table = table_rect(st, body);
    Pane::render(ctx, st, c, table);
    auto found = shown(st);
    for (int i = 0; found && i < body.h - table.h; ++i)
      c.draw_text_truncated(body.x, table.y + table.h + i, sanitize_text(found->notes[i]),
                            Role::Dim, body.w);
  }

 private:
  const TaskOutputs* shown(const TuiState& st) const {
    if (!read_ || read_->frame != frame_key(st.stack.back()) || !read_->found) return nullptr;
    return &*read_->found;
  }
  int notes(const TuiState& st) const {
    auto found = shown(st);
    return found ? static_cast<int>(found->notes.size()) : 0;
  }

  // On the account's worker; the rows show when it answers.
  void read(AppContext& ctx, TuiState& st) {
    auto account = find_account(ctx.settings, st.top().account);
    if (!account) return set_status(st, sanitize_text(account.error().message), StatusLevel::Error);
    auto out = std::make_shared<ReadOutputs>();
    out->frame = frame_key(st.top());
    const Frame f = st.top();
    run_batch(
        ctx, st, fmt::format("reading the files of {}/{}", f.job, f.task),
        [&settings = ctx.settings, &clock = ctx.clock, acc = *account, f, out](
            azure::BatchClient& c, Store&) -> Result<std::string> {
          out->found = find_task_outputs(settings, c, acc, "", f.job, f.task, clock);
          if (!out->found) return out->found.error();
          return fmt::format("{}/{}: {} file(s) and blob(s) found", f.job, f.task,
                             out->found->items.size());
        },
        false,
        [this, &ctx, &st, out](const Result<std::string>&) {
          read_ = out;
          if (frame_key(st.top()) == out->frame) load_page(ctx, st);
        });
  }

  void fetch(AppContext& ctx, TuiState& st, std::vector<TaskOutput> items);
  void open(AppContext& ctx, TuiState& st, const TaskOutput& o);

  std::shared_ptr<ReadOutputs> read_;
};

// Fetches `items` into a folder the form asks for, on the account's worker.
void OutputsPane::fetch(AppContext& ctx, TuiState& st, std::vector<TaskOutput> items) {
  Form form;
  form.title = items.size() == 1 ? "Fetch " + sanitize_text(items.front().name)
                                 : fmt::format("Fetch all {} outputs", items.size());
  form.add("To folder", ".", "a local folder (made when missing)", required_field);
  form.note = {"Node files land under node/, outputFiles blobs under their names,",
               "File Conventions blobs under $TaskOutput/ and $TaskLog/."};
  const Frame f = st.top();
  open_form(st, std::move(form), [&ctx, &st, items, f](const Form& done) {
    std::string dir = done.value("To folder");
    run_batch(
        ctx, st, fmt::format("fetching {} output(s) of {}/{}", items.size(), f.job, f.task),
        [items, f, dir](azure::BatchClient& c, Store&) -> Result<std::string> {
          uint64_t bytes = 0;
          for (const auto& o : items) {
            if (auto ok = fetch_task_output(c, f.job, f.task, o, dir); !ok) return ok.error();
            bytes += o.size;
          }
          return fmt::format("fetched {} output(s), {} to {}", items.size(), human_size(bytes),
                             dir);
        },
        false);
  });
}

// A blob in the log view (text, or not: `l` on the Storage pane decides nothing here); a
// node's stdout or stderr in the task's own log view.
void OutputsPane::open(AppContext& ctx, TuiState& st, const TaskOutput& o) {
  if (o.source == OutputSource::Node) {
    if (o.name != "stdout.txt" && o.name != "stderr.txt")
      return set_status(st, "d fetches it; only stdout.txt and stderr.txt open here",
                        StatusLevel::Info);
    bool err = o.name == "stderr.txt";
    push_frame(ctx, st, [&] {
      Frame next = st.top();
      next.view = View::Logs;
      next.entity.clear();
      return next;
    }());
    if (err) log_action(ctx, st, Action::Stderr);
    return;
  }
  if (o.storage.empty() || !is_text_blob(o.name, ""))
    return set_status(st, "d fetches it (not text, or no storage account opens it here)",
                      StatusLevel::Info);
  Frame next = make_frame(View::Logs, kLocalAccount);
  next.entity = blob_log_entity({o.storage, o.container, o.name});
  push_frame(ctx, st, next);
}

bool OutputsPane::act(AppContext& ctx, TuiState& st, Action a) {
  const auto* found = shown(st);
  auto key = selected_key(st);
  const TaskOutput* o = found && key ? output_of(*found, *key) : nullptr;
  switch (a) {
    case Action::Refresh:
      read(ctx, st);
      return true;
    case Action::Enter:
      if (o) open(ctx, st, *o);
      return true;
    case Action::Download:
      if (!o)
        return set_status(st, "d fetches an output: select a file or blob", StatusLevel::Info),
               true;
      fetch(ctx, st, {*o});
      return true;
    case Action::DownloadAll:
      if (!found || found->items.empty())
        return set_status(st, "nothing to fetch", StatusLevel::Info), true;
      fetch(ctx, st, found->items);
      return true;
    default:
      return false;
  }
}

}  // namespace

std::unique_ptr<Pane> make_outputs_pane() {
  return std::make_unique<OutputsPane>();
}

}  // namespace trainyard
