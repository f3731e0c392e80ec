// The default command: open the TUI (or render one frame headless with --dump-frame).
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "app/ncurses_terminal.hpp"
#include "app/tui.hpp"
#include "commands.hpp"
#include "local/process.hpp"
#include "output.hpp"
#include "stop_signals.hpp"

namespace trainyard {
namespace {

// The demo command: examples/train_demo.py next to the source tree or the installed binary.
std::string demo_command() {
  namespace fs = std::filesystem;
  auto exe = fs::path(self_executable());
  for (auto dir = exe.parent_path(); !dir.empty() && dir != dir.root_path();
       dir = dir.parent_path()) {
    auto candidate = dir / "examples" / "train_demo.py";
    std::error_code ec;
    if (fs::exists(candidate, ec)) return "python3 " + candidate.string();
  }
  return "python3 train_demo.py";
}

}  // namespace

void add_tui_flags(CLI::App& app, TuiFlags& f) {
  app.add_option("--dump-frame", f.dump_frame,
                 "Render the TUI headless at WxH, print the frame, exit");
  app.add_option("--keys", f.keys, "With --dump-frame: keys to feed first (tmux send-keys names)");
  app.add_option("--theme", f.theme,
                 "Theme name (dark, light, mono) or a theme file (default: config, else dark)");
  app.add_option("--open", f.open, "Pane to open: accounts, pools, nodes, jobs, tasks, gpus")
      ->check(CLI::IsMember({"accounts", "pools", "nodes", "jobs", "tasks", "gpus"}));
  app.add_option("--account", f.account, "Account to open");
  app.add_option("--job", f.job, "Job to open (with --open tasks)");
}

// The theme the TUI would use, checked before anything is written: a bad theme or config
// leaves a new user's disk as it was.
Result<Theme> chosen_theme(const TuiFlags& f) {
  std::string name = f.theme;
  if (name.empty()) {
    auto settings = load_settings(default_config_path());
    if (!settings) return settings.error();
    name = settings->theme;
  }
  return load_theme(name);
}

int run_tui(const CliState& st, const TuiFlags& f) {
  auto theme = chosen_theme(f);
  if (!theme) return report(theme.error());
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  // An account only the cache still knows stays browsable offline.
  if (auto a = check_account(f.account, st.data_dir);
      !a && !cached_account((*ctx)->store.get(), f.account)) {
    return report(a.error());
  }
  TuiOptions o;
  o.theme = f.theme.empty() ? (*ctx)->settings.theme : f.theme;
  o.view = f.open;
  o.account = f.account;
  o.job = f.job;
  o.demo_command = demo_command();
  o.readonly = st.readonly;
  if (!f.dump_frame.empty()) return dump_frame(**ctx, f.dump_frame, f.keys, o);
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
    out::eprint("trainyard: the TUI needs a terminal (use a subcommand, or --dump-frame WxH)");
    return kExitUsage;
  }
  // Before curses starts, so it leaves the stop signals to us.
  StopSignals stop;
  o.stop_fd = stop.fd();
  int rc = 0;
  std::string note;
  {
    auto term = make_ncurses_terminal(*theme, (*ctx)->settings.mouse);
    Tui tui(**ctx, *term, o);
    rc = tui.run();
    note = tui.parting_note();
  }  // the pollers stopped, then the terminal restored
  if (!note.empty()) out::eprint("trainyard: {}", note);
  stop.reraise();
  return rc;
}

}  // namespace trainyard
