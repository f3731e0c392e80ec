#include "cost_report.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "price_lookup.hpp"

namespace trainyard {

PricesUsed missing_prices(const std::string& vm_size, const std::string& region, std::string why) {
  PricesUsed none{vm_size, region, {}, "", {}, std::move(why), ""};
  return none;
}

// Batch's Spot nodes are priced at the Spot rate; the older low-priority rate stands in where a
// size has no Spot row.
PricesUsed prices_used(const PriceAnswer& answer, const std::string& vm_size,
                       const std::string& region, double discount) {
  PricesUsed used{vm_size, region, {}, "", answer.fetched_at, "", answer.offline};
  auto rows = prices_by_region(answer.prices, discount);
  if (rows.empty()) {
    used.missing = fmt::format("no Linux price for {} in {}", vm_size, region);
    return used;
  }
  const auto& r = rows.front();
  used.rates = {r.dedicated, r.spot ? r.spot : r.low_priority};
  used.currency = r.currency;
  used.as_of = r.fetched_at;
  return used;
}

std::pair<std::string, std::optional<Timestamp>> prices_summary(const CostReport& r) {
  std::string currency;
  std::optional<Timestamp> oldest;
  for (const auto& p : r.pools) {
    if (!p.prices.known()) continue;
    if (currency.empty()) currency = p.prices.currency;
    oldest = oldest ? std::min(*oldest, p.prices.as_of) : p.prices.as_of;
  }
  return {currency, oldest};
}

namespace {

PricesUsed look_up(Store& store, azure::HttpClient& http, const azure::PriceSettings& settings,
                   const std::string& vm_size, const std::string& region, Timestamp now) {
  auto answer = look_up_prices(store, http, settings, {vm_size, region}, false, now);
  if (answer) return prices_used(*answer, vm_size, region, settings.discount);
  return missing_prices(vm_size, region, answer.error().message);
}

int preempted_count(const std::vector<Node>& nodes) {
  int n = 0;
  for (const auto& node : nodes) n += node.state == NodeState::Preempted ? 1 : 0;
  return n;
}

int64_t idle_dedicated_count(const std::vector<Node>& nodes) {
  int64_t n = 0;
  for (const auto& node : nodes) n += node.is_dedicated && node.state == NodeState::Idle ? 1 : 0;
  return n;
}

// A node gone from the cache ran on Spot only when the pool has no dedicated nodes at all.
bool only_spot(const Pool& p) {
  return p.current_dedicated_nodes == 0 && p.target_dedicated_nodes == 0 &&
         (p.current_low_priority_nodes > 0 || p.target_low_priority_nodes > 0);
}

bool on_spot(const Task& t, const Pool& pool, const std::map<std::string, bool>& dedicated) {
  if (!t.node_info) return only_spot(pool);
  auto it = dedicated.find(t.node_info->node_id);
  return it == dedicated.end() ? only_spot(pool) : !it->second;
}

struct PoolData {
  Pool pool;
  std::map<std::string, bool> dedicated;  ///< node id → isDedicated
  PricesUsed prices;
};

PoolData pool_data(const PriceSource& prices, Pool pool, const std::vector<Node>& nodes) {
  PoolData d;
  for (const auto& n : nodes) d.dedicated[n.id] = n.is_dedicated;
  d.prices = prices(pool.vm_size);
  d.pool = std::move(pool);
  return d;
}

PoolCost pool_cost(const PoolData& d, const std::vector<Node>& nodes) {
  PoolCost c;
  c.id = d.pool.id;
  c.nodes = {d.pool.current_dedicated_nodes, d.pool.current_low_priority_nodes,
             preempted_count(nodes)};
  c.prices = d.prices;
  if (d.prices.known()) c.hourly = pool_burn_rate(c.nodes, d.prices.rates);
  c.idle_dedicated = idle_dedicated_count(nodes);
  return c;
}

bool finished(const Task& t) {
  return t.state == TaskState::Completed;
}

// The projection: the cost so far per finished task, for every task.
void project(JobCost& c) {
  if (!c.so_far) return;
  if (c.finished == 0) {
    c.why = "no task has finished yet: no projection";
    return;
  }
  c.projected = *c.so_far / static_cast<double>(c.finished) * static_cast<double>(c.total);
}

Result<JobCost> job_cost(Store& store, const Job& job, const PoolData* pool, Timestamp now) {
  JobCost c{job.id, job.pool_id, {}, {}, 0, 0, "", std::nullopt};
  if (pool) c.prices = pool->prices;
  TaskQuery q;
  q.account = job.account;
  q.job = job.id;
  auto tasks = store.tasks(q);
  if (!tasks) return tasks.error();
  c.total = static_cast<int64_t>(tasks->size());
  std::vector<TaskRun> runs;
  for (const auto& t : *tasks) {
    c.finished += finished(t) ? 1 : 0;
    if (!pool) continue;
    auto history = store.state_history(job.account, job.id, t.id);
    if (!history) return history.error();
    for (auto& r : task_runs(t, *history, on_spot(t, pool->pool, pool->dedicated)))
      runs.push_back(r);
  }
  if (!pool) {
    c.why = job.pool_id.empty() ? "runs on no pool (an auto pool?) in the cache"
                                : fmt::format("pool {} is not in the cache", job.pool_id);
    return c;
  }
  if (!pool->prices.known()) {
    c.why = "unknown: " + pool->prices.missing;
    return c;
  }
  c.so_far = runs_cost(runs, pool->prices.rates, pool->pool.task_slots_per_node, now);
  if (!c.so_far) c.why = "unknown: a run's kind of node has no price";
  project(c);
  return c;
}

// The current attempt, when it has started: until its end when completed, else still going.
std::optional<TaskRun> current_run(const Task& t, bool on_spot_now) {
  const auto& e = t.execution_info;
  if (!e.start_time || (t.state != TaskState::Running && !finished(t))) return std::nullopt;
  TaskRun run{*e.start_time, std::nullopt, on_spot_now, t.required_slots};
  if (finished(t)) run.end = e.end_time ? e.end_time : t.state_transition_time;
  if (finished(t) && !run.end) return std::nullopt;
  return run;
}

}  // namespace

std::vector<TaskRun> task_runs(const Task& t, const std::vector<StateChange>& history,
                               bool on_spot_now) {
  std::vector<TaskRun> runs;
  auto current = current_run(t, on_spot_now);
  std::optional<Timestamp> running_since;
  int requeues = 0;
  for (const auto& h : history) {
    bool before_current = !current || h.at <= current->start;
    if (h.from == TaskState::Running && running_since && before_current)
      runs.push_back({*running_since, h.at, h.requeue_count > requeues ? true : on_spot_now,
                      t.required_slots});
    if (h.from == TaskState::Running) running_since.reset();
    if (h.to == TaskState::Running) running_since = h.at;
    requeues = h.requeue_count;
  }
  if (current) runs.push_back(*current);
  int instances = t.multi_instance ? t.multi_instance->number_of_instances : 1;
  if (instances <= 1) return runs;
  // Each instance holds a node of its own.
  std::vector<TaskRun> all;
  for (auto run : runs) {
    run.required_slots = std::numeric_limits<int>::max();
    all.insert(all.end(), static_cast<size_t>(instances), run);
  }
  return all;
}

Result<CostReport> cost_report_with(Store& store, const std::string& account,
                                    const std::string& job, const PriceSource& prices,
                                    Timestamp now) {
  auto pools = store.pools(account);
  if (!pools) return pools.error();
  auto jobs = store.jobs(account);
  if (!jobs) return jobs.error();
  if (!job.empty()) {
    std::erase_if(*jobs, [&](const Job& j) { return j.id != job; });
    if (jobs->empty())
      return make_error(ErrorKind::NotFound,
                        fmt::format("job {} is not in {}'s cache (run 'trainyard sync --account "
                                    "{}' first?)",
                                    job, account, account));
    std::erase_if(*pools, [&](const Pool& p) { return p.id != jobs->front().pool_id; });
  }
  CostReport report;
  std::map<std::string, PoolData> by_id;
  for (auto& p : *pools) {
    auto nodes = store.nodes(account, p.id);
    if (!nodes) return nodes.error();
    auto d = pool_data(prices, p, *nodes);
    report.pools.push_back(pool_cost(d, *nodes));
    by_id[p.id] = std::move(d);
  }
  for (const auto& j : *jobs) {
    auto found = by_id.find(j.pool_id);
    auto c = job_cost(store, j, found == by_id.end() ? nullptr : &found->second, now);
    if (!c) return c.error();
    report.jobs.push_back(std::move(*c));
  }
  return report;
}

Result<CostReport> cost_report(Store& store, azure::HttpClient& http, const Settings& settings,
                               const azure::AccountConfig& account, const std::string& job,
                               Timestamp now) {
  auto region = azure::account_region(account);
  if (!region) return region.error();
  auto prices = [&](const std::string& vm_size) {
    return look_up(store, http, settings.prices, vm_size, *region, now);
  };
  return cost_report_with(store, account.name, job, prices, now);
}

}  // namespace trainyard
