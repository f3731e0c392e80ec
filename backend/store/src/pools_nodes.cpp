// Accounts, pools and nodes.
#include "snapshot_order.hpp"
#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {
namespace {

AccountKind parse_kind(const std::string& s) {
  for (auto k : {AccountKind::Local, AccountKind::Batch, AccountKind::Emulator}) {
    if (s == to_string(k)) return k;
  }
  return AccountKind::Batch;
}

constexpr const char* kPoolColumns =
    "account, id, display_name, vm_size, state, allocation_state, current_dedicated_nodes, "
    "target_dedicated_nodes, current_low_priority_nodes, target_low_priority_nodes, "
    "task_slots_per_node, creation_time, state_transition_time, resize_error, last_modified, etag";

constexpr const char* kNodeColumns =
    "account, pool_id, id, state, scheduling_state, vm_size, ip_address, running_tasks_count, "
    "running_task_slots_count, total_tasks_run, task_slots, state_transition_time, error, "
    "is_dedicated";

Pool read_pool(const detail::Stmt& s) {
  Pool p;
  p.account = s.text(0);
  p.id = s.text(1);
  p.display_name = s.text(2);
  p.vm_size = s.text(3);
  p.state = s.wire(4, PoolState::Active);
  p.allocation_state = s.wire(5, AllocationState::Steady);
  p.current_dedicated_nodes = s.i32(6);
  p.target_dedicated_nodes = s.i32(7);
  p.current_low_priority_nodes = s.i32(8);
  p.target_low_priority_nodes = s.i32(9);
  p.task_slots_per_node = s.i32(10);
  p.creation_time = s.opt_time(11);
  p.state_transition_time = s.opt_time(12);
  p.resize_error = s.text(13);
  p.last_modified = s.opt_time(14);
  p.etag = s.text(15);
  return p;
}

Node read_node(const detail::Stmt& s) {
  Node n;
  n.account = s.text(0);
  n.pool_id = s.text(1);
  n.id = s.text(2);
  n.state = s.wire(3, NodeState::Unknown);
  n.scheduling_state = s.wire(4, SchedulingState::Enabled);
  n.vm_size = s.text(5);
  n.ip_address = s.text(6);
  n.running_tasks_count = s.i32(7);
  n.running_task_slots_count = s.i32(8);
  n.total_tasks_run = s.i32(9);
  n.task_slots = s.i32(10);
  n.state_transition_time = s.opt_time(11);
  n.error = s.text(12);
  n.is_dedicated = s.i32(13) != 0;
  return n;
}

}  // namespace

// Single-statement writes are atomic on their own; they join write() when called inside it.

Result<void> Store::upsert_account(const Account& a) {
  auto s = cache_->get("INSERT OR REPLACE INTO accounts(name, kind, endpoint) VALUES (?1, ?2, ?3)",
                       "upsert account");
  if (!s) return s.error();
  return s->bind(1, a.name).bind(2, to_string(a.kind)).bind(3, a.endpoint).run();
}

Result<std::vector<Account>> Store::accounts() {
  auto s = cache_->get("SELECT name, kind, endpoint FROM accounts ORDER BY name", "list accounts");
  if (!s) return s.error();
  return detail::collect<Account>(*s, [](const detail::Stmt& r) {
    return Account{r.text(0), parse_kind(r.text(1)), r.text(2)};
  });
}

Result<void> Store::upsert_pool(const Pool& p) {
  static const std::string sql =
      detail::upsert_sql("pools", kPoolColumns, 2, detail::replaces_unless_older("pools"));
  auto s = cache_->get(sql, "upsert pool");
  if (!s) return s.error();
  s->bind(1, p.account).bind(2, p.id).bind(3, p.display_name).bind(4, p.vm_size);
  s->bind(5, p.state).bind(6, p.allocation_state).bind(7, p.current_dedicated_nodes);
  s->bind(8, p.target_dedicated_nodes).bind(9, p.current_low_priority_nodes);
  s->bind(10, p.target_low_priority_nodes).bind(11, p.task_slots_per_node);
  s->bind(12, p.creation_time).bind(13, p.state_transition_time).bind(14, p.resize_error);
  return s->bind(15, p.last_modified).bind(16, p.etag).run();
}

Result<std::vector<Pool>> Store::pools(const std::string& account) {
  auto s = cache_->get(
      std::string("SELECT ") + kPoolColumns + " FROM pools WHERE account = ?1 ORDER BY id",
      "list pools");
  if (!s) return s.error();
  s->bind(1, account);
  return detail::collect<Pool>(*s, read_pool);
}

Result<void> Store::upsert_node(const Node& n) {
  // A node has no lastModified: its stateTransitionTime, which only moves forward, orders it.
  static const std::string sql =
      detail::upsert_sql("nodes", kNodeColumns, 3,
                         " WHERE coalesce(excluded.state_transition_time >= "
                         "nodes.state_transition_time, 1)");
  auto s = cache_->get(sql, "upsert node");
  if (!s) return s.error();
  s->bind(1, n.account).bind(2, n.pool_id).bind(3, n.id).bind(4, n.state);
  s->bind(5, n.scheduling_state).bind(6, n.vm_size).bind(7, n.ip_address);
  s->bind(8, n.running_tasks_count).bind(9, n.running_task_slots_count);
  s->bind(10, n.total_tasks_run).bind(11, n.task_slots);
  s->bind(12, n.state_transition_time).bind(13, n.error);
  return s->bind(14, n.is_dedicated).run();
}

Result<std::vector<Node>> Store::nodes(const std::string& account, const std::string& pool) {
  auto s = cache_->get(std::string("SELECT ") + kNodeColumns +
                           " FROM nodes WHERE account = ?1 AND pool_id = ?2 ORDER BY id",
                       "list nodes");
  if (!s) return s.error();
  s->bind(1, account).bind(2, pool);
  return detail::collect<Node>(*s, read_node);
}

Result<std::map<std::string, std::map<NodeState, int64_t>>> Store::node_state_counts(
    const std::string& account) {
  auto s = cache_->get(
      "SELECT pool_id, state, count(*) FROM nodes WHERE account = ?1 GROUP BY pool_id, state",
      "count every pool's nodes by state");
  if (!s) return s.error();
  s->bind(1, account);
  std::map<std::string, std::map<NodeState, int64_t>> out;
  TY_TRY(detail::each(*s, [&](const detail::Stmt& row) {
    out[row.text(0)][row.wire(1, NodeState::Unknown)] += row.i64(2);
  }));
  return out;
}

Result<void> Store::delete_pool(const std::string& account, const std::string& id) {
  return atomic([&]() -> Result<void> {
    for (const char* sql : {"DELETE FROM nodes WHERE account = ?1 AND pool_id = ?2",
                            "DELETE FROM pool_samples WHERE account = ?1 AND pool_id = ?2",
                            "DELETE FROM sync_marks WHERE account = ?1 AND scope = 'nodes/' || ?2",
                            "DELETE FROM pools WHERE account = ?1 AND id = ?2"}) {
      auto s = cache_->get(sql, "delete pool");
      if (!s) return s.error();
      TY_TRY(s->bind(1, account).bind(2, id).run());
    }
    return ok_result();
  });
}

Result<void> Store::delete_node(const std::string& account, const std::string& pool,
                                const std::string& id) {
  auto s = cache_->get("DELETE FROM nodes WHERE account = ?1 AND pool_id = ?2 AND id = ?3",
                       "delete node");
  if (!s) return s.error();
  return s->bind(1, account).bind(2, pool).bind(3, id).run();
}

}  // namespace trainyard
