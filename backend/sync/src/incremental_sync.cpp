#include "sync/incremental_sync.hpp"

#include <map>
#include <set>

#include <fmt/format.h>

#include "azure/batch_actions.hpp"
#include "azure/task_page.hpp"
#include "sync_pages.hpp"

namespace trainyard {

namespace {

using detail::ListStart;
using detail::prune;
using detail::sync_list;

// Only what the store keeps travels: lists are most of a poller's bytes.
constexpr const char* kPoolSelect =
    "id,displayName,vmSize,state,allocationState,currentDedicatedNodes,targetDedicatedNodes,"
    "currentLowPriorityNodes,targetLowPriorityNodes,taskSlotsPerNode,creationTime,"
    "stateTransitionTime,resizeErrors,lastModified,eTag";
constexpr const char* kNodeSelect =
    "id,state,schedulingState,vmSize,ipAddress,runningTasksCount,runningTaskSlotsCount,"
    "totalTasksRun,stateTransitionTime,startTaskInfo,errors,isDedicated";
constexpr const char* kJobSelect =
    "id,displayName,poolInfo,state,priority,creationTime,stateTransitionTime,metadata,"
    "lastModified,eTag";
constexpr const char* kTaskSelect =
    "id,displayName,commandLine,state,creationTime,stateTransitionTime,previousState,"
    "environmentSettings,resourceFiles,outputFiles,constraints,dependsOn,requiredSlots,"
    "executionInfo,nodeInfo,multiInstanceSettings,lastModified,eTag";

std::string odata_quote(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out;
}

// Stamps `scope` as confirmed now; a failure of the mark itself is the step's failure.
Result<void> mark(SyncTarget& t, const std::string& scope, std::optional<Timestamp> watermark) {
  return t.store.set_sync_mark(t.account, SyncMark{scope, t.clock.now(), watermark, ""});
}

// Runs a step and records its failure on the scope's mark (the UI shows it next to the age).
template <typename F>
auto noting_errors(SyncTarget& t, const std::string& scope, F step) -> decltype(step()) {
  auto r = step();
  if (!r) (void)t.store.set_sync_error(t.account, scope, r.error().message);
  return r;
}

template <typename T>
std::vector<std::string> ids_of(const std::vector<T>& items) {
  std::vector<std::string> ids;
  for (const auto& i : items) ids.push_back(i.id);
  return ids;
}

// The service time a query may start from: before its own clock reading, with the overlap.
Timestamp query_start(SyncTarget& t) {
  return t.client.server_time().value_or(t.clock.now()) - t.overlap;
}

std::string tasks_path(const std::string& job) {
  return "/jobs/" + azure::url_encode(job) + "/tasks";
}

// Task pages are parsed as they stream (parse_task_page) on this thread while the writer stores
// the previous one.
Result<void> list_tasks(SyncTarget& t, const std::string& job, const ListStart& start,
                        std::set<std::string>& seen, SyncStats& stats,
                        detail::PageWriter<Task>::AfterPage after_page = {}) {
  detail::PageWriter<Task> writer(
      t.store, [&](const std::vector<Task>& tasks) { return t.store.upsert_tasks(tasks); },
      std::move(after_page), seen, stats);
  auto on_body = [&](std::string& body) -> Result<std::string> {
    auto page = azure::parse_task_page(body, t.account, job);
    if (!page) {
      return make_error(ErrorKind::Parse, fmt::format("{}{}: {}", t.client.options().endpoint,
                                                      start.path, page.error().message));
    }
    std::string next = page->next_link;
    TY_TRY(writer.push(std::move(page->tasks), std::move(page->next_link)));
    return next;
  };
  auto listed = start.resume_link.empty()
                    ? azure::list_bodies(t.client, start.path, start.query, on_body)
                    : azure::list_bodies_from(t.client, start.resume_link, on_body);
  auto written = writer.finish();
  if (!listed) return listed;
  return written;
}

// Lists every task of a job (from the start, or on from `resume_link`), recording with each page
// where the listing goes on: a pass killed midway resumes there instead of fetching again the
// pages it stored. `began` is the service time the listing started at.
Result<void> list_all_tasks(SyncTarget& t, const std::string& job, const std::string& resume_link,
                            Timestamp began, std::set<std::string>& seen, SyncStats& stats) {
  const std::string scope = tasks_scope(job);
  auto record = [&t, scope, began](const std::string& next) -> Result<void> {
    if (next.empty()) return {};  // the mark that ends the pass clears the resume point
    return t.store.set_sync_resume(t.account, scope, next, began);
  };
  return list_tasks(t, job, {tasks_path(job), {{"$select", kTaskSelect}}, resume_link}, seen, stats,
                    record);
}

Result<void> prune_tasks(SyncTarget& t, const std::string& job, const std::set<std::string>& seen,
                         SyncStats& stats) {
  auto cached = t.store.task_ids(t.account, job);
  if (!cached) return cached.error();
  return prune(
      t.store, *cached, seen,
      [&](const std::string& id) { return t.store.delete_task(t.account, job, id); }, stats);
}

// One item of a version listing: its id, eTag and lastModified (the last two may be absent).
Result<std::pair<std::string, TaskVersion>> read_version(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("id") || !j["id"].is_string())
    return make_error(ErrorKind::Parse, "an item has no id");
  std::pair<std::string, TaskVersion> out{j["id"].get<std::string>(), {}};
  if (auto e = j.find("eTag"); e != j.end() && e->is_string())
    out.second.etag = e->get<std::string>();
  if (auto m = j.find("lastModified"); m != j.end() && m->is_string()) {
    auto at = parse_iso8601(m->get<std::string>());
    if (!at)
      return make_error(ErrorKind::Parse, out.first + ": lastModified: " + at.error().message);
    out.second.last_modified = *at;
  }
  return out;
}

// Lists each task's id and version: a version pass costs a few dozen bytes per task.
Result<void> list_task_versions(SyncTarget& t, const std::string& job,
                                std::map<std::string, TaskVersion>& listed) {
  return t.client.list(tasks_path(job), {{"$select", "id,eTag,lastModified"}},
                       [&](const azure::ListPage& page) -> Result<void> {
                         for (const auto& j : page.items) {
                           auto v = read_version(j);
                           if (!v)
                             return make_error(
                                 ErrorKind::Parse,
                                 fmt::format("/jobs/{}/tasks: {}", job, v.error().message));
                           listed.insert(std::move(*v));
                         }
                         return {};
                       });
}

// Whether the service's version of a task is not the cached one. The eTag decides; a service
// that lists none is compared by lastModified; with neither, only new ids count as changed.
bool differs(const TaskVersion& listed, const std::map<std::string, TaskVersion>& cached,
             const std::string& id) {
  auto c = cached.find(id);
  if (c == cached.end()) return true;
  if (!listed.etag.empty()) return listed.etag != c->second.etag;
  return listed.last_modified && listed.last_modified != c->second.last_modified;
}

// Tasks changed at or after `since` (service time).
Result<void> list_changed_tasks(SyncTarget& t, const std::string& job, Timestamp since,
                                std::set<std::string>& seen, SyncStats& stats) {
  azure::Query q{
      {"$select", kTaskSelect},
      {"$filter", fmt::format("stateTransitionTime ge datetime'{}'", format_iso8601(since))}};
  return list_tasks(t, job, {tasks_path(job), q, ""}, seen, stats);
}

// GETs one task and stores it (a task gone since it was listed leaves the cache).
Result<void> fetch_task(SyncTarget& t, const std::string& job, const std::string& id,
                        SyncStats& stats) {
  auto got = azure::get_task(t.client, job, id);
  if (!got && got.error().kind == ErrorKind::NotFound) {
    TY_TRY(t.store.delete_task(t.account, job, id));
    ++stats.deleted;
    return {};
  }
  if (!got) return got.error();
  TY_TRY(t.store.upsert_task(*got));
  ++stats.entities;
  return {};
}

// Every task from the start, the ones the service lacks removed.
Result<void> full_refresh(SyncTarget& t, const std::string& job, SyncStats& stats) {
  const Timestamp start = query_start(t);
  std::set<std::string> seen;
  TY_TRY(list_all_tasks(t, job, "", start, seen, stats));
  TY_TRY(prune_tasks(t, job, seen, stats));
  TY_TRY(mark(t, versions_scope(job), std::nullopt));
  return mark(t, tasks_scope(job), start);
}

// Beyond this many new or changed tasks, one full listing costs fewer requests than a GET each.
constexpr size_t kMostSingleFetches = 16;

// The version pass (TaskRefresh::Versions). Deletions are decided only for tasks cached before
// the listing began, so a task another writer stores meanwhile is never taken for a deleted one.
Result<void> refresh_task_versions(SyncTarget& t, const std::string& job,
                                   std::optional<Timestamp> watermark, SyncStats& stats) {
  auto cached = t.store.task_versions(t.account, job);
  if (!cached) return cached.error();
  std::map<std::string, TaskVersion> listed;
  TY_TRY(list_task_versions(t, job, listed));
  std::vector<std::string> changed, cached_ids;
  std::set<std::string> seen;
  for (const auto& [id, v] : listed) {
    seen.insert(id);
    if (differs(v, *cached, id)) changed.push_back(id);
  }
  for (const auto& kv : *cached) cached_ids.push_back(kv.first);
  TY_TRY(prune(
      t.store, cached_ids, seen,
      [&](const std::string& id) { return t.store.delete_task(t.account, job, id); }, stats));
  if (changed.size() > kMostSingleFetches) return full_refresh(t, job, stats);
  for (const auto& id : changed) TY_TRY(fetch_task(t, job, id, stats));
  TY_TRY(mark(t, versions_scope(job), std::nullopt));
  // Only the changed tasks were read whole: the watermark stays where it was.
  return mark(t, tasks_scope(job), watermark);
}

// Goes on with a full listing a killed pass left unfinished. The pages it stored may have changed
// since it began, and its deletions were never pruned: the changes since then are fetched and a
// version pass finds the rest, which costs a few dozen bytes a task rather than the pages again.
Result<void> resume_full_listing(SyncTarget& t, const std::string& job, const std::string& link,
                                 Timestamp began, SyncStats& stats) {
  std::set<std::string> seen;
  if (auto ok = list_all_tasks(t, job, link, began, seen, stats); !ok) {
    // A link the service no longer takes: the next pass starts over.
    if (ok.error().kind == ErrorKind::Http || ok.error().kind == ErrorKind::Parse)
      (void)t.store.set_sync_resume(t.account, tasks_scope(job), "", std::nullopt);
    return ok;
  }
  const Timestamp next = query_start(t);
  TY_TRY(list_changed_tasks(t, job, began, seen, stats));
  return refresh_task_versions(t, job, next, stats);
}

Result<void> refresh_tasks_now(SyncTarget& t, const std::string& job, TaskRefresh how,
                               SyncStats& stats) {
  auto previous = t.store.sync_mark(t.account, tasks_scope(job));
  if (!previous) return previous.error();
  const std::optional<SyncMark>& m = *previous;
  if (how == TaskRefresh::Versions)
    return refresh_task_versions(t, job, m ? m->watermark : std::nullopt, stats);
  if (how == TaskRefresh::Incremental && m && m->watermark) {
    const Timestamp start = query_start(t);
    std::set<std::string> seen;
    TY_TRY(list_changed_tasks(t, job, *m->watermark, seen, stats));
    return mark(t, tasks_scope(job), start);
  }
  if (m && !m->resume_link.empty() && m->resume_from)
    return resume_full_listing(t, job, m->resume_link, *m->resume_from, stats);
  return full_refresh(t, job, stats);
}

}  // namespace

