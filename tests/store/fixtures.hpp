// Shared helpers for store tests: an open store in a temp dir and fully populated entities.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "store/store.hpp"
#include "temp_dir.hpp"

namespace trainyard::testing {

inline Timestamp at_seconds(int64_t s) {
  return from_micros(1'700'000'000'000'000 + s * 1'000'000);
}

/// A store on a file in its own temp dir.
class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::open(dir_.file("cache.db"));
    ASSERT_TRUE(s.ok()) << s.error().message;
    store_ = std::move(*s);
  }
  std::string db_path() const { return dir_.file("cache.db"); }

  TempDir dir_;
  std::unique_ptr<Store> store_;
};

/// A task with every optional field set.
inline Task full_task(const std::string& id) {
  Task t;
  t.account = "acct";
  t.job_id = "job1";
  t.id = id;
  t.display_name = "Train " + id;
  t.command_line = "python train.py --lr 0.1 --name '" + id + "'";
  t.state = TaskState::Completed;
  t.creation_time = at_seconds(1);
  t.state_transition_time = at_seconds(100);
  t.previous_state = TaskState::Running;
  t.environment_settings = {{"A", "1"}, {"B", "two words"}, {"EMPTY", ""}};
  t.constraints.max_wall_clock_time = Duration(5'400'000'000);
  t.constraints.max_task_retry_count = -1;
  t.depends_on.task_ids = {"prep-1", "prep-2"};
  t.required_slots = 2;
  auto& e = t.execution_info;
  e.start_time = at_seconds(10);
  e.end_time = at_seconds(99);
  e.exit_code = -3;
  e.result = TaskResult::Failure;
  e.failure_info = FailureInfo{ErrorCategory::ServerError, "TaskEnded", "exited with -3"};
  e.retry_count = 4;
  e.last_retry_time = at_seconds(50);
  e.requeue_count = 1;
  t.node_info = TaskNodeInfo{"pool1", "node-7", "/mnt/batch/tasks/workitems/job1/" + id};
  return t;
}

/// A task with only the required fields.
inline Task bare_task(const std::string& job, const std::string& id, TaskState state,
                      int64_t created_s) {
  Task t;
  t.account = "acct";
  t.job_id = job;
  t.id = id;
  t.state = state;
  t.creation_time = at_seconds(created_s);
  return t;
}

}  // namespace trainyard::testing
