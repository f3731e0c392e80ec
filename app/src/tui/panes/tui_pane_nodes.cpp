// The Nodes pane: a pool's nodes (the local node's live counts from its tasks).
#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "enum_forms.hpp"
#include "node_kind.hpp"
#include "sync/incremental_sync.hpp"
#include "tui_bulk_spec.hpp"
#include "tui_columns.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

/// A node as its row shows it.
struct NodeRow {
  Node node;
  std::string synced;  ///< how old the pool's node list is
};

TableCell node_text(std::string text) {
  return {std::move(text), std::nullopt};
}

const std::vector<ColumnDef<NodeRow>>& node_columns() {
  using R = const NodeRow&;
  static const std::vector<ColumnDef<NodeRow>> columns = {
      {"node",
       {.title = "NODE", .min_width = 8, .flex = 2, .cut = Cut::Middle},
       [](R r) { return node_text(sanitize_text(r.node.id)); }},
      {"state",
       {"STATE", 19, 1, 0, Align::Left, 8},
       [](R r) {
         bool busy = r.node.state == NodeState::Running;
         return enum_cell(to_wire(r.node.state), busy ? Role::StateRunning : Role::StateActive);
       }},
      {"kind",
       {.title = "KIND", .width = 9, .drop = 3},
       [](R r) { return node_text(node_kind(r.node)); }},
      {"scheduling",
       {.title = "SCHEDULING", .width = 10, .drop = 4},
       [](R r) { return node_text(std::string(to_wire(r.node.scheduling_state))); }},
      {"slots",
       {"SLOTS", 7, 1, 0, Align::Right},
       [](R r) {
         return node_text(fmt::format("{}/{}", r.node.running_task_slots_count, r.node.task_slots));
       },
       [](R r) { return SortKey{int64_t{r.node.running_task_slots_count}}; }},
      {"ip",
       {.title = "IP", .min_width = 9, .flex = 1, .drop = 5},
       [](R r) { return node_text(r.node.ip_address); }},
      {"error",
       {.title = "ERROR", .min_width = 8, .flex = 3, .drop = 1},
       [](R r) {
         return TableCell{sanitize_text(r.node.error), Role::StateFailure};
       },
       {},
       Shown::Batch},
      {"vm_size",
       {.title = "VM SIZE", .min_width = 6, .flex = 1, .drop = 6},
       [](R r) { return node_text(r.node.vm_size); },
       {},
       Shown::Always,
       {},
       true},
      {"changed",
       {.title = "STATE SINCE", .width = 19, .drop = 9},
       [](R r) { return node_text(wide_time(r.node.state_transition_time)); },
       {},
       Shown::Always,
       {},
       true},
      synced_column<NodeRow>()};
  return columns;
}

class NodesPane : public Pane {
 public:
  std::string label() const override { return "Nodes"; }
  std::string name() const override { return "nodes"; }
  std::string row_kind() const override { return "node"; }
  const std::vector<BulkSpec>& bulk_specs(bool local) const override {
    return node_bulk_specs(local);
  }
  std::string title(const Frame& f) const override { return "Nodes · " + f.pool; }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    const auto& f = st.stack.back();
    std::vector<std::string> parts{f.account, "pools"};
    if (!f.pool.empty()) parts.push_back(f.pool);
    return parts;
  }
  std::vector<Context> contexts() const override {
    return {Context::Nodes, Context::Table, Context::Global};
  }
  std::string focus_scope(const Frame& f) const override { return nodes_scope(f.pool); }
  PollFocus poll_focus(const TuiState& st) const override {
    PollFocus p;
    p.pool = st.stack.back().pool;
    return p;
  }

  // `l` opens the selected node's start task logs (a Batch node's only).
  bool select_for_detail(TuiState& st, Frame& next) const override {
    auto key = selected_key(st);
    if (!key || st.top().account == kLocalAccount) {
      set_status(st, "node logs: only Batch nodes have start tasks", StatusLevel::Error);
      return false;
    }
    next.node = *key;
    return true;
  }

  TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows) override {
    const Frame& f = st.top();
    auto ages = load_sync_ages(ctx, f.account);
    TablePage p;
    p.columns = layouts_of(shown_columns(node_columns(), ages.batch));
    auto nodes = nodes_as_shown(*ctx.store, f.account, f.pool);
    if (!nodes) return p;
    std::vector<NodeRow> items;
    for (auto& n : *nodes) {
      std::string synced = ages.batch ? ages.age(nodes_scope(n.pool_id)) : "";
      items.push_back({std::move(n), std::move(synced)});
    }
    fill_page(
        p, node_columns(), ages.batch, items, [](const NodeRow& r) { return r.node.id; }, f.cursor,
        first, rows);
    return p;
  }
};

}  // namespace

std::unique_ptr<Pane> make_nodes_pane() {
  return std::make_unique<NodesPane>();
}

}  // namespace trainyard
