// ty_log_bench: the log pane on a 1 GiB stdout.txt, through Tui + HeadlessTerminal (and LogFile).
//
//   ty_log_bench [--size-mb 1024] [--dir /tmp]
//
// Writes a synthetic training log into a temporary data directory, opens it in the log pane,
// indexes it to the end (as the 1 s tick would, 64 MiB per refresh), then searches from the top
// for a string found only in the last lines. Prints `RESULT name value unit` lines; removes the
// file and the directory at the end.
#include <stdlib.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "app/context.hpp"
#include "local/task_environment.hpp"
#include "proc_stats.hpp"
#include "seed.hpp"
#include "sync/log_file.hpp"
#include "terminal.hpp"
#include "tui.hpp"

namespace {

using namespace trainyard;
using Steady = std::chrono::steady_clock;

constexpr const char* kNeedle = "checkpoint saved: final-model-7f3a";
constexpr const char* kEndMarker = "END-OF-LOG";

double ms_since(Steady::time_point t) {
  return std::chrono::duration<double, std::milli>(Steady::now() - t).count();
}

void result(const char* name, double value, const char* unit) {
  std::printf("RESULT %s %.3f %s\n", name, value, unit);
  std::fflush(stdout);
}

// One block of log text (~1 MiB): Keras-style lines, a \r progress bar, some colour.
std::string log_block(uint64_t block) {
  std::string out;
  for (int i = 0; out.size() < (1u << 20); ++i) {
    uint64_t step = block * 10000 + static_cast<uint64_t>(i);
    if (i % 50 == 0)
      out += fmt::format("\rEpoch {}: {:3d}%|{:<20}| {}/{}\r\n", block, i % 100,
                         std::string(static_cast<size_t>(i % 20), '#'), i, 10000);
    else if (i % 97 == 0)
      out += fmt::format("\x1b[33mwarning:\x1b[0m step {} grad norm {:.3f} clipped\n", step,
                         0.5 + (i % 7) * 0.1);
    else
      out += fmt::format(
          "epoch {} step {} - loss: {:.4f} - accuracy: {:.4f} - val_loss: {:.4f} - lr: {:.2e}\n",
          block, step, 1.0 / (1 + i % 100), 0.5 + (i % 50) * 0.01, 1.1 / (1 + i % 90), 3e-4);
  }
  return out;
}

bool write_log(const std::string& path, uint64_t size_mb) {
  std::ofstream f(path, std::ios::binary);
  for (uint64_t b = 0; b < size_mb && f; ++b) {
    auto block = log_block(b);
    f.write(block.data(), static_cast<std::streamsize>(block.size()));
  }
  f << "epoch 999 done\n" << kNeedle << " (step 999999)\n" << kEndMarker << "\n";
  return static_cast<bool>(f);
}

bool frame_has(const HeadlessTerminal& t, const char* text) {
  return t.last_frame().to_text().find(text) != std::string::npos;
}

// The figures through the TUI's log pane: memory, time to index to the end, one search.
int bench_tui(const std::string& data_dir) {
  auto ctx = open_context(data_dir);
  if (!ctx) return std::fprintf(stderr, "%s\n", ctx.error().message.c_str()), 1;
  HeadlessTerminal term({200, 60});
  TuiOptions o;
  o.view = "tasks";
  o.job = "logs";
  Tui tui(**ctx, term, o);
  tui.draw();
  result("rss_before_open_mib", bench::status_mib("VmRSS"), "MiB");
  auto t0 = Steady::now();
  tui.handle_key(KeyEvent::named(Key::Enter));  // open the log pane (its first refresh)
  tui.draw();
  int refreshes = 1;
  for (; !frame_has(term, kEndMarker) && refreshes < 100000; ++refreshes) {
    tui.refresh();
    tui.draw();
  }
  result("index_to_end_ms", ms_since(t0), "ms");
  result("refreshes_to_end", refreshes, "refreshes");
  result("rss_log_open_mib", bench::status_mib("VmRSS"), "MiB");
  for (char32_t c : std::u32string(U"g/")) tui.handle_key(KeyEvent::character(c));
  for (const char* p = kNeedle; *p; ++p) tui.handle_key(KeyEvent::character(*p));
  t0 = Steady::now();
  tui.handle_key(KeyEvent::named(Key::Enter));
  tui.draw();
  result("tui_search_last_match_ms", ms_since(t0), "ms");
  if (!frame_has(term, kNeedle) || frame_has(term, "not found")) {
    std::fprintf(stderr, "search did not land on the match:\n%s\n",
                 term.last_frame().to_text().c_str());
    return 1;
  }
  result("rss_after_search_mib", bench::status_mib("VmRSS"), "MiB");
  result("hwm_mib", bench::status_mib("VmHWM"), "MiB");
  return 0;
}

// The same search straight on LogFile, three times (median printed).
int bench_log_file(const std::string& path) {
  auto t0 = Steady::now();
  auto f = LogFile::open(path);
  if (!f) return std::fprintf(stderr, "%s\n", f.error().message.c_str()), 1;
  result("logfile_index_ms", ms_since(t0), "ms");
  result("logfile_lines", static_cast<double>(f->line_count()), "lines");
  std::vector<double> ms;
  for (int i = 0; i < 3; ++i) {
    t0 = Steady::now();
    auto hit = f->search(kNeedle, 0, SearchDirection::Forward, true);
    ms.push_back(ms_since(t0));
    if (!hit || !*hit) return std::fprintf(stderr, "LogFile search found nothing\n"), 1;
  }
  std::sort(ms.begin(), ms.end());
  result("logfile_search_last_match_ms", ms[1], "ms");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t size_mb = 1024;
  std::string parent = "/tmp";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--size-mb") == 0) size_mb = std::strtoull(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--dir") == 0) parent = argv[i + 1];
  }
  std::string tmpl = parent + "/ty-log-bench.XXXXXX";
  if (!::mkdtemp(tmpl.data())) return std::perror("mkdtemp"), 1;
  std::string dir = tmpl;
  bench::SeedOptions seed{dir, "logs", 1, 0, 0};
  int rc = 1;
  if (auto s = bench::seed_data_dir(seed); !s) {
    std::fprintf(stderr, "seeding: %s\n", s.error().message.c_str());
  } else {
    auto path = run_paths(dir, "logs", bench::seeded_task_id(0)).stdout_txt;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    auto t0 = Steady::now();
    if (write_log(path, size_mb)) {
      result("file_mib", static_cast<double>(std::filesystem::file_size(path)) / (1 << 20), "MiB");
      result("generate_ms", ms_since(t0), "ms");
      rc = bench_tui(dir);
      if (rc == 0) rc = bench_log_file(path);
    }
  }
  std::filesystem::remove_all(dir);
  return rc;
}
