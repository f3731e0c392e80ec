// ty_tui_bench: the Tasks pane of a 100,000-task job at 200x60, through Tui + HeadlessTerminal.
//
//   ty_tui_bench [--data-dir D] [--benchmark_* flags]
//
// Without --data-dir a temporary data directory is seeded (ty_seed's defaults) and removed after.
// Figures: one frame (draw), refresh + frame, one filter keystroke (handle_key + draw), jumps, and
// the process's RSS with the view open (counter rss_mib).
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/context.hpp"
#include "proc_stats.hpp"
#include "seed.hpp"
#include "terminal.hpp"
#include "tui.hpp"

namespace {

using namespace trainyard;
using bench::status_mib;

/// The data directory every benchmark opens (set once in main, before any benchmark runs).
std::string& data_dir() {
  static std::string dir;
  return dir;
}

/// A Tui open on the Tasks pane of job `big`, drawn once.
struct TasksView {
  std::unique_ptr<AppContext> ctx;
  HeadlessTerminal term{TermSize{200, 60}};
  std::unique_ptr<Tui> tui;

  bool open(benchmark::State& state) {
    auto c = open_context(data_dir());
    if (!c) {
      state.SkipWithError(c.error().message.c_str());
      return false;
    }
    ctx = std::move(*c);
    TuiOptions o;
    o.view = "tasks";
    o.job = "big";
    tui = std::make_unique<Tui>(*ctx, term, o);
    tui->draw();
    if (term.last_frame().to_text().find("task-000000") == std::string::npos) {
      state.SkipWithError("the first frame does not show task-000000: is the data dir seeded?");
      return false;
    }
    return true;
  }

  void key(char32_t c) { tui->handle_key(KeyEvent::character(c)); }
  void named(Key k) { tui->handle_key(KeyEvent::named(k)); }
};

void add_rss(benchmark::State& state) {
  state.counters["rss_mib"] = status_mib("VmRSS");
  state.counters["hwm_mib"] = status_mib("VmHWM");
}

// Opening: store, Tui (first refresh) and the first frame, in process (no exec, no terminal).
void BM_OpenTasksView(benchmark::State& state) {
  for (auto _ : state) {
    TasksView v;
    if (!v.open(state)) return;
  }
  add_rss(state);
}

// One 200x60 frame of the table (render into a Canvas and present it headless).
void BM_TasksDraw(benchmark::State& state) {
  TasksView v;
  if (!v.open(state)) return;
  for (auto _ : state) v.tui->draw();
  add_rss(state);
}

// Reloading the visible page from the store, then the frame (what the 1 s tick does).
void BM_TasksRefreshDraw(benchmark::State& state) {
  TasksView v;
  if (!v.open(state)) return;
  for (auto _ : state) {
    v.tui->refresh();
    v.tui->draw();
  }
  add_rss(state);
}

// One filter keystroke: `typed` is already in the filter line, `next` is typed (handle_key +
// draw) and erased again outside the timing.
void filter_keystroke(benchmark::State& state, std::string typed, char next) {
  TasksView v;
  if (!v.open(state)) return;
  v.key('/');
  for (char c : typed) v.key(static_cast<char32_t>(c));
  v.tui->draw();
  for (auto _ : state) {
    v.key(static_cast<char32_t>(next));
    v.tui->draw();
    state.PauseTiming();
    v.named(Key::Backspace);
    v.tui->draw();
    state.ResumeTiming();
  }
  add_rss(state);
}

// `G` then `g`: the last page (OFFSET 99,9xx) and back, each handle_key + draw.
void BM_JumpBottomTop(benchmark::State& state) {
  TasksView v;
  if (!v.open(state)) return;
  for (auto _ : state) {
    v.key('G');
    v.tui->draw();
    v.key('g');
    v.tui->draw();
  }
}

// `j`: one row down (handle_key reloads the page) + draw.
void BM_RowDown(benchmark::State& state) {
  TasksView v;
  if (!v.open(state)) return;
  for (auto _ : state) {
    v.key('j');
    v.tui->draw();
  }
}

void register_all() {
  using benchmark::kMillisecond;
  benchmark::RegisterBenchmark("BM_OpenTasksView", BM_OpenTasksView)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("BM_TasksDraw", BM_TasksDraw)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("BM_TasksRefreshDraw", BM_TasksRefreshDraw)->Unit(kMillisecond);
  struct Case {
    const char* name;
    const char* typed;
    char next;
  };
  // Every pattern is answered from the job's tasks in memory (app/src/runs/task_filter_index.hpp).
  for (auto c : std::vector<Case>{{"first_char_all_match", "", 't'},
                                  {"second_char_all_match", "t", 'a'},
                                  {"third_char_all_match", "ta", 's'},
                                  {"seed=42_1pct_match", "seed=4", '2'},
                                  {"task-09999_10_match", "task-0999", '9'},
                                  {"no_match", "zzz", 'q'}}) {
    benchmark::RegisterBenchmark((std::string("BM_FilterKeystroke/") + c.name).c_str(),
                                 [c](benchmark::State& s) { filter_keystroke(s, c.typed, c.next); })
        ->Unit(kMillisecond);
  }
  benchmark::RegisterBenchmark("BM_JumpBottomTop", BM_JumpBottomTop)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("BM_RowDown", BM_RowDown)->Unit(kMillisecond);
}

// Takes `--data-dir D` out of argv (Google Benchmark refuses flags it does not know).
std::string take_data_dir(int& argc, char** argv) {
  std::string dir;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--data-dir") == 0 && i + 1 < argc) {
      dir = argv[++i];
      continue;
    }
    argv[out++] = argv[i];
  }
  argc = out;
  return dir;
}

}  // namespace

int main(int argc, char** argv) {
  data_dir() = take_data_dir(argc, argv);
  std::string temp;
  if (data_dir().empty()) {
    char tmpl[] = "/tmp/ty-tui-bench.XXXXXX";
    if (!::mkdtemp(tmpl)) return 1;
    temp = tmpl;
    data_dir() = temp;
    auto ms = bench::seed_data_dir(bench::SeedOptions{temp});
    if (!ms) {
      std::fprintf(stderr, "ty_tui_bench: seeding: %s\n", ms.error().message.c_str());
      return 1;
    }
    std::fprintf(stderr, "seeded 100000 tasks in %.0f ms\n", *ms);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (!temp.empty()) std::filesystem::remove_all(temp);
  return 0;
}
