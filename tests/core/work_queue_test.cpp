// WorkQueue: jobs in order on their own thread, outcomes told from it, replies on the caller's.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/work_queue.hpp"

namespace trainyard::work_queue_test {
namespace {

using namespace std::chrono_literals;

// What on_done was told, in order.
struct Told {
  std::mutex mu;
  std::vector<std::string> lines;
  void add(const std::string& what, const Result<std::string>& r) {
    std::lock_guard<std::mutex> g(mu);
    lines.push_back(what + "=" + (r ? *r : "error: " + r.error().message));
  }
  std::vector<std::string> get() {
    std::lock_guard<std::mutex> g(mu);
    return lines;
  }
};

TEST(WorkQueue, JobsRunInOrderAndEachOutcomeIsTold) {
  Told told;
  WorkQueue q([&](const std::string& what, const std::string&, const Result<std::string>& r) {
    told.add(what, r);
  });
  q.submit("a", [] { return Result<std::string>(std::string("one")); });
  q.submit("b", []() -> Result<std::string> { return make_error(ErrorKind::Io, "disk"); });
  q.submit("c", []() -> Result<std::string> { throw std::runtime_error("thrown"); });
  q.settle();
  EXPECT_EQ(told.get(), (std::vector<std::string>{"a=one", "b=error: disk", "c=error: thrown"}));
  EXPECT_EQ(q.pending(), 0u);
}

// settle() is what headless runs and tests wait on: once it returns, the last job's outcome has
// been told (a status line read right after shows it), and its reply has run.
TEST(WorkQueue, SettleReturnsOnlyOnceTheOutcomeIsTold) {
  for (int round = 0; round < 50; ++round) {
    std::atomic<bool> told{false};
    WorkQueue q([&](const std::string&, const std::string&, const Result<std::string>&) {
      std::this_thread::sleep_for(2ms);  // a slow consumer: the race shows at once
      told = true;
    });
    bool replied = false;
    q.submit(
        "job", [] { return Result<std::string>(std::string("done")); }, "",
        [&](const Result<std::string>& r) { replied = r.ok(); });
    q.settle();
    ASSERT_TRUE(told) << "round " << round;
    EXPECT_TRUE(replied);
  }
}

}  // namespace
}  // namespace trainyard::work_queue_test
