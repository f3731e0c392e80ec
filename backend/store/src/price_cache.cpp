// The price cache (schema version 13): vm_prices holds the rows, vm_price_fetches when each
// (size, region) query was last answered, region '' standing for all regions.
#include "store/price_cache.hpp"

#include "statement.hpp"

namespace trainyard {
namespace {

using detail::Stmt;

Result<Stmt> prepare(Store& store, const char* sql, const char* what) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(store.handle(), sql, -1, &s, nullptr) != SQLITE_OK)
    return detail::db_error(store.handle(), what);
  return Stmt(s, what, nullptr);
}

Result<void> forget_prices(Store& store, const std::string& vm_size, const std::string& region) {
  auto del = prepare(store, "DELETE FROM vm_prices WHERE vm_size = ?1 AND (?2 = '' OR region = ?2)",
                     "replace cached prices");
  if (!del) return del.error();
  return del->bind(1, vm_size).bind(2, region).run();
}

Result<void> insert_price(Store& store, const VmPrice& p, Timestamp at) {
  auto ins = prepare(store,
                     "INSERT INTO vm_prices(vm_size, region, kind, hourly, currency, "
                     "effective_from, fetched_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                     "cache prices");
  if (!ins) return ins.error();
  ins->bind(1, p.vm_size).bind(2, p.region).bind(3, price_kind_name(p.kind)).bind(4, p.hourly);
  return ins->bind(5, p.currency).bind(6, p.effective_from).bind(7, at).run();
}

Result<void> record_fetch(Store& store, const std::string& vm_size, const std::string& region,
                          Timestamp at) {
  auto s = prepare(store,
                   "INSERT OR REPLACE INTO vm_price_fetches(vm_size, region, fetched_at) "
                   "VALUES (?1, ?2, ?3)",
                   "cache prices");
  if (!s) return s.error();
  return s->bind(1, vm_size).bind(2, region).bind(3, at).run();
}

Result<std::optional<Timestamp>> covering_fetch(Store& store, const std::string& vm_size,
                                                const std::string& region) {
  auto s = prepare(store,
                   "SELECT max(fetched_at) FROM vm_price_fetches WHERE vm_size = ?1 "
                   "AND (region = '' OR region = ?2)",
                   "read cached prices");
  if (!s) return s.error();
  auto row = s->bind(1, vm_size).bind(2, region).step();
  if (!row) return row.error();
  return s->opt_time(0);
}

CachedPrice read_price(const Stmt& r) {
  CachedPrice c;
  c.price.vm_size = r.text(0);
  c.price.region = r.text(1);
  c.price.kind = parse_price_kind(r.text(2)).value_or(PriceKind::Dedicated);
  c.price.hourly = r.f64(3);
  c.price.currency = r.text(4);
  c.price.effective_from = r.time(5);
  c.fetched_at = r.time(6);
  return c;
}

Result<std::vector<CachedPrice>> price_rows(Store& store, const std::string& vm_size,
                                            const std::string& region) {
  auto s = prepare(store,
                   "SELECT vm_size, region, kind, hourly, currency, effective_from, fetched_at "
                   "FROM vm_prices WHERE vm_size = ?1 AND (?2 = '' OR region = ?2) "
                   "ORDER BY region, CASE kind WHEN 'dedicated' THEN 0 WHEN 'spot' THEN 1 "
                   "ELSE 2 END",
                   "read cached prices");
  if (!s) return s.error();
  s->bind(1, vm_size).bind(2, region);
  return detail::collect<CachedPrice>(*s, read_price);
}

// Runs reads of several statements in one snapshot (a deferred transaction), unless the caller
// is already in one.
template <typename F>
Result<void> in_one_snapshot(Store& store, F reads) {
  if (!sqlite3_get_autocommit(store.handle())) return reads();
  TY_TRY(detail::exec(store.handle(), "BEGIN", "read cached prices"));
  auto r = reads();
  sqlite3_exec(store.handle(), r ? "COMMIT" : "ROLLBACK", nullptr, nullptr, nullptr);
  return r;
}

}  // namespace

Result<void> store_prices(Store& store, const std::string& vm_size, const std::string& region,
                          const std::vector<VmPrice>& prices, Timestamp at) {
  return store.write([&]() -> Result<void> {
    TY_TRY(forget_prices(store, vm_size, region));
    for (const auto& p : prices) TY_TRY(insert_price(store, p, at));
    return record_fetch(store, vm_size, region, at);
  });
}

Result<CachedPrices> cached_prices(Store& store, const std::string& vm_size,
                                   const std::string& region) {
  CachedPrices out;
  TY_TRY(in_one_snapshot(store, [&]() -> Result<void> {
    auto when = covering_fetch(store, vm_size, region);
    if (!when) return when.error();
    out.fetched_at = *when;
    auto rows = price_rows(store, vm_size, region);
    if (!rows) return rows.error();
    out.prices = std::move(*rows);
    return ok_result();
  }));
  return out;
}

}  // namespace trainyard
