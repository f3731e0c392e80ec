// The account's lifetime (construction, the deterministic seed account, stopping runs) and the
// lookups and state changes every resource's handlers share.
#include "account.hpp"

#include <fmt/format.h>

#include "file_mover.hpp"
#include "runner.hpp"

namespace trainyard::emu {

Account::Account(EmulatorOptions options, Runner* runner)
    : options_(std::move(options)),
      runner_(runner),
      mover_(runner ? std::make_unique<FileMover>() : nullptr) {}

Account::~Account() = default;

void Account::stop_all_runs() {
  if (runner_) runner_->stop_all();
}

namespace {

// A deterministic generator, so every seeded account is the same for the same N.
struct SplitMix {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

constexpr Micros kSeedEpoch = 1767225600LL * 1000000;  // 2026-01-01T00:00:00Z

}  // namespace

void Account::seed(int64_t count) {
  std::unique_lock lock(mu_);
  SplitMix rng{42};
  auto make_pool = [&](const std::string& id, const char* vm, int nodes) {
    PoolEntity p;
    p.id = id;
    p.spec = {{"vmSize", vm},
              {"virtualMachineConfiguration",
               {{"imageReference",
                 {{"publisher", "microsoft-dsvm"},
                  {"offer", "ubuntu-hpc"},
                  {"sku", "2204"},
                  {"version", "latest"}}},
                {"nodeAgentSKUId", "batch.node.ubuntu 22.04"}}}};
    p.target_dedicated = nodes;
    touch(p, kSeedEpoch);
    p.state_time = p.alloc_time = kSeedEpoch;
    auto& stored = pools_.emplace(id, std::move(p)).first->second;
    for (int i = 0; i < nodes; ++i) {
      auto& n = add_node(stored, true);
      n.state = NodeState::Idle;
      n.state_time = n.allocation_time = n.boot_time = kSeedEpoch;
    }
  };
  make_pool("seed-gpu", "Standard_NC24ads_A100_v4", 8);
  make_pool("seed-cpu", "Standard_D16s_v5", 2);
  std::vector<std::string> gpu_nodes;
  for (const auto& [id, n] : nodes_) {
    if (n.pool_id == "seed-gpu") gpu_nodes.push_back(id);
  }
  JobEntity j;
  j.id = "seed-sweep";
  j.pool_id = "seed-gpu";
  j.spec = {{"poolInfo", {{"poolId", "seed-gpu"}}},
            {"displayName", "learning-rate sweep (seeded)"},
            {"onAllTasksComplete", "noaction"}};
  touch(j, kSeedEpoch);
  j.state_time = j.start = kSeedEpoch;
  static const char* const kRates[] = {"0.1", "0.03", "0.01", "0.003", "0.001", "0.0003"};
  for (int64_t i = 1; i <= count; ++i) {
    TaskEntity t;
    t.id = fmt::format("task-{:07}", i);
    t.command_line = fmt::format("python train.py --lr {} --seed {}", kRates[rng.next() % 6], i);
    const Micros created = kSeedEpoch + i * 1000000;
    const Micros start = created + static_cast<Micros>(rng.next() % 60'000'000);
    const Micros end = start + 60'000'000 + static_cast<Micros>(rng.next() % 3'600'000'000ULL);
    touch(t, end);
    t.creation = created;
    t.state = TaskState::Completed;
    t.prev_state = TaskState::Running;
    t.state_time = end;
    t.prev_state_time = start;
    t.node_id = gpu_nodes[static_cast<size_t>(i) % gpu_nodes.size()];
    t.pool_id = "seed-gpu";
    t.exec.start = start;
    t.exec.end = end;
    const bool failed = rng.next() % 20 == 0;
    t.exec.exit_code = failed ? 1 : 0;
    t.exec.result = failed ? TaskResult::Failure : TaskResult::Success;
    if (failed) {
      t.exec.failure_code = "FailureExitCode";
      t.exec.failure_message = "The task exited with an exit code representing a failure";
    }
    j.tasks.emplace_hint(j.tasks.end(), t.id, std::move(t));
  }
  jobs_.emplace(j.id, std::move(j));
  ++changes_;
}

namespace {

// The entity `id` names in `entries`; answers `missing` and returns nullptr when there is none.
template <class Map>
typename Map::mapped_type* find_or_answer(Call& c, Map& entries, const std::string& id,
                                          const ErrorText& missing) {
  auto it = entries.find(id);
  if (it != entries.end()) return &it->second;
  c.error(missing);
  return nullptr;
}

}  // namespace

PoolEntity* Account::find_pool(Call& c, const std::string& id) {
  return find_or_answer(c, pools_, id, errors::kPoolNotFound);
}

NodeEntity* Account::find_node(Call& c, const std::string& pool, const std::string& node) {
  if (!find_pool(c, pool)) return nullptr;
  auto it = nodes_.find(node);
  if (it != nodes_.end() && it->second.pool_id == pool) return &it->second;
  c.error(errors::kNodeNotFound);
  return nullptr;
}

JobEntity* Account::find_job(Call& c, const std::string& id) {
  return find_or_answer(c, jobs_, id, errors::kJobNotFound);
}

TaskEntity* Account::find_task(Call& c, JobEntity& j, const std::string& task) {
  return find_or_answer(c, j.tasks, task, errors::kTaskNotFound);
}

void Account::set_job_state(JobEntity& j, JobState s) {
  if (j.state == s) return;
  j.prev_state = j.state;
  j.prev_state_time = j.state_time;
  j.state = s;
  j.state_time = now();
  touch(j, j.state_time);
  ++changes_;
}

void Account::set_task_state(TaskEntity& t, TaskState s) {
  t.prev_state = t.state;
  t.prev_state_time = t.state_time;
  t.state = s;
  t.state_time = now();
  touch(t, t.state_time);
  ++changes_;
}

}  // namespace trainyard::emu
