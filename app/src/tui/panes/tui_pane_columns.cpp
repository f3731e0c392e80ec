// The column chooser (`C`): the columns of the pane it was opened from, each shown or hidden
// for the session with Space; wide-only columns show in wide mode (`W`).
#include <fmt/format.h>

#include "tui_pane_routes.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

// One column of the pane the chooser was opened from.
struct ChoosableColumn {
  std::string id, title;
  bool wide_only = false;
};

class ColumnsPane : public Pane {
 public:
  std::string label() const override { return "Columns"; }
  std::string name() const override { return "columns"; }
  std::string title(const Frame& f) const override { return "Columns · " + f.entity; }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    return {st.stack.back().account, st.stack.back().entity, "columns"};
  }
  std::vector<Context> contexts() const override { return {Context::Columns, Context::Global}; }
  bool reads_in_background() const override { return false; }
  bool per_account() const override { return false; }

  // The pane below is the one the chooser was opened from, its page still loaded.
  void entered(AppContext&, TuiState& st) override {
    columns_.clear();
    const auto& p = st.table.page;
    for (size_t i = 0; i < p.column_ids.size() && i < p.columns.size(); ++i)
      columns_.push_back({p.column_ids[i], p.columns[i].title, p.wide_only[i]});
  }

  bool act(AppContext&, TuiState& st, Action a) override {
    if (a != Action::ToggleColumn) return false;
    auto key = selected_key(st);
    if (key) toggle(st, *key);
    return true;
  }

  TablePage load(AppContext&, TuiState& st, size_t first, int rows) override {
    TablePage p;
    p.columns = {{"SHOWN", 5}, {"COLUMN", 0, 8, 1}, {"ID", 0, 8, 1}, {"WHEN", 0, 10, 2}};
    p.total = columns_.size();
    const auto& pane = st.top().entity;
    for (size_t i = first; i < columns_.size() && p.rows.size() < static_cast<size_t>(rows); ++i) {
      const auto& c = columns_[i];
      bool shown = column_shown(st.table.columns, pane, c.id, c.wide_only);
      p.keys.push_back(c.id);
      p.rows.push_back(TableRow{{TableCell{shown ? "[x]" : "[ ]", std::nullopt},
                                 TableCell{c.title, std::nullopt}, TableCell{c.id, Role::Dim},
                                 TableCell{when_text(c, st.table.columns.wide), Role::Dim}}});
    }
    return p;
  }

  std::string empty_text(const TuiState&) const override { return "this pane's columns are fixed"; }

 private:
  static std::string when_text(const ChoosableColumn& c, bool wide) {
    if (!c.wide_only) return "always";
    return wide ? "wide mode (on)" : "wide mode only (W)";
  }

  // Hides or shows column `id`; the last column shown stays.
  void toggle(TuiState& st, const std::string& id) {
    const auto& pane = st.top().entity;
    auto& hidden = st.table.columns.hidden[pane];
    if (hidden.erase(id)) return set_status(st, fmt::format("{}: shown", id));
    for (const auto& c : columns_)
      if (c.id == id && c.wide_only && !st.table.columns.wide)
        return set_status(st, fmt::format("{} shows in wide mode only: W turns it on", id));
    size_t shown = 0;
    for (const auto& c : columns_) shown += column_shown(st.table.columns, pane, c.id, c.wide_only);
    if (shown <= 1) return set_status(st, "one column stays shown", StatusLevel::Error);
    hidden.insert(id);
    set_status(st, fmt::format("{}: hidden", id));
  }

  std::vector<ChoosableColumn> columns_;
};

}  // namespace

std::unique_ptr<Pane> make_columns_pane() {
  return std::make_unique<ColumnsPane>();
}

Frame columns_frame(Frame from, std::string pane) {
  from.view = View::Columns;
  from.entity = std::move(pane);
  return from;
}

}  // namespace trainyard
