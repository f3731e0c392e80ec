// ty_seed: fills a data directory with one big job of completed tasks (and their metrics), fast.
//
//   ty_seed DATA_DIR [--job big] [--tasks 100000] [--metrics 2] [--points 20]
//
// Every task is completed (one in ten failed): the local engine starts queued local tasks and
// repairs running ones without a process, so no other state can be seeded under account `local`.
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "store/store.hpp"

namespace {

using namespace trainyard;
using std::chrono::microseconds;
using std::chrono::seconds;

/// Command-line settings of the seeder.
struct SeedOptions {
  std::string data_dir;
  std::string job = "big";
  int tasks = 100000;
  int metrics = 2;
  int points = 20;
};

bool parse_args(int argc, char** argv, SeedOptions& o) {
  if (argc < 2) return false;
  o.data_dir = argv[1];
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--job")
      o.job = value;
    else if (flag == "--tasks")
      o.tasks = std::atoi(value.c_str());
    else if (flag == "--metrics")
      o.metrics = std::atoi(value.c_str());
    else if (flag == "--points")
      o.points = std::atoi(value.c_str());
    else
      return false;
  }
  return o.tasks >= 0 && o.metrics >= 0 && o.points >= 0;
}

Task make_task(const SeedOptions& o, int i, Timestamp t0) {
  Task t;
  t.account = kLocalAccount;
  t.job_id = o.job;
  t.id = fmt::format("task-{:06d}", i);
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

Result<void> seed(Store& store, const SeedOptions& o) {
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

}  // namespace

int main(int argc, char** argv) {
  SeedOptions o;
  if (!parse_args(argc, argv, o)) {
    std::fputs(
        "usage: ty_seed DATA_DIR [--job big] [--tasks 100000] [--metrics 2] [--points 20]\n",
        stderr);
    return 2;
  }
  ::mkdir(o.data_dir.c_str(), 0700);
  auto store = Store::open(o.data_dir + "/cache.db");
  if (!store) {
    std::fprintf(stderr, "ty_seed: %s\n", store.error().message.c_str());
    return 1;
  }
  auto start = std::chrono::steady_clock::now();
  if (auto r = seed(**store, o); !r) {
    std::fprintf(stderr, "ty_seed: %s\n", r.error().message.c_str());
    return 1;
  }
  auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start);
  std::printf("seeded %d tasks (%d metrics x %d points each) in job '%s' in %.0f ms\n", o.tasks,
              o.metrics, o.points, o.job.c_str(), ms.count());
  return 0;
}
