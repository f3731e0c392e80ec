// A recorded process group is ended only while it is provably still the run's.
#include "engine_fixture.hpp"

namespace trainyard::test::engine_groups_test {
namespace {

// The run's supervisor and task are killed; then its recorded group id names an unrelated group
// (as after a reboot or a pid wrap) whose leader has exited and whose member lives on. Cleaning
// up the lost run must not kill that stranger.
TEST_F(EngineTest, ALostRunsReusedGroupIdIsLeftAlone) {
  submit(request("lost", "sleep 30"));
  wait_state("lost", TaskState::Running);
  auto run = run_of("lost");
  ASSERT_TRUE(run);
  kill_supervisor_and_task(*run);

  const std::string pid_file = dir_ + "/stranger.pid";
  ChildSpec spec{
      "sleep 30 & echo $! > " + pid_file, {"PATH=/usr/bin:/bin"}, dir_, "/dev/null", "/dev/null"};
  auto stranger = spawn_task_process(spec);
  ASSERT_TRUE(stranger.ok()) << stranger.error().message;
  int status = 0;
  ASSERT_EQ(waitpid(stranger->pid, &status, 0), stranger->pid);  // the leader is gone
  const auto member = static_cast<pid_t>(std::stol(read(pid_file)));
  ASSERT_TRUE(group_alive(stranger->pgid));

  LocalRun reused = *run;
  reused.pgid = stranger->pgid;
  reused.pid = stranger->pid;
  reused.start_ticks = stranger->start_ticks;
  ASSERT_TRUE(store_->upsert_local_run(reused).ok());
  ASSERT_TRUE(engine_->schedule().ok());
  EXPECT_EQ(wait_done("lost").execution_info.failure_info->code, "SupervisorLost");
  EXPECT_TRUE(process_start_ticks(member).has_value()) << "an unrelated process was killed";
  kill(member, SIGKILL);
  reap_while([&] { return process_start_ticks(member).has_value(); });
}

}  // namespace
}  // namespace trainyard::test::engine_groups_test
