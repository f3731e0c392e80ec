// Retrying finished local runs (`task reactivate`) and removing runs in bulk (`rm --finished`,
// `--dry-run`, `--keep-best`, `rm JOB`), with the built binary.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <set>

#include "cli_fixture.hpp"

namespace trainyard::clitest::retry_rm_test {
namespace {

// Counts its runs in a file of the working directory, so each attempt prints its own number.
const std::vector<std::string> kCountingCommand{
    "sh", "-c",
    "n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; "
    "echo \"run $n in $PWD on [$CUDA_VISIBLE_DEVICES]\"; exit 3"};

// The JOB/TASK refs of the lines that start with `prefix` (`would remove kb/a (0.0 MB)`).
std::set<std::string> refs_after(const std::string& text, const std::string& prefix) {
  std::set<std::string> out;
  for (const auto& l : lines_of(text)) {
    if (l.rfind(prefix, 0) != 0) continue;
    auto rest = l.substr(prefix.size());
    out.insert(rest.substr(0, rest.find(' ')));
  }
  return out;
}

// Reads what the terminal shows until `until` appears or it closes (30 s at most).
std::string read_until(int fd, const std::string& until, std::string shown = "") {
  for (auto end = std::chrono::steady_clock::now() + 30s; std::chrono::steady_clock::now() < end;) {
    if (!until.empty() && shown.find(until) != std::string::npos) break;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    char buf[4096];
    auto n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;  // EIO: the other side closed
    shown.append(buf, static_cast<size_t>(n));
  }
  return shown;
}

class CliRetry : public Cli {
 protected:
  // Runs trainyard on a pseudo-terminal and types `answer` once it asks; what it showed.
  std::string on_terminal(std::vector<std::string> args, const std::string& answer) {
    args.insert(args.begin(), {TRAINYARD_BIN, "--data-dir", data()});
    std::vector<char*> argv, envp;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    auto env = environment();
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    int fd = -1;
    pid_t pid = ::forkpty(&fd, nullptr, nullptr, nullptr);
    if (pid == 0) {
      ::execve(TRAINYARD_BIN, argv.data(), envp.data());
      ::_exit(127);
    }
    EXPECT_GT(pid, 0);
    auto shown = read_until(fd, "to confirm: ");
    std::string line = answer + "\n";
    EXPECT_EQ(::write(fd, line.data(), line.size()), static_cast<ssize_t>(line.size()));
    shown = read_until(fd, "", shown);
    ::close(fd);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return shown;
  }

  bool exists(const std::string& ref) { return !task_json(ref).is_null(); }

  // A finished run of `job` that printed `output` (printf format) and exited 0.
  std::string finished(const std::string& job, const std::string& id, const std::string& output) {
    auto ref = submit({"--job", job, "--id", id}, {"printf", output});
    EXPECT_EQ(ty({"wait", ref}).code, 0);
    return ref;
  }
};

// --- task reactivate ----------------------------------------------------------------------

TEST_F(CliRetry, ReactivateRunsAFinishedRunAgainAsANewAttempt) {
  set_env("TRAINYARD_NVML_LIB", FAKE_NVML_FULL);
  set_env("FAKE_NVML_GPUS", "2");
  const std::string wd = root() + "/wd";
  fs::create_directories(wd);
  auto ref =
      submit({"--job", "rj", "--id", "t1", "--gpu-ids", "1", "--workdir", wd}, kCountingCommand);
  ASSERT_EQ(ref, "rj/t1");
  ASSERT_EQ(ty({"wait", ref}).code, 3);
  auto first = ty({"logs", ref}).out;
  ASSERT_EQ(first.rfind("run 1 in " + wd + " on [", 0), 0u) << first;
  auto before = task_json(ref);

  auto r = ty({"task", "reactivate", ref});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("attempt 1"), std::string::npos) << r.out;
  ASSERT_EQ(ty({"wait", ref}).code, 3);
  // Same command, directory and GPU; the first attempt's log is kept beside the new one.
  auto second = ty({"logs", ref}).out;
  EXPECT_EQ(second, "run 2" + first.substr(5)) << second;
  EXPECT_EQ(read_file(data() + "/runs/rj/t1/stdout.attempt-0.txt"), first);
  auto after = task_json(ref);
  EXPECT_EQ(after.value("commandLine", ""), before.value("commandLine", ""));
  EXPECT_EQ(after.value("requiredSlots", 0), 1);
  EXPECT_EQ(after["executionInfo"].value("retryCount", -1), 0);

