// Internal: a pane of the TUI as one object (its columns, rows, keys, crumbs, poll focus and
// state), and the registry that holds one of each per TUI.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "app/context.hpp"
#include "keymap.hpp"
#include "row_filter.hpp"
#include "sync/batch_poller.hpp"
#include "tui.hpp"
#include "widgets/canvas.hpp"
#include "widgets/table.hpp"

namespace trainyard {

struct TuiState;
struct BulkSpec;

/// The panes.
enum class View {
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
  Grep,
  Plugin,
  AllJobs,
  AllPools,
  Pool,
  Failed,
  Json,
  Columns,
  Storage,
  Outputs
};

/// Selection, scroll, filter and sort of one table pane.
struct TableCursor {
  size_t selected = 0;
  size_t first = 0;
  std::string filter;       ///< in the filter language (row_filter.hpp)
  std::string sort;         ///< the sorted column's id; empty: the pane's own order
  bool descending = false;  ///< the sort runs from the largest
};

/// One level of navigation (the crumbs are the stack).
struct Frame {
  View view = View::Jobs;
  std::string account = kLocalAccount;
  std::string pool, job, task;
  std::string node;   ///< a node's files (its start task's logs) rather than a task's
  std::string query;  ///< the Grep pane's pattern
  /// What a sub-pane shows beyond the above: the JSON view's `kind/id` (`pool/gpu`,
  /// `task/t1`), the column chooser's pane name, the Storage pane's place (`S/C/PREFIX/`), a
  /// blob in the log view (`blob:S/C/BLOB`).
  std::string entity;
  TableCursor cursor;
};

/// A frame of a pane of an account.
inline Frame make_frame(View v, std::string account) {
  Frame f;
  f.view = v;
  f.account = std::move(account);
  return f;
}

/// One loaded page of a table pane.
struct TablePage {
  std::vector<Column> columns;
  std::vector<TableRow> rows;           ///< visible rows, starting at cursor.first
  std::vector<std::string> keys;        ///< id of each visible row
  size_t total = 0;                     ///< rows matching the filter
  std::vector<std::string> column_ids;  ///< id of each column, in `columns` order
  std::vector<std::string> sortable;    ///< ids of the columns the pane can sort by
  std::vector<bool> wide_only;          ///< whether each column shows in wide mode only
};

/// The accounts a column is shown for: a Batch account's rows say how old they are, a local
/// run's say how much disk it uses.
enum class Shown { Always, Local, Batch };

/// What a column sorts by: a number, else text.
using SortKey = std::variant<int64_t, std::string>;

/// One column of a table pane as data: its id, layout (title and width rule), formatter and
/// sort key.
template <typename Row>
struct ColumnDef {
  std::string id;                             ///< stable name (`state`, `failed`)
  Column layout;                              ///< title and width rule
  std::function<TableCell(const Row&)> cell;  ///< the row's cell
  std::function<SortKey(const Row&)> sort;    ///< empty: the cell's text
  Shown shown = Shown::Always;
  /// What a `field:` filter term compares with (a failed task's state: `completed` and
  /// `failed`); empty: the cell's text.
  std::function<std::vector<std::string>(const Row&)> values;
  bool wide_only = false;  ///< shown only in wide mode (`W`)
};

/// The SYNCED column of a Batch account's table: how old the row's data is (`Row::synced`).
template <typename Row>
ColumnDef<Row> synced_column() {
  return {"synced",
          {.title = "SYNCED", .width = 6, .align = Align::Right, .drop = 8},
          [](const Row& r) {
            return TableCell{r.synced, Role::Dim};
          },
          {},
          Shown::Batch};
}

/// The key `row` sorts by in `column`.
template <typename Row>
SortKey sort_key(const ColumnDef<Row>& column, const Row& row) {
  return column.sort ? column.sort(row) : SortKey{column.cell(row).text};
}

/// The columns of `defs` an account shows (`batch`: a Batch or emulator account).
template <typename Row>
std::vector<const ColumnDef<Row>*> shown_columns(const std::vector<ColumnDef<Row>>& defs,
                                                 bool batch) {
  std::vector<const ColumnDef<Row>*> out;
  for (const auto& d : defs)
    if (d.shown == Shown::Always || (d.shown == Shown::Batch) == batch) out.push_back(&d);
  return out;
}

/// The layouts of `columns`, in order.
template <typename Row>
std::vector<Column> layouts_of(const std::vector<const ColumnDef<Row>*>& columns) {
  std::vector<Column> out;
  for (const auto* c : columns) out.push_back(c->layout);
  return out;
}

/// Sets `p`'s column layouts, ids and wide-only flags from `columns`.
template <typename Row>
void describe_columns(TablePage& p, const std::vector<const ColumnDef<Row>*>& columns) {
  p.columns = layouts_of(columns);
  p.column_ids.clear();
  p.wide_only.clear();
  for (const auto* c : columns) {
    p.column_ids.push_back(c->id);
    p.wide_only.push_back(c->wide_only);
  }
}

/// One row's cells in `columns`.
template <typename Row>
TableRow table_row(const std::vector<const ColumnDef<Row>*>& columns, const Row& row) {
  TableRow out;
  for (const auto* c : columns) out.cells.push_back(c->cell(row));
  return out;
}

/// The values column `c` offers a `field:` filter term for `row`.
template <typename Row>
std::vector<std::string> filter_values(const ColumnDef<Row>& c, const Row& row) {
  return c.values ? c.values(row) : std::vector<std::string>{c.cell(row).text};
}

/// True when `row` (shown as `cells` in `columns`) passes `filter`.
template <typename Row>
bool passes(const RowFilter& filter, const std::vector<const ColumnDef<Row>*>& columns,
            const Row& row, const TableRow& cells) {
  if (filter.terms.empty()) return true;
  // One line per cell: a regex term's ^ and $ anchor on a cell's whole text (the command as
  // it is, not as its column cuts it), and no match spans two cells.
  std::string text;
  for (const auto& c : cells.cells) text += c.text + "\n";
  return row_matches(filter, text, [&](const std::string& field) {
    for (const auto* c : columns)
      if (c->id == field) return std::optional(filter_values(*c, row));
    return std::optional<std::vector<std::string>>();
  });
}

/// The shown column `cursor` sorts by, or null (the pane's own order).
template <typename Row>
const ColumnDef<Row>* sorted_column(const std::vector<const ColumnDef<Row>*>& columns,
                                    const TableCursor& cursor) {
  for (const auto* c : columns)
    if (!cursor.sort.empty() && c->id == cursor.sort) return c;
  return nullptr;
}

/// Sets the page's column ids and marks the sorted column's title with ▲ (ascending) or ▼.
void mark_sorted_column(TablePage& p, const TableCursor& cursor);

/// Orders `rows` (pairs of an item index and its cells) by `column`'s key; stable, so equal
/// keys keep the pane's own order.
template <typename Row>
void sort_rows(std::vector<std::pair<size_t, TableRow>>& rows, const std::vector<Row>& items,
               const ColumnDef<Row>& column, bool descending) {
  std::vector<SortKey> keys(items.size());
  for (const auto& r : rows) keys[r.first] = sort_key(column, items[r.first]);
  std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
    return descending ? keys[b.first] < keys[a.first] : keys[a.first] < keys[b.first];
  });
}

