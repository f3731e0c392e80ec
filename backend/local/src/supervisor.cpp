#include "local/supervisor.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include <fmt/format.h>

#include "local/process.hpp"
#include "local/task_environment.hpp"
#include "supervision.hpp"

namespace trainyard {
namespace {

void block_control_signals() {
  signal(SIGHUP, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGTERM, SIGINT, SIGCHLD}) sigaddset(&set, sig);
  sigprocmask(SIG_BLOCK, &set, nullptr);
}

}  // namespace

int run_supervisor(Store& store, const EngineConfig& config, const SupervisorArgs& args,
                   const SupervisorHooks& hooks) {
  block_control_signals();
  // Orphaned grandchildren (DataLoader workers, daemons) come back to us to be reaped.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  SystemClock clock;
  Supervision s(store, config, clock, args, hooks);
  int rc = s.run();
  LocalEngine engine(store, config, clock);
  if (auto r = engine.schedule(); !r)
    s.log(fmt::format("scheduling after the task: {}", r.error().message));
  engine.reap_children();
  reap_any_children();
  return rc;
}

}  // namespace trainyard