std::string nodes_scope(const std::string& pool) {
  return "nodes/" + pool;
}

std::string tasks_scope(const std::string& job) {
  return "tasks/" + job;
}

std::string versions_scope(const std::string& job) {
  return "versions/" + job;
}

Result<bool> task_versions_due(SyncTarget& t, const std::string& job, Duration every) {
  auto m = t.store.sync_mark(t.account, versions_scope(job));
  if (!m) return m.error();
  return !*m || !(*m)->checked_at || t.clock.now() - *(*m)->checked_at >= every;
}

Result<void> refresh_pools(SyncTarget& t, SyncStats& stats) {
  return noting_errors(t, kPoolsScope, [&]() -> Result<void> {
    std::set<std::string> seen;
    TY_TRY(sync_list<Pool>(
        t.store, t.client, {"/pools", {{"$select", kPoolSelect}}, ""},
        [&](const nlohmann::json& j) { return azure::parse_pool(j, t.account); },
        [&](const Pool& p) { return t.store.upsert_pool(p); }, seen, stats));
    auto cached = t.store.pools(t.account);
    if (!cached) return cached.error();
    TY_TRY(prune(
        t.store, ids_of(*cached), seen,
        [&](const std::string& id) { return t.store.delete_pool(t.account, id); }, stats));
    TY_TRY(t.store.record_pool_samples(t.account, t.clock.now()));
    return mark(t, kPoolsScope, std::nullopt);
  });
}

