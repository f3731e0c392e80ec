#include "app/cli.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>

#include "app/context.hpp"
#include "commands.hpp"
#include "output.hpp"

namespace trainyard {

int run_cli(int argc, char** argv, TuiOpener open_tui) {
  CLI::App app{"trainyard: run and watch deep-learning training, locally and on Azure Batch"};
  app.set_version_flag("--version", std::string("trainyard ") + TRAINYARD_VERSION);
  CliState st;
  TuiRequest tui;
  add_tui_flags(app, tui);
  app.add_option("--data-dir", st.data_dir,
                 "Data directory (default $TRAINYARD_DATA_DIR or $XDG_DATA_HOME/trainyard)");
  app.add_flag("--readonly", st.readonly, "Refuse every change to a Batch account");
  app.require_subcommand(0, 1);
  app.fallthrough();  // `trainyard run --data-dir D` works as well as `trainyard --data-dir D run`
  register_run(app, st);
  register_ls(app, st);
  register_logs(app, st);
  register_wait(app, st);
  register_stop(app, st);
  register_rm(app, st);
  register_submit(app, st);
  register_supervise(app, st);
  register_emulator(app, st);
  register_accounts(app, st);
  register_sync(app, st);
  register_pool(app, st);
  register_node(app, st);
  register_job(app, st);
  register_task(app, st);
  register_sweep(app, st);
  register_metrics(app, st);
  register_storage(app, st);
  register_outputs(app, st);
  register_prices(app, st);
  register_cost(app, st);
  try {
    // Words after `--` are the user's command, verbatim: CLI11 would read `[a,b]` as a list.
    std::vector<std::string> args(argv + 1, argv + argc);
    auto dashes = std::find(args.begin(), args.end(), "--");
    if (dashes != args.end()) {
      st.command_words.assign(dashes + 1, args.end());
      args.erase(dashes, args.end());
    }
    std::reverse(args.begin(), args.end());  // CLI11 takes the vector form last-first
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, like every other error of trainyard.
    out::eprint("trainyard: {} (see trainyard --help)", e.what());
    return kExitUsage;
  }
  // An exception a command lets escape (a library that throws, a bug) is one line and exit 1,
  // never an abort; unwinding to here restores the terminal of a TUI.
  try {
    if (!st.action) {
      tui.data_dir = st.data_dir;
      tui.readonly = st.readonly;
      return open_tui(tui);
    }
    return st.action();
  } catch (const std::exception& e) {
    return report(make_error(ErrorKind::Internal, e.what()));
  } catch (...) {
    return report(make_error(ErrorKind::Internal, "unexpected error"));
  }
}

}  // namespace trainyard
