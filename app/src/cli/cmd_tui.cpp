// The TUI's flags (`trainyard` with no subcommand). What they ask for is done by the TUI
// library's open_tui, which main() hands to run_cli.
#include "commands.hpp"

namespace trainyard {

void add_tui_flags(CLI::App& app, TuiRequest& f) {
  app.add_option("--dump-frame", f.dump_frame,
                 "Render the TUI headless at WxH, print the frame, exit");
  app.add_option("--keys", f.keys, "With --dump-frame: keys to feed first (tmux send-keys names)");
  app.add_option("--theme", f.theme,
                 "Theme name (dark, light, mono) or a theme file (default: config, else dark)");
  app.add_option("--open", f.open, "Pane to open: accounts, pools, nodes, jobs, tasks, gpus")
      ->check(CLI::IsMember({"accounts", "pools", "nodes", "jobs", "tasks", "gpus"}));
  app.add_flag("--ascii", f.ascii,
               "Draw in ASCII (the default when the locale is not UTF-8; also TRAINYARD_ASCII=1)");
  app.add_option("--account", f.account, "Account to open");
  app.add_option("--job", f.job, "Job to open (with --open tasks)");
}

}  // namespace trainyard
