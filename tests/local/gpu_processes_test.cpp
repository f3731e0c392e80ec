#include "local/gpu_processes.hpp"

#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

namespace trainyard::gpu_processes_test {
namespace {

constexpr uint32_t kMe = 1000, kOther = 1001;

GpuSample gpu(int index, std::vector<GpuProcess> procs) {
  GpuSample s;
  s.index = index;
  s.uuid = "GPU-" + std::to_string(index);
  s.processes = std::move(procs);
  s.processes_known = true;
  return s;
}

// pid -> identity; pids missing here are "gone" (or in another pid namespace).
PidLookup fake_proc(std::map<int64_t, PidIdentity> table) {
  return [table = std::move(table)](int64_t pid) -> std::optional<PidIdentity> {
    auto it = table.find(pid);
    return it == table.end() ? std::nullopt : std::optional(it->second);
  };
}

TEST(GpuProcesses, ReadsOwnIdentityFromProc) {
  auto id = read_pid_identity(getpid());
  ASSERT_TRUE(id);
  EXPECT_EQ(id->pgrp, getpgrp());
  EXPECT_EQ(id->session, getsid(0));
  EXPECT_EQ(id->uid, getuid());
  EXPECT_FALSE(read_pid_identity(0));
  EXPECT_FALSE(read_pid_identity(-5));
}

TEST(GpuProcesses, ParsesCommandNamesWithParentheses) {
  auto root = std::filesystem::temp_directory_path() / ("ty-gpu-proc-" + std::to_string(getpid()));
  std::filesystem::create_directories(root / "4242");
  std::ofstream(root / "4242" / "stat") << "4242 (evil) S 1 2 (x) R 17 77 88 0 -1 4194560 0\n";
  auto id = read_pid_identity(4242, root);
  EXPECT_FALSE(read_pid_identity(4243, root));
  std::filesystem::remove_all(root);
  ASSERT_TRUE(id);
  EXPECT_EQ(id->pgrp, 77);
  EXPECT_EQ(id->session, 88);
  EXPECT_EQ(id->uid, getuid());
}

TEST(GpuProcesses, LabelsRunsAndTheirChildren) {
  std::vector<GpuSample> samples = {gpu(0, {{100, 10}, {101, 20}}),
                                    gpu(1, {{102, 30}, {300, 40}, {301, 50}})};
  std::map<int64_t, GpuRunRef> runs = {{100, {"sweep", "lr-1"}}, {200, {"sweep", "lr-2"}}};
  auto lookup = fake_proc({{100, {100, 100, kMe}},
                           {101, {100, 100, kMe}},       // DataLoader worker: same group
                           {102, {150, 200, kMe}},       // moved to its own group, same session
                           {300, {300, 300, kOther}}});  // 301: gone
  auto labeled = label_gpu_processes(samples, runs, lookup);
  ASSERT_EQ(labeled.size(), 5u);
  EXPECT_EQ(labeled[0].run, (GpuRunRef{"sweep", "lr-1"}));
  EXPECT_EQ(labeled[1].run, (GpuRunRef{"sweep", "lr-1"}));
  EXPECT_EQ(labeled[1].gpu_uuid, "GPU-0");
  EXPECT_EQ(labeled[2].run, (GpuRunRef{"sweep", "lr-2"}));
  EXPECT_EQ(labeled[2].gpu_index, 1);
  EXPECT_TRUE(labeled[3].foreign());
  EXPECT_EQ(labeled[3].uid, kOther);
  EXPECT_EQ(labeled[3].process.used_memory, 40u);
  EXPECT_TRUE(labeled[4].foreign());
  EXPECT_EQ(labeled[4].uid, std::nullopt);
}

TEST(GpuProcesses, RunLeaderMatchesEvenWhenProcIsUnreadable) {
  auto labeled = label_gpu_processes({gpu(0, {{100, 1}})}, {{100, {"j", "t"}}}, fake_proc({}));
  ASSERT_EQ(labeled.size(), 1u);
  EXPECT_FALSE(labeled[0].foreign());
}

TEST(GpuProcesses, OwnProcessMatchesThroughRealProc) {
  auto labeled = label_gpu_processes({gpu(0, {{getpid(), 1}})}, {{getpgrp(), {"j", "t"}}});
  ASSERT_EQ(labeled.size(), 1u);
  EXPECT_EQ(labeled[0].run, (GpuRunRef{"j", "t"}));
  EXPECT_EQ(labeled[0].uid, getuid());
}

TEST(GpuProcesses, BusyByForeign) {
  std::vector<GpuSample> samples = {
      gpu(0, {{100, 1 << 20}, {101, 1 << 20}}),  // only ours
      gpu(1, {{300, 1 << 30}}),                  // another user's training
      gpu(2, {{400, 1 << 20}}),                  // my own notebook, not a trainyard run
      gpu(3, {{500, 0}}),                        // foreign but holds no memory
      gpu(4, {{600, std::nullopt}}),             // memory withheld: assume it holds some
      gpu(5, {{700, 1}}),                        // owner unreadable
      gpu(6, {}),
  };
  auto lookup = fake_proc({{100, {100, 100, kMe}},
                           {101, {100, 100, kMe}},
                           {300, {300, 300, kOther}},
                           {400, {400, 400, kMe}},
                           {500, {500, 500, kOther}},
                           {600, {600, 600, kOther}}});
  auto busy = busy_by_foreign(samples, {100}, kMe, lookup);
  ASSERT_EQ(busy.size(), 4u);
  EXPECT_EQ(busy[0].gpu_index, 1);
  EXPECT_EQ(busy[0].pid, 300);
  EXPECT_TRUE(busy[0].other_user);
  EXPECT_EQ(busy[0].uid, kOther);
  EXPECT_EQ(busy[1].gpu_index, 2);
  EXPECT_FALSE(busy[1].other_user);
  EXPECT_EQ(busy[2].gpu_index, 4);
  EXPECT_EQ(busy[2].used_memory, std::nullopt);
  EXPECT_EQ(busy[3].gpu_index, 5);
  EXPECT_TRUE(busy[3].other_user);
  EXPECT_EQ(busy_gpu_uuids(busy), (std::set<std::string>{"GPU-1", "GPU-2", "GPU-4", "GPU-5"}));
}

}  // namespace
}  // namespace trainyard::gpu_processes_test
