// Internal: the TUI's state and the functions that change and draw it.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "app/context.hpp"
#include "compare_runs.hpp"
#include "core/event_queue.hpp"
#include "cost_watcher.hpp"
#include "keymap.hpp"
#include "local/engine.hpp"
#include "local/gpu_monitor.hpp"
#include "local_worker.hpp"
#include "storage_runner.hpp"
#include "sweep_table.hpp"
#include "sync/batch_poller.hpp"
#include "sync/command_runner.hpp"
#include "sync/log_file.hpp"
#include "text_scroll.hpp"
#include "tui.hpp"
#include "tui_columns.hpp"
#include "tui_history.hpp"
#include "tui_log_marks.hpp"
#include "tui_marks.hpp"
#include "tui_pane.hpp"
#include "tui_plugins.hpp"
#include "tui_preemption.hpp"
#include "tui_reader.hpp"
#include "widgets/bars.hpp"
#include "widgets/charts.hpp"
#include "widgets/dialog.hpp"
#include "widgets/form.hpp"
#include "widgets/line_edit.hpp"
#include "widgets/table.hpp"

namespace trainyard {

/// Input modes; Normal dispatches through the keymap.
enum class Mode { Normal, Filter, Command, Search, SubmitPath, Form, Confirm, Help };

/// Per-task cells that cost queries (sparkline, main metric, disk); kept until the store changes,
/// so keystrokes that show the same tasks again (filtering, scrolling) do not query them again.
struct RowExtras {
  std::string spark, metric, disk;
};
using RowCache = std::unordered_map<std::string, RowExtras>;
/// Pinned jobs by account.
using PinnedJobs = std::map<std::string, std::set<std::string>>;

/// The sweep pane: every run of a job, loaded once per store change, sorted in memory.
struct SweepState {
  std::string job;      ///< account/job the rows belong to
  bool stale = true;    ///< the store changed since the rows were loaded
  bool rerank = false;  ///< the metric or direction changed: every run is summarized again
  std::vector<std::string> param_names;
  SweepMetric metric;  ///< what ranks the runs (the main metric until `m` or `M` changes it)
  std::vector<SweepRow> rows;       ///< sorted
  std::vector<size_t> shown;        ///< indices into rows that match the filter
  std::optional<std::string> best;  ///< id of the best run
  int sort_column = -1;             ///< index among the sortable columns; -1: BEST
  bool reversed = false;            ///< sort against the column's natural direction
  std::vector<std::string> marked;  ///< marked run ids, in marking order
  bool chart = false;               ///< the overlay chart is open
  std::unordered_map<std::string, std::vector<double>> curves;  ///< chart data by run id
  std::vector<std::string> metric_names;  ///< the job's metrics, in order of first appearance
  std::string names_error;                ///< why they could not be read
};

/// What the sweep's read depends on beyond its frame: the user's choices, made on the UI thread.
struct SweepChoice : PaneData {
  SweepMetric metric;  ///< empty: the job's main metric
  int sort_column = -1;
  bool reversed = false;
  std::vector<std::string> marked;
  bool chart = false;
};

/// What the sweep pane draws beyond its table page, read on the reader's connection.
struct SweepView : PaneData {
  std::string header;  ///< `best by loss ↓ min · g1 (baseline) 0.2639`
  SweepMetric metric;  ///< what ranks the runs
  size_t params = 0;   ///< parameter columns
  std::vector<std::string> metric_names;
  std::string names_error;
  std::optional<LineChartVm> chart;  ///< when open; no series: nothing to chart yet
};

/// The log pane: a bounded-memory view of one file.
struct LogState {
  std::optional<LogFile> file;
  std::string path;
  bool stderr_stream = false;
  TextScroll view;  ///< where it is scrolled to, wrapped or not, and the size last drawn
  bool follow = true;
  std::string search;
  std::optional<size_t> match;
  bool wrapped = false;  ///< the last search step went past an end and came round
  bool times = false;    ///< show when each line was read
  /// Whose read marks date the lines; none where none are kept (a node's files).
  std::optional<LogMarksKey> marks_key;
  /// The marks read so far, by offset; the reader adds the newer ones (tui_log_marks.hpp).
  std::vector<LogMark> marks;
  std::optional<Timestamp> ended;  ///< the task's end, as last read
};

/// Where the status message came from and what it was set against, so it can go stale.
struct StatusTrack {
  std::string frame;          ///< frame_key() of the pane on screen when it was set
  int64_t data_version = -1;  ///< the store's data_version when it was set
  bool polled = false;        ///< set on a Batch account's pane, whose data a poller renews
};

/// What the open form's extra keys do (tui_forms.cpp); an empty member: that key does nothing.
struct FormHooks {
  /// ^O: the request the form stands for, as JSON text for $EDITOR.
  std::function<std::string(const Form&)> to_json;
  std::string json_name;  ///< the name an edit is checked under (`pool.json`)
  /// Checks an edited request and, when it is valid, sends it and closes the form; else the
  /// error (its line and column) and nothing is sent.
  std::function<Result<void>(const std::string& text, const Form&)> send_json;
  std::function<void(const Form&)> evaluate;  ///< ^T: try the form's values (autoscale)
  std::string draft;                          ///< an edit that failed its check: what ^O opens next
};

/// Everything the UI thread owns.
struct TuiServices;

/// The help overlay's scrolling: its first line, and what the last draw measured of it.
struct HelpScroll {
  size_t top = 0;       ///< the first line shown
  size_t max_top = 0;   ///< the first line of the last full page
  size_t per_page = 0;  ///< lines one screen shows
};

/// What the open prompt, form, confirmation or help holds: one at a time, over every pane.
struct ModalState {
  Mode mode = Mode::Normal;
  LineEdit input;
  std::optional<Form> form;
  /// What a valid submit of `form` does; empty: the local run form's submit.
  std::function<void(const Form&)> on_form_submit;
  FormHooks form_hooks;  ///< the open form's ^O and ^T
  /// Runs $EDITOR on a file with the terminal handed over to it (set by the Tui).
  std::function<Result<void>(const std::string& path)> edit_file;
  std::optional<DialogVm> confirm;
  std::function<void()> on_confirm;
  HelpScroll help;  ///< where the help is scrolled to
  /// The `:` commands Tab cycles through, and the one it put in the command line.
  std::vector<std::string> completions;
  size_t completion = 0;
};

/// What the status line knows beside its message: where the message came from and how fresh
/// the data on screen is.
struct StatusNotes {
  StatusTrack track;
  /// The action of the key being handled (`stop`, `:submit`), for the status message's origin.
  std::string action_label;
  std::optional<Timestamp> data_time;
  std::string sync_error;       ///< the focused Batch account's last poll failure (empty: none)
  PreemptionWatch preemptions;  ///< what the status line last said of preemptions
  /// After `R` on a Batch account: the account and its poller's cycle count then; the status
  /// line says what the next cycle found.
  std::optional<std::pair<std::string, uint64_t>> refresh_asked;
  /// account_poll_notes as the last status fill saw them (the Accounts pane's POLL column).
  std::map<std::string, std::string> account_polls;
};

/// The focused table pane's rows as the last draw laid them out.
struct TableState {
  TablePage page;        ///< the visible rows
  RowMarks marks;        ///< rows marked with Space (in one frame)
  ColumnChoice columns;  ///< wide mode and the columns hidden, for the session
  int body_height = 10;  ///< table rows that fit, from the last draw
  Rect pane_body;        ///< the pane's inside at the last draw (where clicks land)
};

/// The focused pane's data read off the UI thread (Detail, GPUs), and the frame it is for.
struct ShownPaneData {
  std::shared_ptr<const PaneData> data;
  std::string frame;  ///< frame_key() of the frame it was read for
};

/// The threads that work for the UI and what the UI last took from them. `events` comes first:
/// every worker posts to it, so the workers are destroyed, and joined, before it.
struct TuiWork {
  EventQueue events;  ///< workers (the GPU sampler, pollers) wake the loop through its fd
  /// Reads the store for the UI thread; none when its connection could not be opened: the UI
  /// thread reads itself.
  std::unique_ptr<TuiReader> reader;
  uint64_t read_generation = 0;  ///< of the latest request to the reader
  SyncFacts sync;                ///< the sync facts of the model on screen
  int64_t read_version = -1;     ///< the reader's data_version when it read the model on screen
  /// Reads the store's PRAGMA data_version (set by the Tui; -1 when unknown).
  std::function<int64_t()> read_data_version;
  std::chrono::steady_clock::time_point last_reload{};
  int64_t data_version = -1;  ///< PRAGMA data_version at the last reload
  /// Works out the watched Batch accounts' costs; none when its connection could not be opened.
  std::unique_ptr<CostWatcher> costs;
  std::shared_ptr<const CostSnapshot> cost_view;  ///< the costs on screen; null: none yet
  /// The local engine's thread: scheduling passes and local actions.
  std::unique_ptr<LocalWorker> local;
  bool run_form_pending = false;  ///< the run form's submit is with the worker
  std::unique_ptr<GpuMonitor> gpus;
  /// Batch accounts' pollers by account, started when first shown.
  std::map<std::string, std::unique_ptr<BatchPoller>> pollers;
  bool live = false;  ///< an interactive loop runs (headless frames never poll)
  /// Batch accounts' action workers by account.
  std::map<std::string, std::unique_ptr<CommandRunner>> runners;
  /// The plugin commands' worker, made on the first.
  std::unique_ptr<PluginRunner> plugins;
  /// The storage worker (listings, transfers, blob tails), made on first use.
  std::unique_ptr<StorageRunner> storage;
};

/// What the panes share: the frames on screen and in history, the keys, the modal layer, the
/// status line, the focused table, the marks that span panes, and the workers.
struct TuiState {
  TuiOptions options;
  Panes panes;  ///< one of each pane, with its own state
  std::vector<Frame> stack;
  NavHistory history;             ///< the stacks shown before (`[`) and after (`]`)
  std::vector<Binding> bindings;  ///< the keymap with config.json's `keys` applied
  ModalState modal;
  StatusBarVm status;
  StatusNotes notes;
  TableState table;
  ShownPaneData shown;
  /// Pinned jobs by account: their running tasks' logs are followed (metrics stay live).
  PinnedJobs pinned;
  CompareSet compare;  ///< runs marked with `v` in any pane, job and account
  bool quit = false;
  TuiWork work;
  /// The terminal handed to ssh, alerts' bell and commands, TensorBoard (tui_services.hpp); set
  /// by the Tui, after `work` so it goes first (its workers post to `work.events`).
  std::shared_ptr<TuiServices> services;

