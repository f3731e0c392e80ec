#include "core/child_process.hpp"

#include <signal.h>

#include <gtest/gtest.h>

namespace trainyard::child_process_test {
namespace {

using namespace std::chrono_literals;

CapturedRun shell(const std::string& command, std::chrono::milliseconds limit = 10s) {
  CapturedRun run;
  run.argv = {"/bin/sh", "-c", command};
  run.deadline = std::chrono::steady_clock::now() + limit;
  return run;
}

TEST(ChildProcess, KeepsStdoutAndStderrApart) {
  auto r = run_captured(shell("printf out; printf err >&2; exit 3"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->out, "out");
  EXPECT_EQ(r->err, "err");
  EXPECT_EQ(r->exit_status, 3);
  EXPECT_EQ(r->signal, 0);
  EXPECT_FALSE(r->timed_out);
}

TEST(ChildProcess, MergedStreamsKeepTheirOrder) {
  auto run = shell("echo one; echo two >&2; echo three");
  run.merge_stderr = true;
  auto r = run_captured(run);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out, "one\ntwo\nthree\n");
  EXPECT_EQ(r->err, "");
}

TEST(ChildProcess, RunsWithTheEnvironmentGiven) {
  auto run = shell("printf '%s|%s' \"$ONLY\" \"${HOME-unset}\"");
  run.env = std::vector<std::string>{"ONLY=this"};
  auto r = run_captured(run);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out, "this|unset");
}

TEST(ChildProcess, KeepsAtMostTheCapAndReadsTheRest) {
  // 300,000 bytes: a child that blocked on a full pipe would never exit.
  auto run = shell("head -c 300000 /dev/zero | tr '\\0' x; exit 0");
  run.output_cap = 1000;
  auto r = run_captured(run);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out, std::string(1000, 'x'));
  EXPECT_EQ(r->exit_status, 0);
}

TEST(ChildProcess, PastTheDeadlineTheWholeGroupIsKilled) {
  // The background sleep holds the pipe open too: only a kill of the group ends the read.
  auto r = run_captured(shell("sleep 30 & sleep 30", 200ms));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->signal, SIGKILL);
  EXPECT_EQ(r->exit_status, 128 + SIGKILL);
}

TEST(ChildProcess, ACancelEndsItEarly) {
  std::atomic<bool> cancel{true};
  auto run = shell("sleep 30");
  run.cancel = &cancel;
  auto r = run_captured(run);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->cancelled);
  EXPECT_FALSE(r->timed_out);
}

TEST(ChildProcess, AProgramThatIsMissingIsAnErrorNamingIt) {
  CapturedRun run;
  run.argv = {"trainyard-no-such-program"};
  run.deadline = std::chrono::steady_clock::now() + 10s;
  auto r = run_captured(run);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "cannot run trainyard-no-such-program: No such file or directory");
}

TEST(ChildProcess, ForegroundGivesTheExitCode) {
  auto r = run_foreground({"sh", "-c", "exit 7"}, {"PATH=/usr/bin:/bin"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, 7);
  auto killed = run_foreground({"sh", "-c", "kill -TERM $$"}, {"PATH=/usr/bin:/bin"});
  ASSERT_TRUE(killed);
  EXPECT_EQ(*killed, 128 + SIGTERM);
}

TEST(ChildProcess, ForegroundNamesAProgramThatCannotStart) {
  auto r = run_foreground({"trainyard-no-such-program"}, {"PATH=/usr/bin:/bin"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "cannot run trainyard-no-such-program: No such file or directory");
}

TEST(ChildProcess, ExecArgvEndsWithANullPointer) {
  std::vector<std::string> words{"a", "bc"};
  auto argv = exec_argv(words);
  ASSERT_EQ(argv.size(), 3u);
  EXPECT_STREQ(argv[0], "a");
  EXPECT_STREQ(argv[1], "bc");
  EXPECT_EQ(argv[2], nullptr);
}

}  // namespace
}  // namespace trainyard::child_process_test
