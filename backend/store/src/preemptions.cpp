// What a preemption leaves in the cache: requeued tasks and preempted nodes of an account.
#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {

// Both task queries are answered from the partial index tasks_requeued (schema 8): they cost
// nothing while no task was ever requeued, however many tasks the account has.

Result<int64_t> Store::requeue_total(const std::string& account) {
  auto s = cache_->get(
      "SELECT coalesce(sum(requeue_count), 0) FROM tasks WHERE account = ?1 AND "
      "requeue_count > 0",
      "count requeues");
  if (!s) return s.error();
  auto row = s->bind(1, account).step();
  if (!row) return row.error();
  return *row ? s->i64(0) : int64_t{0};
}

Result<std::vector<TaskRequeues>> Store::requeued_tasks(const std::string& account) {
  auto s = cache_->get(
      "SELECT job_id, id, requeue_count FROM tasks WHERE account = ?1 AND requeue_count > 0 "
      "ORDER BY job_id, id",
      "list requeued tasks");
  if (!s) return s.error();
  s->bind(1, account);
  return detail::collect<TaskRequeues>(*s, [](const detail::Stmt& r) {
    return TaskRequeues{r.text(0), r.text(1), r.i32(2)};
  });
}

Result<std::vector<Node>> Store::preempted_nodes(const std::string& account) {
  auto s = cache_->get(
      "SELECT pool_id, id FROM nodes WHERE account = ?1 AND state = 'preempted' "
      "ORDER BY pool_id, id",
      "list preempted nodes");
  if (!s) return s.error();
  s->bind(1, account);
  return detail::collect<Node>(*s, [&account](const detail::Stmt& r) {
    Node n;
    n.account = account;
    n.pool_id = r.text(0);
    n.id = r.text(1);
    n.state = NodeState::Preempted;
    return n;
  });
}

}  // namespace trainyard
