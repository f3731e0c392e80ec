// The CLI's documented contracts, checked against the built binary in temporary data dirs.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace trainyard::clitest::cli_test {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
namespace fs = std::filesystem;

const std::regex kTaskRef("^[A-Za-z0-9_-]+/[A-Za-z0-9_-]+$");
const std::regex kBatchTime(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$)");

// --- run ------------------------------------------------------------------------------------

TEST_F(Cli, RunPrintsJobSlashTaskLast) {
  auto r = ty({"run", "--", "echo", "hi"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(std::regex_match(lines.back(), kTaskRef)) << lines.back();
  EXPECT_EQ(lines.back().rfind("default/", 0), 0u) << lines.back();
  EXPECT_EQ(ty({"wait", lines.back()}).code, 0);
  EXPECT_EQ(ty({"logs", lines.back()}).out, "hi\n");
}

TEST_F(Cli, RunHonoursIdNameAndJob) {
  auto ref = submit({"--job", "exp1", "--id", "t42", "--name", "my run"}, {"true"});
  EXPECT_EQ(ref, "exp1/t42");
  EXPECT_EQ(ty({"wait", ref}).code, 0);
  auto t = task_json(ref);
  EXPECT_EQ(t.value("displayName", ""), "my run");
  EXPECT_EQ(t.value("commandLine", ""), "true");
}

TEST_F(Cli, RunQuotesWordsIntoTheCommandLine) {
  auto ref = submit({"--id", "quoted"}, {"printf", "%s|", "a b", "it's", "$HOME"});
  EXPECT_EQ(ty({"wait", ref}).code, 0);
  auto t = task_json(ref);
  EXPECT_EQ(t.value("commandLine", ""), R"(printf '%s|' 'a b' 'it'\''s' '$HOME')");
  EXPECT_EQ(ty({"logs", "--raw", ref}).out, "a b|it's|$HOME|");
}

// A command line is bytes; JSON needs UTF-8. `ls --json` used to abort on the first invalid byte.
TEST_F(Cli, LsJsonWritesInvalidUtf8AsReplacementCharacters) {
  auto ref = submit({"--id", "bytes"}, {"printf", "%s", "caf\xe9\xff"});
  EXPECT_EQ(ty({"wait", ref}).code, 0);
  auto r = ty({"ls", "tasks", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto t = task_json(ref);
  EXPECT_EQ(t.value("commandLine", ""), "printf %s 'caf\xef\xbf\xbd\xef\xbf\xbd'");
  EXPECT_EQ(ty({"logs", "--raw", ref}).out, "caf\xe9\xff");
}

// A TRAINYARD_CPU_SLOTS inherited from a tmux server's environment is named where the count is
// shown; without it the count comes from config.json or the default.
TEST_F(Cli, LsNodesSaysWhereTheSlotCountCameFrom) {
  set_env("TRAINYARD_CPU_SLOTS", "4");
  auto r = ty({"ls", "nodes"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("slots here: 4 CPU slot(s), from TRAINYARD_CPU_SLOTS=4 in the environment"),
            std::string::npos)
      << r.err;
  unset_env("TRAINYARD_CPU_SLOTS");
  auto d = ty({"ls", "nodes"});
  EXPECT_NE(d.err.find("slots here: 1 CPU slot(s), from the default"), std::string::npos) << d.err;
}

// Known bug (reported): CLI11 treats a word of the form `[...]` as a list even after `--`,
// so `[%s]` arrives as `%s`, `[1,2]` as two words and `[]` vanishes.
TEST_F(Cli, RunKeepsBracketedWords) {
  auto ref = submit({"--id", "brackets"}, {"printf", "[%s]", "[1,2]", "[]"});
  EXPECT_EQ(ty({"wait", ref}).code, 0);
  EXPECT_EQ(task_json(ref).value("commandLine", ""), "printf '[%s]' '[1,2]' '[]'");
  EXPECT_EQ(ty({"logs", "--raw", ref}).out, "[[1,2]][[]]");
}

TEST_F(Cli, RunRefusesTooManyGpus) {
  auto r = ty({"run", "--gpus", "99", "--", "true"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(Cli, RunRefusesBadMaxWall) {
  auto r = ty({"run", "--max-wall", "soon", "--", "true"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
}

TEST_F(Cli, UnknownAccountIsAUsageError) {
  auto r = ty({"run", "--account", "nope", "--", "true"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("nope"), std::string::npos) << r.err;
  EXPECT_EQ(ty({"ls", "jobs", "--account", "nope"}).code, 2);
}

// --- ls --json ------------------------------------------------------------------------------

void expect_batch_times(const json& j) {
  for (const auto& [key, value] : j.items()) {
    if (value.is_object()) expect_batch_times(value);
    if (key.size() > 4 && key.ends_with("Time") && value.is_string() && key != "maxWallClockTime" &&
        key != "retentionTime") {
      EXPECT_TRUE(std::regex_match(value.get<std::string>(), kBatchTime)) << key << " = " << value;
    }
  }
}

void expect_lowercase(const json& j, const char* key) {
  ASSERT_TRUE(j.contains(key)) << key << " missing in " << j.dump();
  auto v = j[key].get<std::string>();
  EXPECT_FALSE(v.empty());
  for (char c : v) EXPECT_FALSE(std::isupper(static_cast<unsigned char>(c))) << key << "=" << v;
}

TEST_F(Cli, LsJsonUsesBatchWireNames) {
  auto ok = submit({"--id", "ok"}, {"sh", "-c", "exit 3"});
  ASSERT_EQ(ty({"wait", ok}).code, 3);
  auto accounts = ls_json("accounts");
  ASSERT_TRUE(accounts.is_array());
  ASSERT_FALSE(accounts.empty());
  EXPECT_EQ(accounts[0].value("name", ""), "local");
  auto pools = ls_json("pools");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].value("id", ""), "local");
  expect_lowercase(pools[0], "state");
  expect_lowercase(pools[0], "allocationState");
  expect_batch_times(pools[0]);
  auto nodes = ls_json("nodes");
  ASSERT_EQ(nodes.size(), 1u);
  expect_lowercase(nodes[0], "state");
  expect_lowercase(nodes[0], "schedulingState");
  auto jobs = ls_json("jobs");
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].value("id", ""), "default");
  expect_lowercase(jobs[0], "state");
  EXPECT_EQ(jobs[0]["poolInfo"].value("poolId", ""), "local");
  expect_batch_times(jobs[0]);
  auto tasks = ls_json("tasks");
  ASSERT_EQ(tasks.size(), 1u);
  const auto& t = tasks[0];
  EXPECT_EQ(t.value("id", ""), "ok");
  EXPECT_EQ(t.value("state", ""), "completed");
  EXPECT_EQ(t.value("commandLine", ""), "sh -c 'exit 3'");
  EXPECT_EQ(t["executionInfo"].value("exitCode", -1), 3);
  EXPECT_EQ(t["executionInfo"].value("result", ""), "failure");
  ASSERT_TRUE(t.contains("creationTime"));
  ASSERT_TRUE(t["executionInfo"].contains("startTime"));
  expect_batch_times(t);
}

// --- wait -----------------------------------------------------------------------------------

TEST_F(Cli, WaitExitsWithTheTaskCode) {
  auto ref = submit({}, {"sh", "-c", "exit 7"});
  EXPECT_EQ(ty({"wait", ref}).code, 7);
}

TEST_F(Cli, WaitExitsWith128PlusSignal) {
  auto ref = submit({}, {"sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(ty({"wait", ref}).code, 143);
}

TEST_F(Cli, WaitWithoutExitCodeSaysWhy) {
  auto blocker = submit({"--id", "blocker"}, {"sh", "-c", "sleep 300", root()});
  ASSERT_TRUE(wait_running(blocker));
  auto queued = submit({"--id", "queued", "--after", blocker}, {"true"});
  ASSERT_EQ(task_json(queued).value("state", ""), "active");
  auto stop = ty({"stop", queued});
  EXPECT_EQ(stop.code, 0) << stop.err;
  auto r = ty({"wait", queued});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find(queued), std::string::npos) << r.err;
  EXPECT_EQ(ty({"stop", "--grace", "1", blocker}).code, 0);
}

// --- stop -----------------------------------------------------------------------------------

TEST_F(Cli, StopEndsTheWholeProcessGroup) {
  std::string pid_file = root() + "/child.pid";
  auto ref = submit({"--id", "group"},
                    {"sh", "-c", "sleep 300 & echo $! > " + pid_file + "; sleep 300", root()});
  ASSERT_TRUE(wait_for_file(pid_file)) << "the task never started";
  auto child = static_cast<pid_t>(std::stol(read_file(pid_file)));
  ASSERT_TRUE(process_alive(child));
  auto start = std::chrono::steady_clock::now();
  auto r = ty({"stop", "--grace", "5", ref}, 30s);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 20s);
  for (int i = 0; i < 50 && process_alive(child); ++i) std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(process_alive(child)) << "background child " << child << " survived the stop";
  EXPECT_EQ(task_json(ref).value("state", ""), "completed");
}

// A run that had ended was reported `stopped` with exit 0; as Batch's 409 for a completed task,
// nothing is stopped: it says so, with the run's exit code, and exits 1.
TEST_F(Cli, StopOfAFinishedRunSaysItHadFinished) {
  auto ref = submit({"--id", "done"}, {"sh", "-c", "exit 3"});
  ty({"wait", ref});
  ASSERT_EQ(task_json(ref).value("state", ""), "completed");
  auto r = ty({"stop", ref});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "trainyard: task " + ref + " had already finished (exit code 3): nothing to stop\n");
}

// One definition in `ls jobs` and the TUI's Jobs pane: DONE counts the completed tasks that
// succeeded, FAILED those that failed; 2 succeeded and 1 failed read DONE 2, FAILED 1.
TEST_F(Cli, LsJobsSplitsCompletedTasksIntoDoneAndFailed) {
  auto a = submit({"--job", "mixed", "--id", "a"}, {"true"});
  auto b = submit({"--job", "mixed", "--id", "b"}, {"true"});
  auto c = submit({"--job", "mixed", "--id", "c"}, {"false"});
  for (const auto& ref : {a, b, c}) ty({"wait", ref});
  auto r = ty({"ls", "jobs"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(std::regex_search(
      lines[0], std::regex("^JOB +STATE +POOL +ACTIVE +RUNNING +DONE +FAILED +CREATED$")))
      << lines[0];
  bool seen = false;
  for (const auto& l : lines)
    if (l.rfind("mixed ", 0) == 0) {
      seen = true;
      EXPECT_TRUE(std::regex_search(l, std::regex("^mixed +active +local +0 +0 +2 +1 "))) << l;
    }
  EXPECT_TRUE(seen) << r.out;
}

// --- logs -----------------------------------------------------------------------------------

TEST_F(Cli, LogsSanitizesUnlessRaw) {
  auto ref = submit({}, {"printf", R"(\033]0;title\007\033[2Jhello\n)"});
  ASSERT_EQ(ty({"wait", ref}).code, 0);
  auto clean = ty({"logs", ref});
  EXPECT_EQ(clean.code, 0);
  EXPECT_EQ(clean.out.find('\x1b'), std::string::npos) << clean.out;
  EXPECT_EQ(clean.out.find('\x07'), std::string::npos) << clean.out;
  EXPECT_NE(clean.out.find("hello"), std::string::npos) << clean.out;
  auto raw = ty({"logs", "--raw", ref});
  EXPECT_EQ(raw.out, "\x1b]0;title\x07\x1b[2Jhello\n");
}

TEST_F(Cli, LogsStderr) {
  auto ref = submit({}, {"sh", "-c", "echo out; echo err >&2"});
  ASSERT_EQ(ty({"wait", ref}).code, 0);
  EXPECT_EQ(ty({"logs", ref}).out, "out\n");
  EXPECT_EQ(ty({"logs", "--stderr", ref}).out, "err\n");
}

// A retry renames stdout.txt to stdout.attempt-N.txt and starts a new one: `logs -f` prints
// the rest of the attempt it was on, then follows the next, and ends when the task does.
TEST_F(Cli, LogsFollowKeepsFollowingAcrossARetry) {
  const std::string script =
      "if [ \"$AZ_BATCH_TASK_RETRY_COUNT\" = 0 ]; then echo first; sleep 2; "
      "printf 'first-end'; exit 3; fi; sleep 0.3; echo second; sleep 1; echo second-end";
  auto ref = submit({"--id", "retried", "--retries", "1"}, {"sh", "-c", script});
  auto r = ty({"logs", "-f", ref});
  EXPECT_EQ(r.code, 0) << r.err;
  // The first attempt's unterminated last line ends where its file does.
  EXPECT_EQ(r.out, "first\nfirst-end\nsecond\nsecond-end\n");
  auto t = task_json(ref);
  EXPECT_EQ(t.value("state", ""), "completed");
  EXPECT_EQ(t["executionInfo"].value("retryCount", -1), 1);
}

// --- rm -------------------------------------------------------------------------------------

TEST_F(Cli, RmRemovesFinishedRunsAndRefusesRunningOnes) {
  auto done = submit({"--id", "done"}, {"echo", "bye"});
  ASSERT_EQ(ty({"wait", done}).code, 0);
  std::string done_dir = data() + "/runs/default/done";
  ASSERT_TRUE(fs::exists(done_dir));
  auto r = ty({"rm", done});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(done_dir));
  EXPECT_TRUE(task_json(done).is_null());

  auto busy = submit({"--id", "busy"}, {"sh", "-c", "sleep 300", root()});
  ASSERT_TRUE(wait_running(busy));
  auto refused = ty({"rm", busy});
  EXPECT_NE(refused.code, 0);
  EXPECT_EQ(lines_of(refused.err).size(), 1u) << refused.err;
  EXPECT_TRUE(fs::exists(data() + "/runs/default/busy"));
  EXPECT_EQ(task_json(busy).value("state", ""), "running");
  EXPECT_EQ(ty({"stop", "--grace", "1", busy}).code, 0);
}

// --- usage ----------------------------------------------------------------------------------

TEST_F(Cli, VersionAndHelpExitZero) {
  auto v = bare({"--version"});
  EXPECT_EQ(v.code, 0);
  EXPECT_NE(v.out.find("trainyard"), std::string::npos) << v.out;
  auto h = bare({"--help"});
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("run"), std::string::npos);
  EXPECT_EQ(bare({"run", "--help"}).code, 0);
}

TEST_F(Cli, UnknownSubcommandOrFlagIsUsageError) {
  EXPECT_EQ(ty({"frobnicate"}).code, 2);
  EXPECT_EQ(ty({"--frobnicate"}).code, 2);
  EXPECT_EQ(ty({"ls", "--frobnicate", "jobs"}).code, 2);
  EXPECT_EQ(ty({"ls", "widgets"}).code, 2);
  EXPECT_EQ(ty({"wait", "no-slash"}).code, 2);
}

TEST_F(Cli, CorruptedDatabaseIsReportedAndLeftAlone) {
  fs::create_directories(data());
  std::string db = data() + "/cache.db";
  std::string garbage(8192, '\0');
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>((i * 131 + 7) % 251);
  std::ofstream(db, std::ios::binary) << garbage;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"ls", "jobs"}, {"run", "--", "true"}, {"--dump-frame", "80x24"}}) {
    auto r = ty(args);
    EXPECT_TRUE(r.code == 1 || r.code == 2) << args[0] << ": " << r.code;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(db), std::string::npos) << r.err;
    EXPECT_EQ(read_file(db), garbage) << args[0] << " changed the file";
  }
}

TEST_F(Cli, DataDirFlagAndEnvironmentAreHonoured) {
  std::string from_env = root() + "/env-data";
  auto r = bare({"run", "--id", "via-env", "--", "true"}, {"TRAINYARD_DATA_DIR=" + from_env});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(from_env + "/cache.db"));
  EXPECT_EQ(bare({"wait", "default/via-env"}, {"TRAINYARD_DATA_DIR=" + from_env}).code, 0);
  auto flag = bare({"--data-dir", data(), "run", "--id", "via-flag", "--", "true"},
                   {"TRAINYARD_DATA_DIR=" + from_env});
  ASSERT_EQ(flag.code, 0) << flag.err;
  EXPECT_EQ(ty({"wait", "default/via-flag"}).code, 0);
  EXPECT_FALSE(task_json("default/via-flag").is_null());
  EXPECT_TRUE(task_json("default/via-env").is_null()) << "env data dir leaked into --data-dir";
  auto env_ls = bare({"ls", "tasks", "--json"}, {"TRAINYARD_DATA_DIR=" + from_env});
  EXPECT_NE(env_ls.out.find("via-env"), std::string::npos);
  EXPECT_EQ(env_ls.out.find("via-flag"), std::string::npos);
}

// --- headless frames ------------------------------------------------------------------------

TEST_F(Cli, DumpFramePrintsTheFrame) {
  auto r = ty({"--dump-frame", "80x24"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto lines = lines_of(r.out);
  EXPECT_EQ(lines.size(), 24u) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 24);
  auto keyed = ty({"--dump-frame", "60x10", "--keys", "? Escape :"});
  EXPECT_EQ(keyed.code, 0) << keyed.err;
  EXPECT_EQ(lines_of(keyed.out).size(), 10u);
}

TEST_F(Cli, DumpFrameRejectsBadSizeAndKeys) {
  auto zero = ty({"--dump-frame", "0x0"});
  EXPECT_EQ(zero.code, 2);
  EXPECT_EQ(lines_of(zero.err).size(), 1u) << zero.err;
  auto bogus = ty({"--dump-frame", "80x24", "--keys", "Bogus"});
  EXPECT_EQ(bogus.code, 2);
  EXPECT_NE(bogus.err.find("Bogus"), std::string::npos) << bogus.err;
  EXPECT_TRUE(bogus.out.empty());
}

}  // namespace
}  // namespace trainyard::clitest::cli_test