Result<void> refresh_nodes(SyncTarget& t, const std::string& pool, SyncStats& stats) {
  auto r = noting_errors(t, nodes_scope(pool), [&]() -> Result<void> {
    int slots = 1;
    if (auto pools = t.store.pools(t.account))
      for (const auto& p : *pools)
        if (p.id == pool) slots = p.task_slots_per_node;
    std::set<std::string> seen;
    TY_TRY(sync_list<Node>(
        t.store, t.client,
        {"/pools/" + azure::url_encode(pool) + "/nodes", {{"$select", kNodeSelect}}, ""},
        [&](const nlohmann::json& j) { return azure::parse_node(j, t.account, pool); },
        [&](Node node) {
          node.task_slots = slots;
          return t.store.upsert_node(node);
        },
        seen, stats));
    auto cached = t.store.nodes(t.account, pool);
    if (!cached) return cached.error();
    TY_TRY(prune(
        t.store, ids_of(*cached), seen,
        [&](const std::string& id) { return t.store.delete_node(t.account, pool, id); }, stats));
    TY_TRY(t.store.record_pool_samples(t.account, t.clock.now(), pool));
    return mark(t, nodes_scope(pool), std::nullopt);
  });
  if (!r && r.error().kind == ErrorKind::NotFound) {
    // The pool is gone: so are its cached nodes and its mark.
    if (auto d = t.store.delete_pool(t.account, pool); !d) return d;
    ++stats.deleted;
  }
  return r;
}

