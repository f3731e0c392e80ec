#include "app/cli.hpp"

#include <cstdio>

#include "commands.hpp"

namespace trainyard {

int run_cli(int argc, char** argv) {
  CLI::App app{"trainyard: run and watch deep-learning training, locally and on Azure Batch"};
  app.set_version_flag("--version", std::string("trainyard ") + TRAINYARD_VERSION);
  CliState st;
  TuiFlags tui;
  add_tui_flags(app, tui);
  app.add_option("--data-dir", st.data_dir,
                 "Data directory (default $TRAINYARD_DATA_DIR or $XDG_DATA_HOME/trainyard)");
  app.require_subcommand(0, 1);
  app.fallthrough();  // `trainyard run --data-dir D` works as well as `trainyard --data-dir D run`
  register_run(app, st);
  register_ls(app, st);
  register_logs(app, st);
  register_wait(app, st);
  register_stop(app, st);
  register_rm(app, st);
  register_supervise(app, st);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  if (!st.action) return run_tui(st, tui);
  return st.action();
}

}  // namespace trainyard
