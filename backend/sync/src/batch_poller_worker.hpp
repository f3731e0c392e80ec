// Internal: a Batch poller's thread state and what one cycle does: the focus refreshed, files
// followed, completed tasks' logs read, and the background queue worked through within the
// request budget. BatchPoller (batch_poller.cpp) runs it.
#pragma once

#include "sync/batch_poller.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <set>
#include <string>

#include "azure/batch_actions.hpp"
#include "completed_log_queue.hpp"
#include "store/store.hpp"
#include "sync/incremental_sync.hpp"
#include "sync/poll_lock.hpp"
#include "sync/remote_log.hpp"
#include "sync/task_log_backfill.hpp"
#include "watched_log_share.hpp"

namespace trainyard {

/// One unit of a poller's background work: the queue is worked through between focus refreshes.
struct PollItem {
  enum Kind { Pools, NodeCounts, Nodes, Jobs, JobCounts, Tasks, TaskVersions } kind;
  std::string id;  ///< pool or job
};

/// The thread's own state: its store connection, client, lock, budget and work queue.
struct BatchPoller::Worker {
  using Steady = std::chrono::steady_clock;
  using Item = PollItem;
  using milliseconds = std::chrono::milliseconds;

  BatchPoller& p;
  std::unique_ptr<Store> store;
  std::unique_ptr<azure::BatchClient> client;
  SystemClock clock;
  std::unique_ptr<SyncTarget> target;
  PollLock lock;
  double tokens;
  Steady::time_point refilled = Steady::now();
  Steady::time_point next_background{}, next_jobs_list{};
  std::deque<Item> queue;
  // Remote files followed into the cache: the one on screen, and pinned jobs' running tasks.
  struct Follow {
    RemoteLogTail tail;
    bool finished = false;  // the task completed and the copy is whole
    bool wanted = true;     // still on screen or running in a pinned job
  };
  std::map<std::string, Follow> follows;
  Steady::time_point next_pinned{};
  size_t next_job_on_screen = 0, next_task_on_screen = 0;  // where the last cycle's share ended
  CompletedLogQueue unread;  // completed tasks of followed jobs whose logs are still to be read
  std::string subtasks_final_for;  ///< job/task whose subtasks were read after it completed
  std::string error;               // the cycle's last failure
  std::set<std::string> written;   // the scopes the cycle wrote (what the TUI re-reads)

  WatchedLogShare log_share;  // the log on screen, told to the polling process (or theirs, heard)

