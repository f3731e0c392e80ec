#include "sync/batch_sync.hpp"

#include <chrono>
#include <set>

#include <fmt/format.h>

namespace trainyard {

namespace {

// Every task property the store keeps (and nothing else: url, eTag, userIdentity… stay on the
// wire).
constexpr const char* kTaskSelect =
    "id,displayName,commandLine,state,creationTime,stateTransitionTime,previousState,"
    "environmentSettings,"
    "constraints,dependsOn,requiredSlots,executionInfo,nodeInfo";

// One page of items written in one transaction, so a reader never sees half a page.
template <typename T, typename Parse, typename Write>
Result<void> sync_list(Store& store, azure::BatchClient& client, const std::string& path,
                       const azure::Query& q, Parse parse, Write write, std::set<std::string>& seen,
                       SyncStats& stats) {
  return client.list(path, q, [&](const azure::ListPage& page) -> Result<void> {
    std::vector<T> items;
    for (const auto& j : page.items) {
      auto e = parse(j);
      if (!e) return make_error(ErrorKind::Parse, fmt::format("{}: {}", path, e.error().message));
      items.push_back(std::move(*e));
    }
    return store.write([&]() -> Result<void> {
      for (const auto& item : items) {
        if (auto ok = write(item); !ok) return ok;
        seen.insert(item.id);
        ++stats.entities;
      }
      return {};
    });
  });
}

Result<void> sync_pools(Store& store, azure::BatchClient& client, const SyncScope& scope,
                        SyncStats& stats) {
  std::set<std::string> pools;
  auto ok = sync_list<Pool>(
      store, client, "/pools", {},
      [&](const nlohmann::json& j) { return azure::parse_pool(j, scope.account); },
      [&](const Pool& p) { return store.upsert_pool(p); }, pools, stats);
  if (!ok) return ok;
  auto cached = store.pools(scope.account);
  if (!cached) return cached.error();
  for (const auto& p : *cached) {
    if (pools.count(p.id)) continue;
    if (auto d = store.delete_pool(scope.account, p.id); !d) return d;
    ++stats.deleted;
  }
  for (const auto& pool : pools) {
    std::set<std::string> nodes;
    auto slots = 1;
    for (const auto& p : *cached) {
      if (p.id == pool) slots = p.task_slots_per_node;
    }
    auto n = sync_list<Node>(
        store, client, "/pools/" + azure::url_encode(pool) + "/nodes", {},
        [&](const nlohmann::json& j) { return azure::parse_node(j, scope.account, pool); },
        [&](Node node) {
          node.task_slots = slots;
          return store.upsert_node(node);
        },
        nodes, stats);
    if (!n) return n;
    auto cached_nodes = store.nodes(scope.account, pool);
    if (!cached_nodes) return cached_nodes.error();
    for (const auto& node : *cached_nodes) {
      if (nodes.count(node.id)) continue;
      if (auto d = store.delete_node(scope.account, pool, node.id); !d) return d;
      ++stats.deleted;
    }
  }
  return {};
}

Result<void> sync_tasks(Store& store, azure::BatchClient& client, const SyncScope& scope,
                        const std::string& job, SyncStats& stats) {
  std::set<std::string> tasks;
  auto ok = sync_list<Task>(
      store, client, "/jobs/" + azure::url_encode(job) + "/tasks", {{"$select", kTaskSelect}},
      [&](const nlohmann::json& j) { return azure::parse_task(j, scope.account, job); },
      [&](const Task& t) { return store.upsert_task(t); }, tasks, stats);
  if (!ok) return ok;
  auto cached = store.task_ids(scope.account, job);
  if (!cached) return cached.error();
  for (const auto& id : *cached) {
    if (tasks.count(id)) continue;
    if (auto d = store.delete_task(scope.account, job, id); !d) return d;
    ++stats.deleted;
  }
  return {};
}

Result<void> sync_jobs(Store& store, azure::BatchClient& client, const SyncScope& scope,
                       SyncStats& stats) {
  std::set<std::string> jobs;
  azure::Query q;
  if (!scope.job.empty()) q.emplace_back("$filter", "id eq '" + scope.job + "'");
  auto ok = sync_list<Job>(
      store, client, "/jobs", q,
      [&](const nlohmann::json& j) { return azure::parse_job(j, scope.account); },
      [&](const Job& j) { return store.upsert_job(j); }, jobs, stats);
  if (!ok) return ok;
  if (scope.job.empty()) {
    auto cached = store.jobs(scope.account);
    if (!cached) return cached.error();
    for (const auto& j : *cached) {
      if (jobs.count(j.id)) continue;
      if (auto d = store.delete_job(scope.account, j.id); !d) return d;
      ++stats.deleted;
    }
  } else if (!jobs.count(scope.job)) {
    if (auto d = store.delete_job(scope.account, scope.job); !d) return d;
    return make_error(ErrorKind::NotFound,
                      fmt::format("account {} has no job {}", scope.account, scope.job));
  }
  for (const auto& job : jobs) {
    if (!scope.tasks) break;
    if (auto t = sync_tasks(store, client, scope, job, stats); !t) return t;
  }
  return {};
}

}  // namespace

Result<SyncStats> full_sync(Store& store, azure::BatchClient& client, const SyncScope& scope) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto before = client.stats();
  SyncStats stats;
  Account account{scope.account, scope.kind, scope.endpoint};
  if (auto ok = store.upsert_account(account); !ok) return ok.error();
  if (scope.job.empty() && scope.pools) {
    if (auto ok = sync_pools(store, client, scope, stats); !ok) return ok.error();
  }
  if (scope.jobs || scope.tasks) {
    if (auto ok = sync_jobs(store, client, scope, stats); !ok) return ok.error();
  }
  stats.requests = client.stats().requests - before.requests;
  stats.bytes = client.stats().bytes - before.bytes;
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return stats;
}

}  // namespace trainyard
