// A pool's size and load over time, sampled when the poller stores its pools or nodes.
#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {

using detail::Stmt;

Result<void> Store::record_pool_samples(const std::string& account, Timestamp at,
                                        const std::string& pool) {
  auto micros = to_micros(at);
  return atomic([&]() -> Result<void> {
    auto ins = cache_->get(
        "INSERT OR REPLACE INTO pool_samples(account, pool_id, bucket, at, dedicated, spot, "
        "running_tasks) SELECT p.account, p.id, ?2 / ?4, ?2, p.current_dedicated_nodes, "
        "p.current_low_priority_nodes, (SELECT coalesce(sum(n.running_tasks_count), 0) FROM "
        "nodes n WHERE n.account = p.account AND n.pool_id = p.id) FROM pools p "
        "WHERE p.account = ?1 AND (?3 = '' OR p.id = ?3)",
        "record pool samples");
    if (!ins) return ins.error();
    TY_TRY(ins->bind(1, account)
               .bind(2, micros)
               .bind(3, pool)
               .bind(4, kPoolSampleSeconds * 1'000'000)
               .run());
    auto old = cache_->get("DELETE FROM pool_samples WHERE account = ?1 AND at <= ?2",
                           "drop old pool samples");
    if (!old) return old.error();
    return old->bind(1, account).bind(2, micros - kPoolSampleRetentionSeconds * 1'000'000).run();
  });
}

Result<std::vector<PoolSample>> Store::pool_samples(const std::string& account,
                                                    const std::string& pool) {
  auto s = cache_->get(
      "SELECT at, dedicated, spot, running_tasks FROM pool_samples "
      "WHERE account = ?1 AND pool_id = ?2 ORDER BY bucket",
      "read pool samples");
  if (!s) return s.error();
  s->bind(1, account).bind(2, pool);
  return detail::collect<PoolSample>(*s, [](const Stmt& r) {
    return PoolSample{r.time(0), r.i64(1), r.i64(2), r.i64(3)};
  });
}

}  // namespace trainyard
