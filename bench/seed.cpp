// Seeding of benchmark data (see seed.hpp).
#include "seed.hpp"

#include <sys/stat.h>

#include <chrono>

#include <fmt/format.h>

namespace trainyard::bench {
namespace {

using std::chrono::microseconds;
using std::chrono::seconds;

Task make_task(const SeedOptions& o, int i, Timestamp t0) {
  Task t;
  t.account = kLocalAccount;
  t.job_id = o.job;
  t.id = seeded_task_id(i);
  t.display_name = fmt::format("lr={:.0e} seed={}", 1e-4 * (1 + i % 10), i % 97);
  t.command_line = fmt::format("python3 train.py --lr {:.0e} --seed {} --batch {} --out run-{}",
                               1e-4 * (1 + i % 10), i % 97, 32 << (i % 4), i);
  t.state = TaskState::Completed;
  t.previous_state = TaskState::Running;
  t.creation_time = t0 + microseconds(i);
  t.state_transition_time = t0 + seconds(60) + microseconds(i);
  auto& e = t.execution_info;
  bool failed = i % 10 == 7;
  e.start_time = t0 + seconds(1) + microseconds(i);
  e.end_time = t.state_transition_time;
  e.exit_code = failed ? 1 : 0;
  e.result = failed ? TaskResult::Failure : TaskResult::Success;
  if (failed) e.failure_info = FailureInfo{ErrorCategory::UserError, "FailureExitCode", "exit 1"};
  return t;
}

std::vector<MetricPoint> make_points(const SeedOptions& o, int i, Timestamp t0) {
  static const char* kNames[] = {"loss", "val_loss", "accuracy", "val_accuracy", "lr"};
  std::vector<MetricPoint> pts;
  for (int m = 0; m < o.metrics && m < 5; ++m) {
    for (int s = 0; s < o.points; ++s) {
      double v = 1.0 / (1.0 + s + m) + 0.001 * (i % 13);
      pts.push_back({kNames[m], static_cast<double>(s), v, t0 + seconds(s)});
    }
  }
  return pts;
}

}  // namespace

Result<void> seed_big_job(Store& store, const SeedOptions& o) {
  auto t0 = SystemClock().now() - std::chrono::hours(2);
  return store.write([&]() -> Result<void> {
    if (auto r = store.upsert_account(Account{kLocalAccount, AccountKind::Local, ""}); !r) return r;
    Job j;
    j.account = kLocalAccount;
    j.id = o.job;
    j.pool_id = kLocalPool;
    j.creation_time = t0;
    if (auto r = store.upsert_job(j); !r) return r;
    for (int i = 0; i < o.tasks; ++i) {
      auto t = make_task(o, i, t0);
      if (auto r = store.upsert_task(t); !r) return r;
      if (o.metrics == 0 || o.points == 0) continue;
      if (auto r = store.add_metric_points(kLocalAccount, o.job, t.id, make_points(o, i, t0)); !r)
        return r;
    }
    return ok_result();
  });
}

std::string seeded_task_id(int i) {
  return fmt::format("task-{:06d}", i);
}

Result<double> seed_data_dir(const SeedOptions& o) {
  ::mkdir(o.data_dir.c_str(), 0700);
  auto store = Store::open(o.data_dir + "/cache.db");
  if (!store) return store.error();
  auto start = std::chrono::steady_clock::now();
  if (auto r = seed_big_job(**store, o); !r) return r.error();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace trainyard::bench