/// Fills `p` with the rows of `items` that pass the cursor's filter, in its sort, from `first`:
/// small lists are filtered and sorted in memory, then cut to the visible page.
template <typename Row, typename KeyFn>
void fill_page(TablePage& p, const std::vector<ColumnDef<Row>>& defs, bool batch,
               const std::vector<Row>& items, KeyFn key, const TableCursor& cursor, size_t first,
               int rows) {
  auto columns = shown_columns(defs, batch);
  describe_columns(p, columns);
  for (const auto* c : columns) p.sortable.push_back(c->id);
  auto filter = parse_row_filter(cursor.filter);
  std::vector<std::pair<size_t, TableRow>> matched;
  // An invalid filter (the status line says why) matches nothing.
  for (size_t i = 0; filter && i < items.size(); ++i) {
    auto row = table_row(columns, items[i]);
    if (passes(*filter, columns, items[i], row)) matched.emplace_back(i, std::move(row));
  }
  if (const auto* by = sorted_column(columns, cursor))
    sort_rows(matched, items, *by, cursor.descending);
  mark_sorted_column(p, cursor);
  p.total = matched.size();
  for (size_t i = first; i < matched.size() && p.rows.size() < static_cast<size_t>(rows); ++i) {
    p.keys.push_back(key(items[matched[i].first]));
    p.rows.push_back(std::move(matched[i].second));
  }
}

/// `3m`: how long before `now` `t` was; `-` when unknown.
std::string age_of(const std::optional<Timestamp>& t, Timestamp now);

/// What a pane draws beyond a table page, read from the store off the UI thread (the Detail
/// pane's task, the GPUs pane's runs).
struct PaneData {
  virtual ~PaneData() = default;
};

/// What a pane does; the defaults suit a table pane with nothing of its own.
class Pane {
 public:
  virtual ~Pane() = default;
  /// `Jobs`: how the status line names the pane.
  virtual std::string label() const = 0;
  /// `jobs`: the name `--view` and `:jobs` take.
  virtual std::string name() const = 0;
  /// The title on the pane's border.
  virtual std::string title(const Frame& f) const = 0;
  /// The crumbs (`local › jobs › train`), the account first.
  virtual std::vector<std::string> crumbs(const TuiState& st) const = 0;
  /// Contexts consulted for keys, most specific first.
  virtual std::vector<Context> contexts() const = 0;
  /// `q` goes back rather than quits (a sub-pane).
  virtual bool quits_back() const { return true; }
  /// The pane belongs to an account: the status line names it, and its data has an age.
  virtual bool per_account() const { return true; }
  /// Rows that Enter drills into and that keys move through.
  virtual bool is_table() const { return true; }
  /// The reader loads the pane's page on its own connection (a pane that reads anything else
  /// refreshes itself).
  virtual bool reads_in_background() const { return is_table(); }