  Frame& top() { return stack.back(); }
};

/// What table panes share (tui_tables.cpp).
/// Loads the focused pane's visible page, keeping the selection within the rows and on screen.
void load_page(AppContext& ctx, TuiState& st);
/// The id of the selected row of the focused table pane.
std::optional<std::string> selected_key(const TuiState& st);
/// Opens `next` on top of the stack (its cursor reset) and tells its pane.
void push_frame(AppContext& ctx, TuiState& st, Frame next);
/// The state colour of a task.
Role task_role(const Task& t);
/// A run's cells as the Sweep and Compare tables show them: STATE (short forms), EXIT, each
/// parameter, FINAL and BEST, the value ranked by in the success colour when the run is `best`.
void add_run_cells(TableRow& row, const SweepMetric& m, const SweepRow& r, bool best);
/// The loaded page as a table view-model (selection, scroll, empty text for no rows).
TableVm page_table_vm(const TuiState& st, const std::string& empty_text);
/// Shows `data` as the focused frame's pane data.
void show_pane_data(TuiState& st, std::shared_ptr<const PaneData> data);

/// The panes' own state (tui_pane_logs.cpp, tui_pane_sweep.cpp).
LogState& log_state(TuiState& st);
const LogState& log_state(const TuiState& st);
SweepState& sweep_state(TuiState& st);
const SweepState& sweep_state(const TuiState& st);

/// Actions (tui_actions.cpp).
void apply_action(AppContext& ctx, TuiState& st, Action a);
/// Moves the focused table's selection by `delta` rows (clamped), scrolling to keep it shown.
void move_selection(TuiState& st, long delta);
/// Hands a local action to the worker; its outcome goes to the status bar.
void run_local(TuiState& st, LocalWorker::Action action);
/// Retries the selected (or open) finished local run as its next attempt (tui_retry.cpp).
void retry_local_run(TuiState& st);

/// The status message (tui_status.cpp).
/// Sets the message, its origin the focused pane and the action being handled.
void set_status(TuiState& st, std::string msg, StatusLevel level = StatusLevel::Info);
/// Sets a message whose origin was taken earlier (an action's outcome that came back later).
void set_status_from(TuiState& st, std::string origin, std::string msg, StatusLevel level);
/// `Tasks · stop`, `emu Pools · resize`: the focused pane (its account unless local) and
/// the action being handled.
std::string status_origin(const TuiState& st, bool with_action = true);
/// The name of what `a` does in `pane`, as the hint bar says it (`stop`, `start`).
std::string action_name(const Pane& pane, Action a);
/// Identity of a frame (pane and what it shows), to tell when the user moved elsewhere.
std::string frame_key(const Frame& f);
/// Once the user moved to another pane, an info message is cleared and any other is marked
/// stale; newer data (the store's data_version moved) marks it stale too.
void age_status(TuiState& st);

/// Modes (tui_modes.cpp).
void handle_mode_key(AppContext& ctx, TuiState& st, const KeyEvent& key);
/// The run form (tui_run_form.cpp): shows it; queues its run on Enter.
void open_run_form(AppContext& ctx, TuiState& st);
void submit_run_form(TuiState& st);
void run_command_line(AppContext& ctx, TuiState& st, const std::string& text);
/// The `:` commands (names, and aliases of three letters or more) that start with `prefix`,
/// sorted.
std::vector<std::string> complete_command(const std::string& prefix);
/// The commands Tab is cycling through while the command line holds one of them; else none.
const std::vector<std::string>* cycled_completions(const TuiState& st);

/// Form keys beyond editing (tui_forms.cpp).
/// ^O (the request in $EDITOR) and ^T (evaluate) of the open form; false for other keys.
bool handle_form_hook_key(TuiState& st, const KeyEvent& key);
/// Closes the open form, forgetting its handlers.
void close_form(TuiState& st);
/// `path` read whole; an Io error naming it when it cannot be read.
Result<std::string> read_whole_file(const std::string& path);
/// A service's error as a form shows it: the detail (a formula's line and column, a reason)
/// first, without the request id.
std::string service_error_text(const std::string& message);

/// Submitting a spec file (tui_submit.cpp).
/// Opens the spec path prompt (a Batch account must take changes).
void open_submit_prompt(AppContext& ctx, TuiState& st);
void handle_submit_key(AppContext& ctx, TuiState& st, const KeyEvent& key);
std::vector<std::string> path_candidates(const std::string& text);

/// Logs (tui_logs.cpp).
/// Opens the log pane's file for the focused frame: a local run's, or a Batch task's (or node's)
/// cache copy.
void open_logs(AppContext& ctx, TuiState& st, bool stderr_stream = false);
/// The file a frame's log is read from: a local run's own, else a Batch task's cache copy.
std::string log_path(AppContext& ctx, const Frame& f, bool stderr_stream);
/// `attempt:N`: the Frame entity of the log view of a local run's earlier attempt N
/// (`stdout.attempt-N.txt`).
std::string attempt_entity(int attempt);
/// The earlier attempt a log frame shows (attempt_entity); nullopt for the latest.
std::optional<int> attempt_of_frame(const Frame& f);
/// The remote file a Batch frame's log pane follows (`stdout.txt`, `startup/stderr.txt`…).
std::string remote_log_file(const Frame& f, bool stderr_stream);
void refresh_logs(TuiState& st);
/// Reads what `lg`'s file gained (of any log, focused or not).
void refresh_log_state(LogState& lg);
/// The log's lines as a text view reads them (tui_logs.cpp).
TextLines log_lines(LogState& lg);
/// Draws `lg` in `r` (its last row the view's status line).
void render_log_state(LogState& lg, Canvas& c, Rect r);
void log_action(AppContext& ctx, TuiState& st, Action a);
bool log_action_handles(Action a);
void render_logs(TuiState& st, Canvas& c, Rect r);
void log_search(TuiState& st, bool forward);
/// `:save PATH`: copies the log on screen to PATH (tui_log_save.cpp); asks before replacing.
void save_log_command(AppContext& ctx, TuiState& st, const std::string& path);

/// The pane data read for the focused frame when it is a `T`; none before it arrives.
template <typename T>
const T* shown_data(const TuiState& st) {
  if (st.shown.frame != frame_key(st.stack.back())) return nullptr;
  return dynamic_cast<const T*>(st.shown.data.get());
}

/// GPUs (tui_gpus.cpp).
/// Which live local run each process group is (the store's side of the GPUs pane).
std::shared_ptr<const PaneData> read_gpu_runs(AppContext& ctx);
/// Draws the sampler's GPUs with the runs the reader read (`ctx` gives the time: no query).
void render_gpus(AppContext& ctx, const TuiState& st, Canvas& c, Rect r);

/// Detail (tui_detail.cpp).
/// The frame's task with what its detail shows: instances, waiting reason, metric points.
std::shared_ptr<const PaneData> read_detail(AppContext& ctx, const Frame& f);
/// Draws the detail read for the focused frame (nothing before it arrives).
void render_detail(const TuiState& st, Canvas& c, Rect r);
/// A task's facts as label and value rows (tui_detail_setup.cpp).
using Facts = std::vector<std::pair<std::string, std::string>>;
/// `1 of 3`; a Batch task adds its requeues (`1 of 3 · requeues 2`).
std::string retries_text(const Task& t);
/// Adds what the task was set up with: its time limit (after the retries), environment,
/// resource files (inputs) and output files, each only when it has one.
void add_setup_facts(const Task& t, Facts& rows);
/// `data/ ← https://acct.blob…/c/in*`: a resource file, its URL without the query.
std::string input_line(const ResourceFile& f);
/// `outputs/** → https://acct.blob…/c/run (on success)`: an output file, its URL without the
/// query.
std::string output_line(const OutputFile& f);
/// An upload condition in words: `on success`, `on failure`, `always` (Batch's default).
std::string condition_text(const std::string& condition);

/// Batch actions by pane (tui_batch_pools.cpp, tui_batch_work.cpp); `a` is the pane's key action.
void pool_action(AppContext& ctx, TuiState& st, Action a);
void node_action(AppContext& ctx, TuiState& st, Action a);
void job_action(AppContext& ctx, TuiState& st, Action a);
void task_action(AppContext& ctx, TuiState& st, Action a);

/// Batch pollers (tui_pollers.cpp).
/// Adds the configured and environment accounts to the store, so the Accounts pane lists them.
void register_known_accounts(AppContext& ctx);
/// Starts the focused account's poller when needed and tells each poller what is on screen.
void update_pollers(AppContext& ctx, TuiState& st);
/// Pins or unpins the selected job of a Batch account's Jobs pane.
void toggle_pin(TuiState& st, const std::string& job);
/// Asks the focused account's poller to refresh what is on screen now.
void poke_poller(TuiState& st);
/// `R`: the same, saying `refreshing…` and then what the poller's next cycle found.
void refresh_poller(TuiState& st);
/// How each polled account fares, for its Accounts row: `ok`, `no answer for 40 s`, the last
/// error, `polled by pid N`; accounts without a poller are left out.
std::map<std::string, std::string> account_poll_notes(const TuiState& st, double no_answer_seconds);
/// True when the focused pane shows one of the scopes a poller wrote (it must re-read).
bool shows_written(const TuiState& st, const StoreWritten& w);
/// The ids of the rows on screen, the selected one first.
std::vector<std::string> rows_on_screen(const TuiState& st);
/// The pool a Nodes pane opens on when none is chosen: `local`, else the account's first.
std::string default_pool(AppContext& ctx, const std::string& account);
/// What an empty table pane says: `empty_text`, or why its account could not be read.
std::string empty_pane_text(const TuiState& st, std::string empty_text);
/// Data age and poller notes in the status bar for the focused frame.
void fill_sync_status(AppContext& ctx, TuiState& st);
/// When each part of a Batch account was last confirmed (read once per page of rows).
struct SyncAges {
  bool batch = false;                        ///< a Batch or emulator account: rows show their age
  std::map<std::string, Timestamp> checked;  ///< by scope
  Timestamp now;                             ///< what the ages are counted to
  /// `3s`, `2m`… since `scope` was confirmed; `never` when it was not.
  std::string age(const std::string& scope) const;
};
SyncAges load_sync_ages(AppContext& ctx, const std::string& account);
/// When the focused Batch pane's data was confirmed and its last fetch error, read from the
/// store (the reader's, on its thread); nothing for a local or account-less pane.
SyncFacts read_sync_facts(AppContext& ctx, const TuiState& st);
/// A pool's health from its nodes counted by state: its resize error, else how many nodes are
/// unusable or failed their start task; empty when well.
std::string pool_health(const Pool& p, const std::map<NodeState, int64_t>& nodes);

/// Sweep (tui_sweep.cpp).
/// Loads the job's runs when the store or the job changed, then fills `st.table.page`.
void refresh_sweep(AppContext& ctx, TuiState& st);
/// The user's sweep choices, for the reader.
std::shared_ptr<const PaneData> sweep_choice(const TuiState& st);
/// Takes the UI's choices into the reader's sweep state (a new job starts afresh).
void accept_sweep_choice(TuiState& st, const SweepChoice& in);
/// What the sweep draws beyond its page (header, metrics, chart), after refresh_sweep().
std::shared_ptr<const PaneData> read_sweep_view(AppContext& ctx, TuiState& st);
/// The part of `body` the sweep table gets (the rest holds the chart when open).
Rect sweep_table_rect(const TuiState& st, Rect body);
/// Draws the sweep table and, when open, the chart of the marked runs.
void render_sweep(const TuiState& st, Canvas& c, Rect body);
/// Opens the sweep pane of the job in focus (Jobs: the selected one).
void open_sweep(AppContext& ctx, TuiState& st, std::optional<std::string> job);
/// The chart series role of the i-th charted (or marked) run (tui_sweep_chart.cpp).
Role sweep_series_role(size_t i);
/// The main metric's curves of the marked runs, else of the best few, as one chart; no series
/// when there is nothing to chart.
LineChartVm sweep_chart_vm(AppContext& ctx, TuiState& st);
/// Draws the chart of sweep_chart_vm().
void render_sweep_chart(const LineChartVm& vm, Canvas& c, Rect r);
/// Sort, mark and chart keys of the sweep pane; false when `a` is not one of them.
bool sweep_action(TuiState& st, Action a);

}  // namespace trainyard
