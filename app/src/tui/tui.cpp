// The TUI loop: poll input and timers, dispatch keys, redraw when something changed.
#include "tui.hpp"

#include <poll.h>

#include <cstdio>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "alert_settings.hpp"
#include "editor.hpp"
#include "frame_stats.hpp"
#include "key_config.hpp"
#include "local/nvml_source.hpp"
#include "local/task_environment.hpp"
#include "output.hpp"
#include "tui_account_band.hpp"
#include "tui_costs.hpp"
#include "tui_help.hpp"
#include "tui_mouse.hpp"
#include "tui_navigation.hpp"
#include "tui_pane_routes.hpp"
#include "tui_plugins.hpp"
#include "tui_services.hpp"
#include "tui_state.hpp"
#include "widgets/box.hpp"
#include "widgets/help_overlay.hpp"
#include "widgets/prompt.hpp"

namespace trainyard {
namespace {

using namespace std::chrono_literals;

CrumbsVm crumbs_of(const TuiState& st) {
  return {focused_pane(st).crumbs(st)};
}

void render_bottom_lines(TuiState& st, Canvas& c, Rect line, Rect status, Timestamp now) {
  if (st.modal.mode == Mode::Filter) {
    render_filter_line({st.modal.input.text(), st.modal.input.cursor(), true, st.table.page.total},
                       c, line);
  } else if (st.modal.mode == Mode::Command || st.modal.mode == Mode::Search ||
             st.modal.mode == Mode::SubmitPath) {
    CommandLineVm vm;
    vm.prompt = st.modal.mode == Mode::Command  ? ":"
                : st.modal.mode == Mode::Search ? "/"
                                                : "spec file: ";
    vm.text = st.modal.input.text();
    vm.cursor = st.modal.input.cursor();
    if (st.modal.mode == Mode::Command) {
      // While Tab cycles, the whole list stays in view with the one chosen in brackets.
      const auto* cycling = cycled_completions(st);
      auto m = cycling ? *cycling : complete_command(vm.text);
      for (const auto& s : m) vm.candidates += (cycling && s == vm.text ? "[" + s + "]" : s) + " ";
      if (m.size() == 1) vm.hint = m.front().substr(vm.text.size());
    }
    if (st.modal.mode == Mode::SubmitPath)
      for (const auto& s : path_candidates(vm.text)) vm.candidates += s + " ";
    render_command_line(vm, c, line);
  } else {
    render_hint_bar(hints_of(st, focused_pane(st)), c, line);
  }
  auto vm = st.status;
  if (st.notes.data_time) vm.data_age = now - *st.notes.data_time;
  add_marks_note(st, vm);
  render_status_bar(vm, c, status);
}

// `pane` is the focused pane with its border: help nests inside it, clear of the bottom lines.
void render_overlays(const AppContext& ctx, TuiState& st, Canvas& c, Rect pane) {
  if (st.modal.mode == Mode::Form && st.modal.form) render_form(*st.modal.form, c, c.bounds());
  if (st.modal.mode == Mode::Confirm && st.modal.confirm)
    render_dialog(*st.modal.confirm, c, c.bounds());
  if (st.modal.mode == Mode::Help) {
    auto vm = help_of(ctx, st);
    auto layout = help_layout(vm, pane);
    st.modal.help.per_page = layout.per_page;
    st.modal.help.max_top = layout.lines > layout.per_page ? layout.lines - layout.per_page : 0;
    render_help(vm, c, pane);
  }
}

// The editor gets the terminal, and what every child gets of the environment (no secrets).
Result<void> edit_file(AppContext& ctx, Terminal& term, const std::string& path) {
  term.suspend();
  auto r = run_editor(path, scrub_environment(current_environment(), ctx.engine.secret_variables));
  term.resume();
  return r;
}

}  // namespace

Tui::Tui(AppContext& ctx, Terminal& term, TuiOptions options)
    : ctx_(ctx), term_(term), st_(std::make_unique<TuiState>()) {
  st_->options = std::move(options);
  st_->bindings = bindings_with(default_bindings(), ctx.settings.keys);
  st_->work.local = std::make_unique<LocalWorker>(
      ctx.data_dir, ctx.engine, ctx.clock, [st = st_.get()](Event e) { st->work.events.post(e); });
  st_->work.gpus = std::make_unique<GpuMonitor>(open_nvml_gpu_source(nvml_library_from_env()),
                                                GpuMonitorOptions{},
                                                [st = st_.get()] { st->work.events.post(Wake{}); });
  st_->modal.edit_file = [&term, &ctx](const std::string& path) {
    return edit_file(ctx, term, path);
  };
  register_known_accounts(ctx);
  st_->work.reader = TuiReader::open(ctx, [st = st_.get()](Event e) { st->work.events.post(e); });
  st_->work.costs = CostWatcher::open(ctx, [st = st_.get()] { st->work.events.post(Wake{}); });
  // load_settings checked the alerts already: a file that changed since is read as it is now.
  auto alerts = load_alert_settings(ctx.settings.source).value_or(AlertConfig{});
  if (st_->work.reader) st_->work.reader->watch_alerts(alerts);
  st_->services = make_services(ctx, term, *st_, std::move(alerts));
  // With a reader, the data on screen is as new as the version its model was read at.
  if (st_->work.reader)
    st_->work.read_data_version = [st = st_.get()] { return st->work.read_version; };
  else
    st_->work.read_data_version = [&ctx] { return ctx.store->data_version().value_or(-1); };
  st_->stack.push_back(home_frame(st_->options.account));
  st_->top().job = st_->options.job;
  open_pane_named(ctx, *st_, st_->options.view);
  if (st_->status.message.empty())
    set_status_from(*st_, "", "? help · : commands", StatusLevel::Info);
  refresh();
}

Tui::~Tui() = default;

bool Tui::done() const {
  return st_->quit;
}

std::string Tui::parting_note() const {
  auto idle = idle_billing_warning(*st_);
  return idle ? "still billing: " + *idle : "";
}

void Tui::sample_gpus_once() {
  st_->work.gpus->poll_once();
}

void Tui::handle_key(const KeyEvent& key) {
  if (key.key == Key::Resize) return;
  auto before = st_->stack;
  if (key.is_mouse()) {
    handle_mouse(ctx_, *st_, key);
  } else if (st_->modal.mode != Mode::Normal) {
    handle_mode_key(ctx_, *st_, key);
  } else if (run_plugin_key(ctx_, *st_, key)) {
  } else if (auto a = lookup_action(st_->bindings, focused_pane(*st_).contexts(), key)) {
    if (move_in_history(ctx_, *st_, *a))
      before.clear();  // not a move of its own
    else
      apply_action(ctx_, *st_, *a);
  } else {
    st_->notes.action_label.clear();
    set_status(*st_, fmt::format("{} does nothing here (? for help)", key_name(key)));
  }
  record_move(st_->history, std::move(before), st_->stack);
  refresh();
}

void Tui::go_live() {
  st_->work.live = true;
  refresh();
}

void Tui::pump() {
  handle_events();
  tick();
}

void Tui::settle() {
  st_->work.local->settle();
  for (auto& [account, runner] : st_->work.runners) runner->settle();
  if (st_->work.plugins) st_->work.plugins->settle();
  if (st_->work.storage) st_->work.storage->settle();
  watch_costs(ctx_, *st_);
  if (st_->work.costs) st_->work.costs->settle();
  take_costs(*st_);
  refresh();
}

// A table pane's page, the sync facts and the preemption news come from the reader; a pane
// that reads anything else (a log, the sweep's runs) refreshes itself.
void Tui::refresh() {
  forget_marks_elsewhere(*st_);
  auto& pane = focused_pane(*st_);
  pane.read_files(*st_);
  if (!st_->work.reader || !pane.reads_in_background()) pane.refresh(ctx_, *st_);
  if (st_->work.reader) request_page(*st_);
  update_pollers(ctx_, *st_);
  watch_costs(ctx_, *st_);
  age_status(*st_);
  fill_sync_status(ctx_, *st_);
  if (!st_->work.reader) announce_preemptions(ctx_, *st_);
}

// The reader's model for the latest request is shown with the status it brings.
bool Tui::apply_read() {
  if (!st_->work.reader || !apply_page(*st_)) return false;
  // Newer data came: a pane that reads for itself (the sweep) reads again.
  if (st_->work.read_version != st_->work.data_version) {
    st_->work.data_version = st_->work.read_version;
    st_->panes.store_changed();
    auto& pane = focused_pane(*st_);
    if (!pane.reads_in_background()) pane.refresh(ctx_, *st_);
  }
  update_pollers(ctx_, *st_);
  age_status(*st_);
  fill_sync_status(ctx_, *st_);
  return true;
}

void Tui::draw() {
  auto size = term_.size();
  Canvas c(size.width, size.height);
  Rect all = c.bounds();
  render_crumbs(crumbs_of(*st_), c, all.top(1));
  render_account_band(ctx_.settings, *st_, c, all.top(1));
  Rect pane = all.drop_top(1).drop_bottom(2);
  // A filter stays in view after Enter, so an applied filter is never a surprise.
  const auto& filter = st_->top().cursor.filter;
  std::string note = filter.empty() ? std::string() : "/" + filter;
  auto& focused = focused_pane(*st_);
  Rect body = draw_pane(c, pane, focused.title(st_->top()), true, note);
  st_->table.pane_body = body;
  int old_height = st_->table.body_height;
  st_->table.body_height = std::max(1, table_body_height(focused.table_rect(*st_, body)));
  if (focused.is_table() && old_height != st_->table.body_height) refresh();
  focused.render(ctx_, *st_, c, body);
  render_bottom_lines(*st_, c, all.bottom_rows(2).top(1), all.bottom_rows(1), ctx_.clock.now());
  render_overlays(ctx_, *st_, c, pane);
  if (st_->options.ascii) c.to_ascii();
  term_.present(c);
}

// Reloads only when another connection committed (a supervisor, the CLI, a poller) or every 5 s
// for the ages on screen; an idle TUI then reads almost nothing. With a reader, the UI thread
// does not even read the data version: the reader checks it on its own connection.
void Tui::tick() {
  auto now = std::chrono::steady_clock::now();
  focused_pane(*st_).tick(*st_);
  // New costs change the Jobs pane's rows: read them again. A headless TUI takes them only
  // when it settles, so that its frames do not depend on the watcher's pace.
  bool due = now - st_->work.last_reload >= 5s || (st_->work.live && take_costs(*st_));
  if (st_->work.reader) {
    if (due) return reload(now);
    request_page_if_changed(*st_);
    // The pollers' and workers' waits are told each second (no query: the reader brought the
    // sync facts), so an endpoint that stopped answering is named within a second of the limit.
    fill_sync_status(ctx_, *st_);
    return;
  }
  auto version = ctx_.store->data_version().value_or(-1);
  if (version == st_->work.data_version && !due) return;
  if (version != st_->work.data_version) st_->panes.store_changed();
  st_->work.data_version = version;
  reload(now);
}

void Tui::reload(std::chrono::steady_clock::time_point now) {
  refresh();
  st_->work.last_reload = now;
}

// Workers' news: an action's outcome goes to the status bar; a poller's write reloads the pane
// when it wrote what the pane shows; a GPU sample only redraws the GPU pane.
bool Tui::handle_events() {
  bool changed = st_->work.local->run_replies() > 0, wake = false, wrote = false, read = false;
  for (auto& [account, runner] : st_->work.runners) changed = runner->run_replies() > 0 || changed;
  // A listing or a blob's read came back: the pane shows it.
  bool stored = st_->work.storage && st_->work.storage->run_replies() > 0;
  for (auto& e : st_->work.events.drain()) {
    if (auto* m = std::get_if<StatusMessage>(&e)) {
      set_status_from(*st_, m->origin, m->text, m->is_error ? StatusLevel::Error : StatusLevel::Ok);
      poke_poller(*st_);  // what the action changed is polled at once
      changed = true;
    } else if (std::holds_alternative<PageReady>(e)) {
      read = true;
    } else if (auto* w = std::get_if<StoreWritten>(&e)) {
      wrote = shows_written(*st_, *w) || wrote;
    } else {
      wake = true;
    }
  }
  if (read) changed = apply_read() || changed;
  if (stored) {
    refresh();
    changed = true;
  }
  if ((wake || wrote) && focused_pane(*st_).shows_samples()) return true;
  if (wrote) {
    st_->panes.store_changed();
    reload(std::chrono::steady_clock::now());
  } else if (wake) {
    tick();
  }
  return changed || wake || wrote;
}

// A followed log refreshes 4 times a second; everything else once a second (the data changes
// no faster, and an idle TUI must cost next to nothing).
std::chrono::milliseconds Tui::refresh_interval() const {
  return focused_pane(*st_).tailing(*st_) ? 250ms : 1000ms;
}

int Tui::run() {
  st_->work.live = true;
  st_->work.gpus->start();
  FrameStats frames;
  draw();
  auto next_refresh = std::chrono::steady_clock::now() + refresh_interval();
  while (!st_->quit) {
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
        next_refresh - std::chrono::steady_clock::now());
    // poll() ignores a negative fd: a missing input or stop fd needs no special case.
    pollfd fds[3] = {{st_->work.events.fd(), POLLIN, 0},
                     {term_.input_fd(), POLLIN, 0},
                     {st_->options.stop_fd, POLLIN, 0}};
    poll(fds, 3, static_cast<int>(std::max<int64_t>(0, wait.count())));
    if (fds[2].revents & POLLIN) break;  // a stop signal: end as a quit does
    const auto woke = std::chrono::steady_clock::now();
    bool changed = handle_events();
    while (auto k = term_.read_key()) {
      handle_key(*k);
      changed = true;
    }
    if (std::chrono::steady_clock::now() >= next_refresh) {
      tick();
      next_refresh = std::chrono::steady_clock::now() + refresh_interval();
      changed = true;
    }
    if (!changed) continue;
    draw();
    frames.add(std::chrono::steady_clock::now() - woke);
  }
  frames.write_if_asked();
  return 0;
}

int dump_frame(AppContext& ctx, const std::string& size, const std::string& keys,
               TuiOptions options) {
  int w = 0, h = 0;
  if (std::sscanf(size.c_str(), "%dx%d", &w, &h) != 2 || w < 1 || h < 1 || w > 1000 || h > 1000) {
    out::eprint("trainyard: --dump-frame '{}': expected WxH, e.g. 120x40", size);
    return 2;
  }
  HeadlessTerminal term({w, h});
  Tui tui(ctx, term, std::move(options));
  tui.sample_gpus_once();
  tui.settle();  // the local worker's first pass: the keys act on the rows the loop would show
  tui.draw();
  std::istringstream in(keys);
  for (std::string name; in >> name && !tui.done();) {
    auto k = parse_key_name(name);
    if (!k) {
      out::eprint("trainyard: --keys: unknown key '{}'", name);
      return 2;
    }
    tui.handle_key(*k);
    tui.settle();  // a local action's outcome, as the real loop shows it once the worker answers
    tui.draw();    // lets layout-dependent state settle, as a real frame would
  }
  tui.refresh();
  tui.draw();
  out::lines(stdout, term.last_frame().to_text());
  return 0;
}

}  // namespace trainyard
