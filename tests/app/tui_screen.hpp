// The TUI over the seeded fixture on a headless terminal, driven by key names (test fixture).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <sstream>
#include <string>

#include "../widgets/snapshot.hpp"
#include "terminal.hpp"
#include "tui.hpp"
#include "tui_fixture.hpp"

namespace trainyard::apptest {

inline constexpr TermSize kNormal{80, 24};
inline constexpr TermSize kTiny{40, 12};

/// Changes the working directory for the lifetime of the object (the run form shows it).
class ScopedCwd {
 public:
  explicit ScopedCwd(const std::filesystem::path& dir) : old_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~ScopedCwd() {
    std::error_code ec;
    std::filesystem::current_path(old_, ec);
  }
  ScopedCwd(const ScopedCwd&) = delete;
  ScopedCwd& operator=(const ScopedCwd&) = delete;

 private:
  std::filesystem::path old_;
};

/// One TUI over the fixture on a headless terminal.
class TuiScreen : public ::testing::Test {
 protected:
  /// A screen whose context reads a manual clock that stands at kFixtureNow.
  TuiScreen() : TuiScreen(std::make_unique<ManualClock>(kFixtureNow)) {}
  /// A screen whose context reads `clock` (requests to a Batch account are signed with it).
  explicit TuiScreen(std::unique_ptr<Clock> clock) : clock_(std::move(clock)), fixture_(*clock_) {}

  /// The context's clock, when it is the manual one.
  ManualClock& manual_clock() { return dynamic_cast<ManualClock&>(*clock_); }

  /// Starts the TUI on `view` (and `job`) at `size` and draws the first frame.
  void open(TermSize size, const std::string& view, const std::string& job = "") {
    term_ = std::make_unique<HeadlessTerminal>(size);
    TuiOptions o;
    o.view = view;
    o.job = job;
    o.demo_command = "python3 examples/train_demo.py";
    o.ascii = ascii_;
    tui_ = std::make_unique<Tui>(fixture_.ctx(), *term_, o);
    tui_->sample_gpus_once();
    tui_->settle();  // the local worker's first pass (the local pool and node) is in every frame
    tui_->draw();
  }

  /// Feeds space-separated tmux-style key names, drawing after each as the real loop does.
  void keys(const std::string& names) {
    std::istringstream in(names);
    for (std::string name; in >> name;) {
      auto k = parse_key_name(name);
      ASSERT_TRUE(k) << name;
      tui_->handle_key(*k);
      tui_->settle();  // what a local action changed, as the loop shows it once it is done
      tui_->draw();
    }
  }

  /// Types literal text (each character one key).
  void type(const std::string& text) {
    for (char ch : text) {
      tui_->handle_key(KeyEvent::character(static_cast<unsigned char>(ch)));
      tui_->draw();
    }
  }

  /// Runs a `:` command: `:`, the text typed, Enter.
  void command(const std::string& text) {
    keys(":");
    type(text);
    keys("Enter");
  }

  /// The screen once the workers have finished and their news (an outcome for the status line)
  /// is taken in, as the loop does.
  std::string settled_and_pumped() {
    tui_->settle();
    tui_->pump();
    tui_->draw();
    return screen();
  }

  /// Resizes the terminal and lets the TUI handle the queued Resize key.
  void resize(TermSize size) {
    term_->resize(size);
    while (auto k = term_->read_key()) tui_->handle_key(*k);
    tui_->draw();
  }

  /// Selects the task whose row contains `text` in the Tasks pane (filter, then submit).
  void select_task(const std::string& text) {
    keys("/");
    type(text);
    keys("Enter");
  }

  /// The last frame's text.
  std::string screen() { return term_->last_frame().to_text(); }

  /// The line of the last frame holding `text`; empty when none does.
  std::string line_with(const std::string& text) {
    std::string s = screen();
    auto at = s.find(text);
    if (at == std::string::npos) return "";
    auto from = s.rfind('\n', at);
    from = from == std::string::npos ? 0 : from + 1;
    return s.substr(from, s.find('\n', at) - from);
  }

  /// Compares the last frame with tests/snapshots/app/<name>.
  void expect(const std::string& name) {
    ASSERT_TRUE(term_);
    snapshot::expect_snapshot(term_->last_frame(), "app", name);
  }

  /// Draws as on a terminal that is not UTF-8 (set before open).
  bool ascii_ = false;
  std::unique_ptr<Clock> clock_;  // before fixture_: the fixture's context reads it
  TuiFixture fixture_;
  std::unique_ptr<HeadlessTerminal> term_;
  std::unique_ptr<Tui> tui_;
};

}  // namespace trainyard::apptest