  /// The sync-mark scope the pane shows (`tasks/<job>`…); empty for panes with none.
  virtual std::string focus_scope(const Frame&) const { return ""; }
  /// Further scopes the data on screen depends on (the Jobs pane: each shown job's tasks).
  virtual std::vector<std::string> shown_scopes(const TuiState&) const { return {}; }
  /// What the account's poller should refresh while the pane is in focus.
  virtual PollFocus poll_focus(const TuiState&) const { return {}; }

  /// What a row of this pane is, for its JSON (`y`): `pool`, `task`; empty: its rows have none.
  virtual std::string row_kind() const { return ""; }
  /// The account and id of the entity on row `key` of frame `f`: a per-account pane's rows are
  /// ids in the frame's account.
  virtual std::pair<std::string, std::string> row_entity(const Frame& f,
                                                         const std::string& key) const {
    return {f.account, key};
  }
  /// The frame Enter on row `key` opens; none: Enter does nothing.
  virtual std::optional<Frame> drill(const Frame&, const std::string&) const { return {}; }
  /// Sets what `d` or `l` opens on (the selected task or node) in `next`; false when nothing.
  virtual bool select_for_detail(TuiState&, Frame&) const { return true; }
  /// The task a local stop or retry acts on: the frame's, or the selected row's.
  virtual std::optional<std::string> selected_task(const TuiState& st) const;
  /// The job a new task goes to (`r` on a Batch account): the frame's, or the selected row's.
  virtual std::optional<std::string> selected_job(const TuiState& st) const;
  /// The pane was just pushed on the stack.
  virtual void entered(AppContext&, TuiState&) {}
  /// The actions that take this pane's marked rows, on a local account or a Batch one; none:
  /// Space marks nothing here.
  virtual const std::vector<BulkSpec>& bulk_specs(bool local) const;
  /// The search prompt's query (`/` in a log or a text view) was entered.
  virtual void search_for(TuiState&, const std::string&) {}
  /// The pane's own keys, on any account; true when handled.
  virtual bool act(AppContext&, TuiState&, Action) { return false; }

  /// What the pane's read depends on beyond its frame (the user's choices), taken on the UI
  /// thread for the reader; none: the frame says it all.
  virtual std::shared_ptr<const PaneData> read_input(const TuiState&) const { return nullptr; }
  /// Takes `read_input()`'s answer into the reader's pane before it reads.
  virtual void accept_input(TuiState&, const PaneData*) {}
  /// Reloads what the pane shows (a table: the visible page; its data).
  virtual void refresh(AppContext& ctx, TuiState& st);
  /// What render() draws from the store beyond the page (read on the reader's connection);
  /// none: nothing.
  virtual std::shared_ptr<const PaneData> read_data(AppContext&, TuiState&) { return nullptr; }
  /// A table pane's visible rows from `first` (the pane in focus).
  virtual TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows);
  /// The part of `body` the table gets.
  virtual Rect table_rect(const TuiState&, Rect body) const { return body; }
  /// Draws the pane's body.
  virtual void render(AppContext& ctx, TuiState& st, Canvas& c, Rect body);
  /// What an empty table says.
  virtual std::string empty_text(const TuiState&) const { return "nothing here yet"; }
  /// Reads what the pane shows from outside the store (its log files) on the UI thread, before
  /// every read of the store.
  virtual void read_files(TuiState&) {}
  /// Called on every tick, before the reload (a followed log reads on).
  virtual void tick(TuiState&) {}
  /// Another connection committed: cached cells are no longer true.
  virtual void store_changed() {}
  /// The pane follows a file: refresh 4 times a second.
  virtual bool tailing(const TuiState&) const { return false; }
  /// The pane shows samples, not the store: a worker's news only redraws it.
  virtual bool shows_samples() const { return false; }
};

/// A pane whose rows are tasks of the frame's job (Tasks, Failed): Enter opens the row's log,
/// `d` and `l` the row's task, and a local stop or retry acts on the row's task.
class TaskRowsPane : public Pane {
 public:
  std::optional<Frame> drill(const Frame& f, const std::string& key) const override;
  bool select_for_detail(TuiState& st, Frame& next) const override;
  std::optional<std::string> selected_task(const TuiState& st) const override;
};

/// One pane of each kind, for one TUI (each owns its state).
class Panes {
 public:
  Panes();
  ~Panes();
  /// The pane of `v`.
  Pane& operator[](View v) const;
  /// The view a `--view` name names; Jobs for an unknown name.
  View by_name(const std::string& name) const;
  /// Tells every pane that another connection committed.
  void store_changed();

 private:
  std::vector<std::pair<View, std::unique_ptr<Pane>>> panes_;
};

/// The pane in focus.
Pane& focused_pane(const TuiState& st);

}  // namespace trainyard
