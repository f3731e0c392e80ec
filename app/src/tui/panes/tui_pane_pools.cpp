// The Pools pane: an account's pools with their nodes as current/target; Enter opens the nodes.
#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "sync/incremental_sync.hpp"
#include "tui_bulk_spec.hpp"
#include "tui_columns.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

using NodeStates = std::map<NodeState, int64_t>;
using NodeCounts = std::map<std::string, NodeStates>;

/// A pool as its row shows it.
struct PoolRow {
  Pool pool;
  std::string health;  ///< a Batch pool's trouble (empty: well)
  std::string synced;  ///< how old the pool list is
};

TableCell pool_text(std::string text) {
  return {std::move(text), std::nullopt};
}

// Nodes as current/target, dedicated and Spot apart; the widths let a Batch account's nine
// columns fit 80 columns.
const std::vector<ColumnDef<PoolRow>>& pool_columns() {
  using R = const PoolRow&;
  static const std::vector<ColumnDef<PoolRow>> columns = {
      {"pool",
       {.title = "POOL", .min_width = 8, .flex = 2, .cut = Cut::Middle},
       [](R r) { return pool_text(r.pool.id); }},
      {"state",
       {"STATE", 8},
       [](R r) {
         return TableCell{std::string(to_wire(r.pool.state)), Role::StateActive};
       }},
      {"allocation",
       {"ALLOCATION", 10},
       [](R r) { return pool_text(std::string(to_wire(r.pool.allocation_state))); }},
      {"dedicated",
       {"DEDICATED", 9, 1, 0, Align::Right},
       [](R r) {
         return pool_text(
             fmt::format("{}/{}", r.pool.current_dedicated_nodes, r.pool.target_dedicated_nodes));
       },
       [](R r) { return SortKey{int64_t{r.pool.current_dedicated_nodes}}; }},
      {"spot",
       {"SPOT", 5, 1, 0, Align::Right},
       [](R r) {
         return pool_text(fmt::format("{}/{}", r.pool.current_low_priority_nodes,
                                      r.pool.target_low_priority_nodes));
       },
       [](R r) { return SortKey{int64_t{r.pool.current_low_priority_nodes}}; }},
      {"slots",
       {.title = "SLOTS/NODE", .width = 10, .align = Align::Right, .drop = 4},
       [](R r) { return pool_text(std::to_string(r.pool.task_slots_per_node)); },
       [](R r) { return SortKey{int64_t{r.pool.task_slots_per_node}}; }},
      {"vm_size",
       {.title = "VM SIZE", .min_width = 6, .flex = 1, .drop = 3},
       [](R r) { return pool_text(r.pool.vm_size); }},
      {"health",
       {.title = "HEALTH", .min_width = 8, .flex = 2, .drop = 1},
       [](R r) {
         return TableCell{sanitize_text(r.health),
                          r.health.empty() ? std::nullopt : std::optional(Role::StateFailure)};
       },
       {},
       Shown::Batch},
      {"created",
       {.title = "CREATED", .width = 19, .drop = 9},
       [](R r) { return pool_text(wide_time(r.pool.creation_time)); },
       {},
       Shown::Always,
       {},
       true},
      {"changed",
       {.title = "STATE SINCE", .width = 19, .drop = 9},
       [](R r) { return pool_text(wide_time(r.pool.state_transition_time)); },
       {},
       Shown::Always,
       {},
       true},
      synced_column<PoolRow>()};
  return columns;
}

class PoolsPane : public Pane {
 public:
  std::string label() const override { return "Pools"; }
  std::string name() const override { return "pools"; }
  std::string row_kind() const override { return "pool"; }
  const std::vector<BulkSpec>& bulk_specs(bool local) const override {
    return pool_bulk_specs(local);
  }
  std::string title(const Frame& f) const override { return "Pools · " + f.account; }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    return {st.stack.back().account, "pools"};
  }
  std::vector<Context> contexts() const override {
    return {Context::Pools, Context::Table, Context::Global};
  }
  bool quits_back() const override { return false; }
  std::string focus_scope(const Frame&) const override { return kPoolsScope; }
  PollFocus poll_focus(const TuiState&) const override {
    PollFocus p;
    p.pools = true;
    return p;
  }

  std::optional<Frame> drill(const Frame& f, const std::string& key) const override {
    Frame next = f;
    next.pool = key;
    next.view = View::Nodes;
    return next;
  }

  // d: the selected pool's detail (Enter still opens its nodes).
  bool act(AppContext& ctx, TuiState& st, Action a) override {
    if (a != Action::Detail) return false;
    if (auto key = selected_key(st)) {
      Frame next = st.top();
      next.pool = *key;
      next.view = View::Pool;
      push_frame(ctx, st, next);
    }
    return true;
  }

  TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows) override {
    const Frame& f = st.top();
    auto ages = load_sync_ages(ctx, f.account);
    TablePage p;
    p.columns = layouts_of(shown_columns(pool_columns(), ages.batch));
    auto pools = ctx.store->pools(f.account);
    if (!pools) return p;
    // Every pool's nodes counted by state in one grouped read, not every node of every pool.
    NodeCounts counts;
    if (ages.batch) counts = ctx.store->node_state_counts(f.account).value_or(NodeCounts{});
    std::vector<PoolRow> items;
    for (auto& pl : *pools) {
      PoolRow r{std::move(pl), "", ""};
      if (ages.batch) {
        auto it = counts.find(r.pool.id);
        r.health = pool_health(r.pool, it != counts.end() ? it->second : NodeStates{});
        r.synced = ages.age(kPoolsScope);
      }
      items.push_back(std::move(r));
    }
    fill_page(
        p, pool_columns(), ages.batch, items, [](const PoolRow& r) { return r.pool.id; }, f.cursor,
        first, rows);
    return p;
  }
};

}  // namespace

std::unique_ptr<Pane> make_pools_pane() {
  return std::make_unique<PoolsPane>();
}

}  // namespace trainyard