  explicit Worker(BatchPoller& poller)
      : p(poller),
        lock(poller.lock_dir_, poller.account_),
        tokens(poller.options_.burst),
        log_share(poller.account_, poller.options_.pid ? poller.options_.pid : ::getpid()) {}
  ~Worker() {
    if (store) (void)log_share.withdraw(*store);
    std::lock_guard<std::mutex> g(p.mu_);
    p.client_in_use_ = nullptr;
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  Result<void> open() {
    if (target) return {};
    if (!store) {
      auto s = Store::open(p.data_dir_ + "/cache.db");
      if (!s) return s.error();
      store = std::move(*s);
    }
    auto c = p.make_client_();
    if (!c) return c.error();
    client = std::move(*c);
    {
      std::lock_guard<std::mutex> g(p.mu_);
      p.client_in_use_ = client.get();
      // A stop that came while the client was made must still end its requests.
      if (p.stopping_) client->cancel();
    }
    target = std::make_unique<SyncTarget>(SyncTarget{*store, *client, p.account_, clock});
    return {};
  }

  // Waits for the budget to allow a request; false when the poller is stopping.
  bool spend_budget() {
    auto now = Steady::now();
    double rate = p.options_.requests_per_second;
    tokens = std::min(p.options_.burst,
                      tokens + std::chrono::duration<double>(now - refilled).count() * rate);
    refilled = now;
    if (tokens >= 1) return true;
    auto wait = std::chrono::duration<double>((1 - tokens) / rate);
    return !p.wait_until(now + std::chrono::duration_cast<Steady::duration>(wait));
  }

  // Runs one step within the budget and charges it the requests it made; what it wrote is
  // told as `scope`.
  template <typename F>
  void step(const std::string& scope, F&& f) {
    if (!spend_budget()) return;
    const auto before = client->stats().requests;
    SyncStats stats;
    auto r = f(stats);
    tokens -= static_cast<double>(client->stats().requests - before);
    if (stats.entities || stats.deleted) written.insert(scope);
    if (!r && r.error().kind != ErrorKind::NotFound) {
      error = r.error().message;
    }
    if (!r && r.error().kind == ErrorKind::NotFound) written.insert(scope);  // a vanished job
  }

  // Whether a job's tasks are due a version pass (the store keeps when the last one ran).
  bool versions_due(const std::string& job) {
    auto due = task_versions_due(*target, job, p.options_.deletion_interval);
    return due && *due;
  }

  void refresh_focus(const PollFocus& f) {
    auto now = Steady::now();
    if (!f.job.empty()) {
      step(tasks_scope(f.job), [&](SyncStats& s) {
        return refresh_tasks(*target, f.job, TaskRefresh::Incremental, s);
      });
      if (versions_due(f.job))
        step(tasks_scope(f.job),
             [&](SyncStats& s) { return refresh_tasks(*target, f.job, TaskRefresh::Versions, s); });
    }
    if (!f.pool.empty())
      step(nodes_scope(f.pool), [&](SyncStats& s) { return refresh_nodes(*target, f.pool, s); });
    if (f.pools) step(kPoolsScope, [&](SyncStats& s) { return refresh_pools(*target, s); });
    if (f.node_counts) step(kPoolsScope, [&](SyncStats&) { return queue_changed_pools(); });
    if (f.jobs && now >= next_jobs_list) {
      step(kJobsScope, [&](SyncStats& s) { return refresh_jobs(*target, "", s); });
      next_jobs_list = now + 4 * p.options_.focus_interval;
    }
    if (f.jobs) count_jobs_on_screen(f.jobs_on_screen);
    if (!f.job.empty()) follow_tasks_on_screen(f.job, f.tasks_on_screen);
    follow_focused_log(f);
    follow_what_others_show(f);
    refresh_detail_subtasks(f);
    follow_pinned(f);
    read_completed_logs(f);
  }

  // How many rows on screen one cycle may refresh: about half the requests the budget allows an
  // interval, the rest left to the pane itself and the background.
  size_t on_screen_share() const {
    auto per_interval = p.options_.requests_per_second *
                        std::chrono::duration<double>(p.options_.focus_interval).count();
    return std::max<size_t>(2, static_cast<size_t>(per_interval / 2));
  }

  // The next `share` of `ids` after the ones the last cycle took (the first id every cycle: the
  // selected row, the one an action most likely touched).
  static std::vector<std::string> take_share(const std::vector<std::string>& ids, size_t share,
                                             size_t& next) {
    if (ids.empty()) return {};
    std::vector<std::string> out{ids.front()};
    const size_t rest = ids.size() - 1;
    for (size_t i = 0; i < std::min(share - 1, rest); ++i)
      out.push_back(ids[1 + (next + i) % rest]);
    next = rest ? (next + share - 1) % rest : 0;
    return out;
  }

  // Jobs on screen: listed when never listed, else their counts compared (one small request);
  // counts that differ bring the changed tasks now and a version pass right after.
  void count_jobs_on_screen(const std::vector<std::string>& jobs) {
    for (const auto& job : take_share(jobs, on_screen_share(), next_job_on_screen))
      step(tasks_scope(job), [&](SyncStats& s) -> Result<void> {
        auto m = store->sync_mark(p.account_, tasks_scope(job));
        if (!m || !*m || !(*m)->checked_at)
          return refresh_tasks(*target, job, TaskRefresh::Incremental, s);
        auto differ = task_counts_differ(*target, job);
        if (!differ || !*differ) return differ ? Result<void>() : differ.error();
        queue.push_front({Item::TaskVersions, job});
        return refresh_tasks(*target, job, TaskRefresh::Incremental, s);
      });
  }

  // Running tasks on screen: their stdout.txt is read, as a pinned job's are.
  void follow_tasks_on_screen(const std::string& job, const std::vector<std::string>& ids) {
    std::vector<std::string> running;
    for (const auto& id : ids) {
      auto t = store->task(p.account_, job, id);
      if (t && *t && (*t)->state == TaskState::Running) running.push_back(id);
    }
    for (const auto& id : take_share(running, on_screen_share(), next_task_on_screen))
      follow({p.account_, job, id, "", "", "stdout.txt"});
  }

  // The subtasks of a multi-instance task on screen, until they were read after it completed.
  void refresh_detail_subtasks(const PollFocus& f) {
    if (f.detail_task.empty() || subtasks_final_for == f.job + "/" + f.detail_task) return;
    auto t = store->task(p.account_, f.job, f.detail_task);
    if (!t || !*t || !(*t)->multi_instance) return;
    const bool done = (*t)->state == TaskState::Completed;
    step(tasks_scope(f.job), [&](SyncStats& s) -> Result<void> {
      auto subs = azure::list_subtasks(*client, f.job, f.detail_task);
      if (!subs) return subs.error();
      TY_TRY(store->replace_subtasks(p.account_, f.job, f.detail_task, *subs));
      s.entities += static_cast<int64_t>(subs->size());
      if (done) subtasks_final_for = f.job + "/" + f.detail_task;
      return {};
    });
  }

  static std::string key_of(const RemoteFileRef& r) {
    return r.job + "/" + r.task + "/" + r.pool + "/" + r.node + "/" + r.path;
  }

  bool task_completed(const RemoteFileRef& r) {
    if (r.is_node_file()) return false;  // a node file has no end
    auto t = store->task(p.account_, r.job, r.task);
    return t && *t && (*t)->state == TaskState::Completed;
  }

  // Reads what is new in one remote file; once its task completed, reads to the end once.
  void follow(const RemoteFileRef& ref) {
    auto key = key_of(ref);
    auto it = follows.find(key);
    if (it == follows.end()) {
      auto tail = RemoteLogTail::open(*store, *client, p.data_dir_, ref);
      if (!tail) {
        error = tail.error().message;
        return;
      }
      it = follows.emplace(key, Follow{std::move(*tail)}).first;
    }
    auto& f = it->second;
    f.wanted = true;
    if (f.finished) return;
    bool done = task_completed(ref);
    // A task's log brings its metric points; a node's file is shown with its pool's nodes.
    step(ref.is_node_file() ? nodes_scope(ref.pool) : tasks_scope(ref.job),
         [&](SyncStats& s) -> Result<void> {
           auto r = done ? f.tail.finish() : f.tail.step();
           if (!r) return r.error();
           if (r->new_bytes || r->reset) ++s.entities;  // the log pane has new lines to show
           f.finished = done;
           return {};
         });
  }

  // The remote file the focus's log pane shows; none when it shows none.
  std::optional<RemoteFileRef> focused_log(const PollFocus& f) const {
    if (f.log_file.empty()) return std::nullopt;
    RemoteFileRef ref{p.account_, "", "", "", "", f.log_file};
    if (!f.log_task.empty()) {
      ref.job = f.job;
      ref.task = f.log_task;
    } else if (!f.log_node.empty()) {
      ref.pool = f.pool;
      ref.node = f.log_node;
    } else {
      return std::nullopt;
    }
    return ref;
  }

  void follow_focused_log(const PollFocus& f) {
    if (auto ref = focused_log(f)) follow(*ref);
  }

  // What the focus shows that a window which does not poll needs from the one that does: its
  // log (with its job), else its job's tasks (a ref without a path).
  std::optional<RemoteFileRef> shown_to_share(const PollFocus& f) const {
    if (auto log = focused_log(f)) return log;
    if (f.job.empty()) return std::nullopt;
    return RemoteFileRef{p.account_, f.job, "", "", "", ""};
  }

  // The polling process keeps what other windows on this data directory show fresh too: the
  // tasks of the job each shows, and the log each has open.
  void follow_what_others_show(const PollFocus& f) {
    if (auto r = log_share.withdraw(*store); !r) error = r.error().message;
    auto refs = log_share.others(*store, clock.now());
    if (!refs) {
      error = refs.error().message;
      return;
    }
    std::set<std::string> jobs{f.job};
    for (const auto& ref : *refs) {
      if (!ref.job.empty() && jobs.insert(ref.job).second)
        step(tasks_scope(ref.job), [&](SyncStats& s) {
          return refresh_tasks(*target, ref.job, TaskRefresh::Incremental, s);
        });
      if (!ref.path.empty()) follow(ref);
    }
  }

  // A window that does not poll says what it shows, for the one that does.
  void tell_what_is_shown(const PollFocus& f) {
    if (auto r = log_share.publish(*store, shown_to_share(f), clock.now()); !r)
      error = r.error().message;
  }

  // Pinned jobs: their tasks' states, then the stdout.txt of each running (or just completed)
  // task, so metrics and sparklines stay live without opening each log.
  void follow_pinned(const PollFocus& f) {
    auto now = Steady::now();
    if (now < next_pinned) return;
    next_pinned = now + p.options_.pinned_interval;
    for (const auto& job : f.pinned_jobs) {
      if (job != f.job)
        step(tasks_scope(job), [&](SyncStats& s) {
          return refresh_tasks(*target, job, TaskRefresh::Incremental, s);
        });
      TaskQuery q;
      q.account = p.account_;
      q.job = job;
      q.state = TaskState::Running;
      q.limit = 64;  // a budget: beyond this many running tasks, logs are read on demand
      auto running = store->tasks(q);
      if (!running) continue;
      for (const auto& t : *running) follow({p.account_, job, t.id, "", "", "stdout.txt"});
    }
    // Tasks that completed since the last pass get their final read.
    for (auto& [key, fl] : follows)
      if (!fl.finished && task_completed(fl.tail.ref())) follow(fl.tail.ref());
    drop_unwanted();
  }

  // The jobs whose completed tasks get their logs read: the one on screen, the pinned ones, and
  // those with a task file followed.
  std::set<std::string> followed_jobs(const PollFocus& f) const {
    std::set<std::string> jobs(f.pinned_jobs.begin(), f.pinned_jobs.end());
    if (!f.job.empty()) jobs.insert(f.job);
    for (const auto& [key, fl] : follows)
      if (!fl.tail.ref().is_node_file()) jobs.insert(fl.tail.ref().job);
    return jobs;
  }

  // A few queued tasks a cycle, while the budget has room beyond what is on screen: each one's
  // stdout.txt and stderr.txt read to their end, so its metrics are its last lines.
  void read_completed_logs(const PollFocus& f) {
    if (auto q = unread.refill(*store, p.account_, followed_jobs(f)); !q) error = q.error().message;
    const size_t share = std::max<size_t>(1, on_screen_share() / 2);
    for (size_t n = 0; n < share && tokens >= 4; ++n) {
      auto next = unread.pop();
      if (!next) break;
      // Copies, not structured bindings: the lambda below captures them (clang 14 refuses a
      // captured binding).
      const std::string job = next->first, task = next->second;
      if (!task_completed({p.account_, job, task, "", "", "stdout.txt"})) continue;
      step(tasks_scope(job), [&](SyncStats& s) -> Result<void> {
        LogBackfillTarget logs{*store, *client, p.data_dir_, p.account_, {}};
        auto r = read_task_logs(logs, job, task, true);
        if (!r) return r.error();
        if (r->bytes) ++s.entities;  // new metric points for the views
        return {};
      });
    }
  }

  // Forgets follows no longer on screen nor running in a pinned job (their copies stay).
  void drop_unwanted() {
    std::erase_if(follows, [](const auto& kv) { return !kv.second.wanted; });
    for (auto& [key, fl] : follows) fl.wanted = false;
  }

  void queue_background(const PollFocus& f) {
    auto now = Steady::now();
    if (!queue.empty() || now < next_background) return;
    queue = {{Item::Pools, ""}, {Item::NodeCounts, ""}, {Item::Jobs, ""}};
    // A pane listing pools or jobs wants their counts fresher than the rest.
    auto every = f.pools || f.jobs ? std::max(p.options_.focus_interval * 6, milliseconds(10000))
                                   : p.options_.background_interval;
    next_background = now + every;
  }

  void work(const Item& item) {
    switch (item.kind) {
      case Item::Pools:
        return step(kPoolsScope, [&](SyncStats& s) { return refresh_pools(*target, s); });
      case Item::NodeCounts:
        return step(kPoolsScope, [&](SyncStats&) { return queue_changed_pools(); });
      case Item::Nodes:
        return step(nodes_scope(item.id),
                    [&](SyncStats& s) { return refresh_nodes(*target, item.id, s); });
      case Item::Jobs:
        return step(kJobsScope, [&](SyncStats& s) { return queue_jobs(s); });
      case Item::JobCounts:
        return step(tasks_scope(item.id), [&](SyncStats&) { return check_job(item.id); });
      case Item::Tasks:
        return step(tasks_scope(item.id), [&](SyncStats& s) {
          return refresh_tasks(*target, item.id, TaskRefresh::Incremental, s);
        });
      case Item::TaskVersions:
        return step(tasks_scope(item.id), [&](SyncStats& s) {
          return refresh_tasks(*target, item.id, TaskRefresh::Versions, s);
        });
    }
  }

  // Queues `item` unless it is queued already (node counts are compared every focus interval
  // while a burn rate is on screen).
  void enqueue(Item item, bool front) {
    for (const auto& q : queue)
      if (q.kind == item.kind && q.id == item.id) return;
    if (front)
      queue.push_front(std::move(item));
    else
      queue.push_back(std::move(item));
  }

  Result<void> queue_changed_pools() {
    auto changed = pools_with_node_changes(*target);
    if (!changed) return changed.error();
    for (const auto& pool : *changed) enqueue({Item::Nodes, pool}, true);
    // Pools never listed for nodes (new ones) are not in nodecounts' answer when empty.
    auto pools = store->pools(p.account_);
    if (!pools) return pools.error();
    for (const auto& pl : *pools) {
      auto m = store->sync_mark(p.account_, nodes_scope(pl.id));
      if (m && !*m) enqueue({Item::Nodes, pl.id}, false);
    }
    return {};
  }

  // Each job: its tasks when never listed; a version pass when one is due (counts by state miss
  // changes that keep them equal: a retry, new constraints, a deletion beside an addition);
  // else its counts, one small request.
  Result<void> queue_jobs(SyncStats& s) {
    auto jobs = refresh_jobs(*target, "", s);
    if (!jobs) return jobs.error();
    for (const auto& id : *jobs) {
      auto m = store->sync_mark(p.account_, tasks_scope(id));
      bool never = !m || !*m || !(*m)->checked_at;
      auto kind = never ? Item::Tasks : versions_due(id) ? Item::TaskVersions : Item::JobCounts;
      queue.push_back({kind, id});
    }
    return {};
  }

  // Counts that differ from the cache's mean changed tasks: what changed state, then a version
  // pass for deletions and the rest.
  Result<void> check_job(const std::string& job) {
    auto differ = task_counts_differ(*target, job);
    if (!differ) return differ.error();
    if (!*differ) return {};
    queue.push_front({Item::TaskVersions, job});
    queue.push_front({Item::Tasks, job});
    return {};
  }
};

}  // namespace trainyard