Result<std::vector<std::string>> refresh_jobs(SyncTarget& t, const std::string& job,
                                              SyncStats& stats) {
  return noting_errors(t, kJobsScope, [&]() -> Result<std::vector<std::string>> {
    azure::Query q{{"$select", kJobSelect}};
    if (!job.empty()) q.emplace_back("$filter", "id eq '" + odata_quote(job) + "'");
    std::set<std::string> seen;
    TY_TRY(sync_list<Job>(
        t.store, t.client, {"/jobs", q, ""},
        [&](const nlohmann::json& j) { return azure::parse_job(j, t.account); },
        [&](const Job& j) { return t.store.upsert_job(j); }, seen, stats));
    std::vector<std::string> cached{job};
    if (job.empty()) {
      auto jobs = t.store.jobs(t.account);
      if (!jobs) return jobs.error();
      cached = ids_of(*jobs);
    }
    TY_TRY(prune(
        t.store, cached, seen,
        [&](const std::string& id) { return t.store.delete_job(t.account, id); }, stats));
    if (job.empty()) TY_TRY(mark(t, kJobsScope, std::nullopt));
    return std::vector<std::string>(seen.begin(), seen.end());
  });
}

Result<void> refresh_tasks(SyncTarget& t, const std::string& job, TaskRefresh how,
                           SyncStats& stats) {
  auto r =
      noting_errors(t, tasks_scope(job), [&]() { return refresh_tasks_now(t, job, how, stats); });
  if (!r && r.error().kind == ErrorKind::NotFound) {
    // The job is gone: so is everything cached under it (its mark included).
    if (auto d = t.store.delete_job(t.account, job); !d) return d;
    ++stats.deleted;
  }
  return r;
}

Result<void> refresh_changed_tasks(SyncTarget& t, const std::string& job, SyncStats& stats) {
  TY_TRY(refresh_tasks(t, job, TaskRefresh::Incremental, stats));
  auto differ = task_counts_differ(t, job);
  if (!differ) return differ.error();
  return *differ ? refresh_tasks(t, job, TaskRefresh::Versions, stats) : Result<void>{};
}

Result<bool> task_counts_differ(SyncTarget& t, const std::string& job) {
  auto r = t.client.call("GET", "/jobs/" + azure::url_encode(job) + "/taskcounts");
  if (!r) return r.error();
  auto remote = azure::parse_task_counts(r->body);
  if (!remote) return remote.error();
  auto cached = t.store.task_counts(t.account, job);
  if (!cached) return cached.error();
  auto failed = t.store.failed_task_count(t.account, job);
  if (!failed) return failed.error();
  auto& c = *cached;
  azure::JobTaskCounts local{static_cast<int>(c[TaskState::Active]),
                             static_cast<int>(c[TaskState::Running] + c[TaskState::Preparing]),
                             static_cast<int>(c[TaskState::Completed]),
                             static_cast<int>(c[TaskState::Completed] - *failed),
                             static_cast<int>(*failed)};
  bool differ = !(local == *remote);
  // Counts that match confirm the cached tasks as of now: their rows' age restarts.
  if (!differ) {
    auto m = t.store.sync_mark(t.account, tasks_scope(job));
    if (m && *m && (*m)->checked_at) TY_TRY(mark(t, tasks_scope(job), (*m)->watermark));
  }
  return differ;
}

Result<std::vector<std::string>> pools_with_node_changes(SyncTarget& t) {
  std::vector<std::string> changed;
  auto ok = t.client.list("/nodecounts", {}, [&](const azure::ListPage& page) -> Result<void> {
    for (const auto& j : page.items) {
      auto remote = azure::parse_pool_node_counts(j);
      if (!remote) return remote.error();
      auto nodes = t.store.nodes(t.account, remote->pool);
      if (!nodes) return nodes.error();
      std::map<std::string, int> local;
      for (const auto& n : *nodes) ++local[std::string(to_wire(n.state))];
      if (local != remote->by_state) changed.push_back(remote->pool);
    }
    return {};
  });
  if (!ok) return ok.error();
  return changed;
}

}  // namespace trainyard
