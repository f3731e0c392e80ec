// The actions a key can be bound to, where a binding applies, and a binding: the data that
// config.json's `keys` names and the TUI's key table holds.
#pragma once

#include <string>

namespace trainyard {

/// Everything a key can do in the normal mode.
enum class Action {
  Quit,     ///< quit at the top pane, back in a sub-pane
  QuitNow,  ///< quit from any pane
  Help,
  Back,
  Enter,
  Up,
  Down,
  Top,
  Bottom,
  PageUp,
  PageDown,
  Filter,
  Command,
  RunForm,
  Stop,
  Detail,
  Logs,
  Stderr,
  Follow,
  Wrap,
  ScrollLeft,   ///< a text view without wrap: half a screen left
  ScrollRight,  ///< half a screen right
  LineStart,    ///< back to the lines' start
  LineEnd,      ///< to the end of the longest line shown
  Times,
  SearchNext,
  SearchPrev,
  Search,
  Pools,
  Jobs,
  Tasks,
  Gpus,
  Accounts,
  Refresh,
  Remove,
  Sweep,
  SortNext,
  SortFlip,
  Mark,
  Chart,
  NextMetric,     ///< the sweep table: rank by the job's next metric
  FlipDirection,  ///< the sweep table: best is the least or the greatest value
  RankByFlip,     ///< the sweep table: rank by each run's final or best value
  Pin,
  Create,            ///< a pool or a job (Batch)
  Resize,            ///< a pool
  StopResize,        ///< a pool
  Autoscale,         ///< a pool: enable (the evaluation shown)
  DisableAutoscale,  ///< a pool
  Delete,            ///< a pool (its id typed), a node (removed), a job
  Reboot,            ///< a node
  Reimage,           ///< a node
  Scheduling,        ///< a node's scheduling, a job's enable/disable: toggled
  RemoteLogin,       ///< a node: connect (a temporary user, then ssh)
  TensorBoard,       ///< a local run: TensorBoard on its working directory
  Terminate,         ///< a job
  Reactivate,        ///< a failed task: run it again
  Compare,           ///< a run: add to (or remove from) the runs compared
  CompareOpen,       ///< the Compare pane
  SplitLogs,         ///< logs: keep this one in a split; then side by side ↔ stacked
  SwitchLog,         ///< logs: the other log of the split takes the keys
  CloseSplit,        ///< logs: close the split
  HistoryBack,       ///< the frame shown before (browser-like)
  HistoryForward,    ///< the frame `HistoryBack` left
  FailedTasks,       ///< a job: its failed tasks
  Columns,           ///< a table pane: choose which columns it shows
  Wide,              ///< the table panes: wide mode (more columns) on/off
  ShowJson,          ///< a table row: its entity as Batch wire JSON
  ToggleColumn,      ///< the column chooser: show/hide the selected column
  Download,          ///< storage: the selected blob or folder to a local folder
  Upload,            ///< storage: a local file or folder into the folder shown
  Outputs,           ///< a Batch task: its inputs and outputs, wherever they are
  DownloadAll,       ///< a task's outputs: every one of them to a local folder
};

/// Where a binding applies.
enum class Context {
  Global,
  Table,
  Accounts,
  Pools,
  Nodes,
  Jobs,
  Tasks,
  Logs,
  Detail,
  Gpus,
  Sweep,
  Compare,
  Json,     ///< the JSON of an entity (`y`)
  Columns,  ///< the column chooser
  Storage,  ///< the storage accounts, containers and blobs
  Outputs,  ///< a Batch task's inputs and outputs
};

/// One binding.
struct Binding {
  std::string chord;  ///< tmux-style key name (`j`, `Enter`, `C-c`)
  Action action;
  std::string description;
  Context context;
  bool hint = false;  ///< shown in the hint bar
};

}  // namespace trainyard