  // The attempt number was stored: a third attempt keeps the second's log under its own name.
  ASSERT_EQ(ty({"task", "reactivate", ref}).code, 0);
  ASSERT_EQ(ty({"wait", ref}).code, 3);
  EXPECT_EQ(read_file(data() + "/runs/rj/t1/stdout.attempt-0.txt"), first);
  EXPECT_EQ(read_file(data() + "/runs/rj/t1/stdout.attempt-1.txt"), second);
  EXPECT_EQ(ty({"logs", ref}).out.rfind("run 3 in " + wd, 0), 0u);
}

// A run that was not pinned picks free GPUs again rather than waiting for the ones it had.
TEST_F(CliRetry, ReactivateDoesNotPinTheGpusARunHappenedToGet) {
  set_env("TRAINYARD_NVML_LIB", FAKE_NVML_FULL);
  set_env("FAKE_NVML_GPUS", "2");
  auto ref = submit({"--job", "rj", "--id", "free", "--workdir", root()}, kCountingCommand);
  ASSERT_EQ(ty({"wait", ref}).code, 3);
  auto first = ty({"logs", ref}).out;
  auto busy = submit({"--job", "rj", "--id", "busy", "--gpu-ids", "0"}, {"sleep", "300"});
  ASSERT_TRUE(wait_running(busy));
  ASSERT_EQ(ty({"task", "reactivate", ref}).code, 0);
  ASSERT_EQ(ty({"wait", ref}, 20s).code, 3);
  auto second = ty({"logs", ref}).out;
  EXPECT_NE(second.substr(5), first.substr(5)) << "the same GPU twice: " << second;
  EXPECT_EQ(ty({"stop", "--grace", "1", busy}).code, 0);
}

TEST_F(CliRetry, ReactivateRefusesARunThatHasNotFinished) {
  auto busy = submit({"--id", "busy"}, {"sleep", "300"});
  ASSERT_TRUE(wait_running(busy));
  auto r = ty({"task", "reactivate", busy});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("running"), std::string::npos) << r.err;
  EXPECT_EQ(task_json(busy).value("state", ""), "running");
  EXPECT_EQ(ty({"stop", "--grace", "1", busy}).code, 0);
  auto missing = ty({"task", "reactivate", "default/nope"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_EQ(lines_of(missing.err).size(), 1u) << missing.err;
}

// --- rm --finished ------------------------------------------------------------------------

TEST_F(CliRetry, RmFinishedWithoutATerminalRefusesUnlessYes) {
  auto a = finished("j", "a", "hi\\n");
  auto b = finished("j", "b", "hi\\n");
  auto r = ty({"rm", "--finished"});
  EXPECT_EQ(r.code, 2);
  ASSERT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("2 runs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--yes"), std::string::npos) << r.err;
  EXPECT_TRUE(exists(a) && exists(b));
  EXPECT_TRUE(fs::exists(data() + "/runs/j/a"));

  auto yes = ty({"rm", "--finished", "--yes"});
  EXPECT_EQ(yes.code, 0) << yes.err;
  EXPECT_EQ(refs_after(yes.out, "removed "), (std::set<std::string>{a, b})) << yes.out;
  EXPECT_FALSE(exists(a) || exists(b));
  EXPECT_FALSE(fs::exists(data() + "/runs/j/a"));
}

TEST_F(CliRetry, RmFinishedOnATerminalAsksFirst) {
  auto a = finished("j", "a", "hi\\n");
  auto b = finished("j", "b", "hi\\n");
  auto no = on_terminal({"rm", "--finished"}, "no");
  EXPECT_NE(no.find("Removing 2 runs"), std::string::npos) << no;
  EXPECT_NE(no.find("not confirmed"), std::string::npos) << no;
  EXPECT_TRUE(exists(a) && exists(b));
  auto yes = on_terminal({"rm", "--finished"}, "yes");
  EXPECT_NE(yes.find("removed j/a"), std::string::npos) << yes;
  EXPECT_FALSE(exists(a) || exists(b));
}

TEST_F(CliRetry, RmDryRunListsWhatWouldGoAndRemovesNothing) {
  auto a = finished("j", "a", "hi\\n");
  auto b = finished("k", "b", "hi\\n");
  auto busy = submit({"--job", "j", "--id", "busy"}, {"sleep", "300"});
  ASSERT_TRUE(wait_running(busy));
  auto r = ty({"rm", "--finished", "--dry-run"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(refs_after(r.out, "would remove "), (std::set<std::string>{a, b})) << r.out;
  EXPECT_TRUE(exists(a) && exists(b));
  EXPECT_TRUE(fs::exists(data() + "/runs/k/b"));
  EXPECT_EQ(ty({"stop", "--grace", "1", busy}).code, 0);
}

// Final values, by hand: kb/a 0.5, kb/b 0.7 (its best, 0.2, is not its final), kb/c 0.4 →
// kb/c (loss: lower is better); acc/x 0.6, acc/y 0.7 → acc/y (acc: higher is better); solo/s
// is its job's only run (its one loss has a step: printed once without one, it would be a
// parameter of the run). Every job keeps its best one.
TEST_F(CliRetry, RmKeepBestKeepsTheBestFinalValueOfEachJob) {
  auto a = finished("kb", "a", "loss=0.9\\nloss=0.5\\n");
  auto b = finished("kb", "b", "loss=0.2\\nloss=0.7\\n");
  auto c = finished("kb", "c", "loss=0.6\\nloss=0.4\\n");
  auto x = finished("acc", "x", "acc=0.8\\nacc=0.6\\n");
  auto y = finished("acc", "y", "acc=0.5\\nacc=0.7\\n");
  auto s = finished("solo", "s", "step=1 loss=1.5\\n");
  auto dry = ty({"rm", "--finished", "--keep-best", "1", "--dry-run"});
  ASSERT_EQ(dry.code, 0) << dry.err;
  EXPECT_EQ(refs_after(dry.out, "would remove "), (std::set<std::string>{a, b, x})) << dry.out;
  EXPECT_EQ(refs_after(dry.out, "keeping "), (std::set<std::string>{c, y, s})) << dry.out;
  EXPECT_TRUE(exists(a) && exists(b) && exists(x));

  auto r = ty({"rm", "--finished", "--keep-best", "1", "--yes"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(refs_after(r.out, "removed "), (std::set<std::string>{a, b, x})) << r.out;
  for (const auto& kept : {c, y, s}) EXPECT_TRUE(exists(kept)) << kept;
  for (const auto& gone : {a, b, x}) EXPECT_FALSE(exists(gone)) << gone;
}

TEST_F(CliRetry, RmKeepBestNeedsASelection) {
  auto r = ty({"rm", "--keep-best", "1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("--finished or --job"), std::string::npos) << r.err;
}

// --- rm JOB -------------------------------------------------------------------------------

TEST_F(CliRetry, RmJobRemovesAJobOnceItHasNoRuns) {
  auto t = finished("emptied", "t", "hi\\n");
  auto refused = ty({"rm", "emptied"});
  EXPECT_EQ(refused.code, 1);
  ASSERT_EQ(lines_of(refused.err).size(), 1u) << refused.err;
  EXPECT_NE(refused.err.find("1 run"), std::string::npos) << refused.err;
  EXPECT_TRUE(exists(t));

  ASSERT_EQ(ty({"rm", t}).code, 0);
  auto r = ty({"rm", "emptied"});
  EXPECT_EQ(r.code, 0) << r.err;
  auto jobs = ls_json("jobs");
  EXPECT_TRUE(std::none_of(jobs.begin(), jobs.end(), [](const json& j) {
    return j.value("id", "") == "emptied";
  })) << jobs.dump();
  EXPECT_FALSE(fs::exists(data() + "/runs/emptied"));
}

}  // namespace
}  // namespace trainyard::clitest::retry_rm_test
