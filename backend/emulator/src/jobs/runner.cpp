#include "runner.hpp"

#include <thread>

#include <fmt/format.h>

#include "local/engine.hpp"
#include "local/task_environment.hpp"
#include "store/store.hpp"

namespace trainyard::emu {

namespace {
const SystemClock& clock_instance() {
  static SystemClock clock;
  return clock;
}
// The emulator places tasks on virtual nodes itself; the engine just runs what it is given.
constexpr int kEngineSlots = 100000;
}  // namespace

Result<std::unique_ptr<Runner>> Runner::open(const std::string& work_dir, const std::string& exe) {
  std::unique_ptr<Runner> r(new Runner());
  r->engine_dir_ = work_dir + "/engine";
  if (auto ok = make_directories(r->engine_dir_); !ok) return ok.error();
  auto store = Store::open(r->engine_dir_ + "/cache.db");
  if (!store) return store.error();
  r->store_ = std::move(*store);
  EngineConfig config;
  config.data_dir = r->engine_dir_;
  config.trainyard_exe = exe;
  config.cpu_slots = kEngineSlots;
  config.default_grace = std::chrono::seconds(5);
  r->engine_ = std::make_unique<LocalEngine>(*r->store_, config, clock_instance());
  if (auto node = r->engine_->ensure_local_node(); !node) return node.error();
  return r;
}

Runner::~Runner() = default;

Result<void> Runner::launch(const Launch& l) {
  // Started before a kill that the state file did not record (the journal replays the add, not
  // the start): the run goes on, so it is followed rather than started twice.
  if (auto known = store_->task(kLocalAccount, l.job, l.task); known && known->has_value())
    return {};
  SubmitRequest req;
  req.job = l.job;
  req.id = l.task;
  req.command_line = l.command_line;
  req.gpus = 1;
  req.max_retries = l.max_retries;
  req.max_wall = l.max_wall;
  req.workdir = l.workdir;
  req.environment = scrub_environment(current_environment());
  req.environment_settings = l.environment;
  if (auto ok = make_directories(l.workdir); !ok) return ok.error();
  auto t = engine_->submit(req);
  if (!t) return t.error();
  return {};
}

std::optional<Task> Runner::status(const std::string& job, const std::string& task) {
  auto t = store_->task(kLocalAccount, job, task);
  if (!t) return std::nullopt;
  return *t;
}

void Runner::stop(const std::string& job, const std::string& task, std::chrono::seconds grace) {
  (void)engine_->request_stop(job, task, grace);
}

void Runner::remove(const std::string& job, const std::string& task) {
  (void)engine_->remove(job, task);
}

int64_t Runner::data_version() {
  return store_->data_version().value_or(-1);
}

void Runner::pump() {
  engine_->reap_children();
  (void)engine_->schedule();
}

std::string Runner::run_dir(const std::string& job, const std::string& task) const {
  return run_paths(engine_dir_, job, task).dir;
}

void Runner::stop_all() {
  TaskQuery q;
  q.account = kLocalAccount;
  q.state = trainyard::TaskState::Running;
  auto running = store_->tasks(q);
  if (!running) return;
  for (const auto& t : *running)
    (void)engine_->request_stop(t.job_id, t.id, std::chrono::seconds(2));
  // Wait for the supervisors to record the ends, so nothing outlives the emulator.
  for (int i = 0; i < 100; ++i) {
    engine_->reap_children();
    auto left = store_->count_tasks(q);
    if (!left || *left == 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

std::string engine_id(const std::string& base, int generation) {
  std::string id = generation ? fmt::format("{}-r{}", base, generation) : base;
  if (id.size() <= 64) return id;
  return fmt::format("{}-{:016x}", base.substr(0, 40), std::hash<std::string>{}(id));
}

}  // namespace trainyard::emu
