#include "tui_fixture.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "local/process.hpp"
#include "local/task_environment.hpp"

namespace trainyard::apptest {
namespace {

using namespace std::chrono_literals;

// The bytes a careless training script writes: title change, colours, a carriage-return progress
// bar, a screen clear, CJK and emoji.
const char kHostileStdout[] =
    "\x1b]0;pwned title\x07"
    "epoch 1 step 100 loss=0.9120 acc=0.41\n"
    "\x1b[32mINFO\x1b[0m training on 1 GPU\n"
    "progress  10%|#         |\rprogress  50%|#####     |\rprogress 100%|##########|\n"
    "\x1b[2J\x1b[Hafter clear\n"
    "\xe6\x97\xa5\xe5\xbf\x97: \xe7\xac\xac 3 \xe8\xbd\xae \xe6\x8d\x9f\xe5\xa4\xb1=0.43 "
    "\xf0\x9f\x9a\x80\n"
    "WARNING: grad norm 12.5 clipped to 1.0\n"
    "bell\x07 and tab\tend\n"
    "epoch 20 step 2000 loss=0.1020 acc=0.93\n";

Timestamp at(const char* iso) {
  auto t = parse_iso8601(iso);
  if (!t) throw std::runtime_error(std::string("bad fixture time ") + iso);
  return *t;
}

void check(const Result<void>& r) {
  if (!r) throw std::runtime_error("fixture: " + r.error().message);
}

Job make_job(const std::string& id, Timestamp created) {
  Job j;
  j.account = kLocalAccount;
  j.id = id;
  j.pool_id = kLocalPool;
  j.creation_time = j.state_transition_time = created;
  return j;
}

Task make_task(const std::string& job, const std::string& id, const std::string& command,
               Timestamp created) {
  Task t;
  t.account = kLocalAccount;
  t.job_id = job;
  t.id = id;
  t.command_line = command;
  t.creation_time = t.state_transition_time = created;
  return t;
}

Task completed(Task t, Timestamp start, Duration ran, int exit_code) {
  t.state = TaskState::Completed;
  t.previous_state = TaskState::Running;
  t.execution_info.start_time = start;
  t.execution_info.end_time = start + ran;
  t.execution_info.exit_code = exit_code;
  t.execution_info.result = exit_code == 0 ? TaskResult::Success : TaskResult::Failure;
  if (exit_code != 0) {
    t.execution_info.failure_info = FailureInfo{
        ErrorCategory::UserError, "FailureExitCode",
        "The task exited with an exit code representing a failure\x1b[31m (see stderr)"};
  }
  return t;
}

void seed_accounts(Store& s) {
  check(s.upsert_account({kLocalAccount, AccountKind::Local, ""}));
  check(s.upsert_account(
      {"contoso", AccountKind::Batch, "https://contoso.westeurope.batch.azure.com"}));
}

// The running task's supervisor is this test process, so reconciliation keeps it running.
void seed_running(Store& s, Timestamp now) {
  Task t = make_task("resnet-sweep", "lr-0010", "python3 train.py --lr 0.010", now - 4h);
  t.state = TaskState::Running;
  t.previous_state = TaskState::Preparing;
  t.execution_info.start_time = now - 3h - 30min;
  check(s.upsert_task(t));
  LocalRun run;
  run.job = t.job_id;
  run.task = t.id;
  run.run_dir = "runs/resnet-sweep/lr-0010";
  run.workdir = "/";
  run.supervisor_pid = ::getpid();
  run.supervisor_start = process_start_ticks(::getpid()).value_or(0);
  check(s.upsert_local_run(run));
}

void seed_resnet(Store& s, Timestamp now) {
  check(s.upsert_job(make_job("resnet-sweep", now - 4h - 10min)));
  Task ok = make_task("resnet-sweep", "lr-0001", "python3 train.py --lr 0.001 --name 'base line'",
                      now - 4h);
  ok.display_name = "baseline";
  check(s.upsert_task(completed(ok, at("2024-03-01T10:00:00Z"), 42min + 17s, 0)));
  Task bad = make_task("resnet-sweep", "lr-0003", "python3 train.py --lr 0.003", now - 4h);
  check(s.upsert_task(completed(bad, at("2024-03-01T10:00:05Z"), 7min, 1)));
  seed_running(s, now);
  Task queued = make_task("resnet-sweep", "lr-0030", "python3 train.py --lr 0.030", now - 4h);
  queued.depends_on.task_ids = {"lr-0010"};
  check(s.upsert_task(queued));
}

void seed_other_jobs(Store& s, Timestamp now) {
  check(s.upsert_job(make_job("bert-finetune", now - 2 * 24h - 1h)));
  Task oom = make_task("bert-finetune", "t1", "torchrun --nproc 1 finetune.py", now - 2 * 24h);
  check(s.upsert_task(completed(oom, at("2024-02-20T08:00:00Z"), 3h + 5min, 137)));
  check(s.upsert_job(make_job("default", now - 40 * 24h - 1h)));
  Task hi = make_task("default", "echo-hi", "echo hi", now - 40 * 24h);
  check(s.upsert_task(completed(hi, at("2024-01-10T12:00:00Z"), 1s, 0)));
}

void seed_metrics(Store& s) {
  std::vector<MetricPoint> pts;
  Timestamp t0 = at("2024-03-01T10:00:00Z");
  for (int i = 0; i < 20; ++i) {
    double step = (i + 1) * 100.0;
    auto when = t0 + std::chrono::minutes(2 * i);
    pts.push_back({"loss", step, 0.9 * std::exp(-0.12 * i) + 0.08, when});
    pts.push_back({"val_loss", step, 1.0 * std::exp(-0.09 * i) + 0.15 + 0.02 * (i % 3), when});
    pts.push_back({"acc", step, 0.41 + 0.52 * (1 - std::exp(-0.2 * i)), when});
  }
  check(s.add_metric_points(kLocalAccount, "resnet-sweep", "lr-0001", pts));
}

// A sweep of four runs over two parameters (named after their flags, as a Shipyard factory's
// placeholders name them) with two metrics, created before every other job so it lists last.
void seed_sweep(Store& s, Timestamp now) {
  check(s.upsert_job(make_job("lr-grid", now - 60 * 24h - 1h)));
  struct Run {
    const char* id;
    const char* lr;
    const char* batch;
    double decay, floor;
    int points, exit_code;
  };
  const Run runs[] = {{"g0", "0.1", "32", 0.05, 0.60, 12, 0},
                      {"g1", "0.01", "32", 0.25, 0.20, 12, 0},
                      {"g2", "0.01", "64", 0.15, 0.15, 12, 0},
                      {"g3", "1.0", "64", 0.40, 0.90, 5, 1}};
  Timestamp t0 = at("2024-01-01T09:00:00Z");
  for (const auto& r : runs) {
    Task t = make_task("lr-grid", r.id,
                       std::string("python3 train.py --lr ") + r.lr + " --batch " + r.batch,
                       now - 60 * 24h);
    check(s.upsert_task(completed(t, t0, 30min, r.exit_code)));
    check(
        s.set_task_parameters(kLocalAccount, "lr-grid", r.id, {{"lr", r.lr}, {"batch", r.batch}}));
    std::vector<MetricPoint> pts;
    for (int i = 0; i < r.points; ++i) {
      // g2 ends worse than its best, so its best differs from its final.
      double bump = (r.id == std::string("g2") && i == r.points - 1) ? 0.12 : 0.0;
      pts.push_back({"loss", (i + 1) * 10.0, std::exp(-r.decay * i) + r.floor + bump,
                     t0 + std::chrono::minutes(i)});
      // Accuracy rises: g1 ends highest (0.898), g3 starts lowest (0.36).
      pts.push_back({"acc", (i + 1) * 10.0, 0.95 - 0.5 * std::exp(-r.decay * i) - 0.1 * r.floor,
                     t0 + std::chrono::minutes(i)});
    }
    check(s.add_metric_points(kLocalAccount, "lr-grid", r.id, pts));
  }
}

void write_logs(const std::string& data_dir) {
  auto paths = run_paths(data_dir, "resnet-sweep", "lr-0001");
  std::filesystem::create_directories(paths.dir);
  std::ofstream(paths.stdout_txt, std::ios::binary) << kHostileStdout;
  std::ofstream(paths.stderr_txt, std::ios::binary)
      << "Traceback (most recent call last):\n  File \"train.py\", line 88\n"
         "RuntimeError: \x1b[1mCUDA out of memory\x1b[0m\n";
}

std::string make_temp_dir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "trainyard-app-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

}  // namespace

TuiFixture::TuiFixture(const Clock& clock) : dir_(make_temp_dir()) {
  ::setenv("TRAINYARD_NVML_LIB", kMissingNvml, 1);
  ::setenv("TRAINYARD_CPU_SLOTS", "1", 1);
  auto ctx = open_context(dir_, clock);
  if (!ctx) throw std::runtime_error("open_context: " + ctx.error().message);
  ctx_ = std::move(*ctx);
  ctx_->engine.cpu_slots = 1;
  ctx_->engine.gpu_probe = nullptr;
  ctx_->engine.trainyard_exe = "/nonexistent/trainyard-test/trainyard";
  seed(clock.now());
}

TuiFixture::~TuiFixture() {
  ctx_.reset();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void TuiFixture::seed(Timestamp now) {
  Store& s = *ctx_->store;
  seed_accounts(s);
  seed_resnet(s, now);
  seed_other_jobs(s, now);
  seed_metrics(s);
  seed_sweep(s, now);
  write_logs(dir_);
}

}  // namespace trainyard::apptest
