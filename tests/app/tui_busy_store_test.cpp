// Another process holding the store's write lock never holds a key press.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "tui_screen.hpp"

namespace trainyard::tui_busy_store_test {
namespace {

using namespace std::chrono_literals;
using apptest::kNormal;
using apptest::TuiScreen;

// Holds BEGIN IMMEDIATE on the store for `hold`, as a busy `sync` or CLI command would;
// `releasing` turns true just before the lock is let go.
class LockHolder {
 public:
  LockHolder(const std::string& db, std::chrono::milliseconds hold)
      : thread_([this, db, hold] {
          sqlite3* c = nullptr;
          sqlite3_open(db.c_str(), &c);
          sqlite3_busy_timeout(c, 10000);
          held_ = sqlite3_exec(c, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
          started_ = true;
          std::this_thread::sleep_for(hold);
          releasing_ = true;
          sqlite3_exec(c, "ROLLBACK", nullptr, nullptr, nullptr);
          sqlite3_close(c);
        }) {
    while (!started_) std::this_thread::sleep_for(5ms);
  }
  ~LockHolder() { thread_.join(); }
  bool held() const { return held_; }
  bool releasing() const { return releasing_; }

 private:
  std::atomic<bool> started_{false}, held_{false}, releasing_{false};
  std::thread thread_;
};

// R asks for a scheduling pass (the fixture has a queued task, so it writes); the help that ?
// opens must be on screen while the lock is still held, far sooner than the 5 s busy timeout.
TEST_F(TuiScreen, KeysAreHandledWhileAnotherConnectionHoldsTheWriteLock) {
  open(kNormal, "jobs");
  LockHolder lock(fixture_.dir() + "/cache.db", 3s);
  ASSERT_TRUE(lock.held());
  for (const char* name : {"R", "?"}) {
    tui_->handle_key(*parse_key_name(name));
    tui_->draw();
  }
  bool handled_while_held = !lock.releasing();
  auto frame = term_->last_frame().to_text();
  EXPECT_TRUE(handled_while_held) << "a key press waited for the store's write lock";
  EXPECT_NE(frame.find("quit (in a sub-pane: back)"), std::string::npos) << frame;
}

}  // namespace
}  // namespace trainyard::tui_busy_store_test
