// `trainyard` with no subcommand: the TUI opened (or one frame rendered headless with
// --dump-frame), its terminal restored and the stop signal passed on when it ends.
#include "tui.hpp"

#include <langinfo.h>
#include <unistd.h>

#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "local/process.hpp"
#include "ncurses_terminal.hpp"
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

// The theme the TUI would use, checked before anything is written: a bad theme or config
// leaves a new user's disk as it was.
Result<Theme> chosen_theme(const TuiRequest& f) {
  std::string name = f.theme;
  if (name.empty()) {
    auto settings = load_settings(default_config_path());
    if (!settings) return settings.error();
    name = settings->theme;
  }
  return load_theme(name);
}

// ASCII when asked (`--ascii`, TRAINYARD_ASCII=1, `"ascii": true`) or when the terminal's
// character set is not UTF-8: a C locale's terminal shows UTF-8 bytes as `~T~B`. A frame dumped
// to a file is ASCII only when asked, whatever the locale.
bool draws_ascii(const TuiRequest& f, const Settings& settings) {
  const char* env = std::getenv("TRAINYARD_ASCII");
  if (env && *env) return std::strcmp(env, "0") != 0;
  if (f.ascii || settings.ascii) return true;
  if (!f.dump_frame.empty()) return false;
  std::setlocale(LC_ALL, "");
  return std::strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
}

}  // namespace

int open_tui(const TuiRequest& f) {
  auto theme = chosen_theme(f);
  if (!theme) return report(theme.error());
  auto ctx = open_context(f.data_dir);
  if (!ctx) return report(ctx.error());
  // An account only the cache still knows stays browsable offline.
  if (auto a = check_account(f.account, f.data_dir);
      !a && !cached_account((*ctx)->store.get(), f.account)) {
    return report(a.error());
  }
  TuiOptions o;
  o.theme = f.theme.empty() ? (*ctx)->settings.theme : f.theme;
  o.view = f.open;
  o.account = f.account;
  o.job = f.job;
  o.demo_command = demo_command();
  o.readonly = f.readonly;
  o.ascii = draws_ascii(f, (*ctx)->settings);
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
