// Alerts: config.json's `alerts`, the transitions they are told of (once each), the user's
// command (its facts, no secrets, its timeout), and an alert in the TUI's status line.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include <gtest/gtest.h>

#include "alert_notifier.hpp"
#include "alert_settings.hpp"
#include "alert_watch.hpp"
#include "app/settings.hpp"
#include "local/task_environment.hpp"
#include "store/store.hpp"
#include "tui_screen.hpp"

namespace trainyard::alerts_test {
namespace {

using namespace std::chrono_literals;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(AlertSettingsTest, EachAccountAndLocalHaveTheirOwn) {
  const std::string text = R"j({"local": {"cpuSlots": 2, "alerts": {"on": ["task_failed"],
      "bell": true}}, "accounts": [{"name": "prod", "kind": "emulator",
      "endpoint": "http://127.0.0.1:1", "auth": {"keyEnv": "K"},
      "alerts": {"on": ["job_completed", "resize_done"], "command": "notify-send x",
                 "timeoutSeconds": 3}}]})j";
  auto s = parse_settings(text, "cfg.json");
  ASSERT_TRUE(s.ok()) << s.error().message;  // accounts parse without their alerts
  ASSERT_EQ(s->accounts.size(), 1u);
  auto path = ::testing::TempDir() + "alerts-cfg.json";
  std::ofstream(path) << text;
  auto alerts = load_alert_settings(path);
  ASSERT_TRUE(alerts.ok()) << alerts.error().message;
  ASSERT_EQ(alerts->size(), 2u);
  EXPECT_EQ(alerts->at("local").on, std::vector<AlertKind>{AlertKind::TaskFailed});
  EXPECT_TRUE(alerts->at("local").bell);
  EXPECT_EQ(alerts->at("local").timeout_seconds, 10);
  const auto& prod = alerts->at("prod");
  EXPECT_EQ(prod.on, (std::vector<AlertKind>{AlertKind::JobCompleted, AlertKind::ResizeDone}));
  EXPECT_FALSE(prod.bell);
  EXPECT_EQ(prod.command, "notify-send x");
  EXPECT_EQ(prod.timeout_seconds, 3);
}

void expect_refused(const std::string& text, const std::string& message) {
  auto s = parse_settings(text, "cfg.json");
  ASSERT_FALSE(s.ok()) << text;
  EXPECT_EQ(s.error().message, message);
}

TEST(AlertSettingsTest, MistakesNameTheFileAndPlace) {
  expect_refused(R"j({"local": {"alerts": {"on": ["task_failed", "fire"]}}})j",
                 "cfg.json: /local/alerts/on/1: unknown event (task_failed, task_succeeded, "
                 "job_completed, preempted, resize_done, budget_crossed)");
  expect_refused(R"j({"local": {"alerts": {"bell": "yes"}}})j",
                 "cfg.json: /local/alerts/bell: expected true or false");
  expect_refused(R"j({"accounts": [{"name": "a", "alerts": {"timeoutSeconds": 0}}]})j",
                 "cfg.json: /accounts/0/alerts/timeoutSeconds: expected a whole number from 1 to "
                 "600");
  expect_refused(R"j({"accounts": [{"name": "a", "alerts": {"sound": true}}]})j",
                 "cfg.json: /accounts/0/alerts/sound: unknown setting");
}

// A store with one Batch account's job, two tasks and a resizing pool.
class AlertWatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "alert-watch-" + std::to_string(::getpid());
    std::filesystem::create_directories(dir_);
    auto s = Store::open(dir_ + "/cache.db");
    ASSERT_TRUE(s.ok()) << s.error().message;
    store_ = std::move(*s);
    ASSERT_TRUE(store_->upsert_account({"emu", AccountKind::Emulator, "http://127.0.0.1:1"}).ok());
    job_.account = "emu";
    job_.id = "train";
    job_.pool_id = "gpu";
    ASSERT_TRUE(store_->upsert_job(job_).ok());
    pool_.account = "emu";
    pool_.id = "gpu";
    pool_.allocation_state = AllocationState::Resizing;
    ASSERT_TRUE(store_->upsert_pool(pool_).ok());
    for (const char* id : {"a", "b"}) ASSERT_TRUE(store_->upsert_task(task(id)).ok());
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  Task task(const std::string& id) {
    Task t;
    t.account = "emu";
    t.job_id = "train";
    t.id = id;
    t.state = TaskState::Running;
    return t;
  }
  Task finished(const std::string& id, int exit, int64_t end_seconds) {
    Task t = task(id);
    t.state = TaskState::Completed;
    t.execution_info.exit_code = exit;
    t.execution_info.result = exit == 0 ? TaskResult::Success : TaskResult::Failure;
    t.execution_info.end_time = Timestamp(std::chrono::seconds(end_seconds));
    return t;
  }
  std::vector<std::string> look(const std::string& news = "") {
    std::vector<std::string> out;
    for (const auto& a : account_alerts(*store_, "emu", settings_, news, watch_))
      out.push_back(std::string(alert_name(a.kind)) + " " + a.text);
    return out;
  }

  std::string dir_;
  std::unique_ptr<Store> store_;
  Job job_;
  Pool pool_;
  AlertSettings settings_{{AlertKind::TaskFailed, AlertKind::TaskSucceeded, AlertKind::JobCompleted,
                           AlertKind::Preempted, AlertKind::ResizeDone}};
  AlertWatch watch_;
};

TEST_F(AlertWatchTest, EachTransitionAlertsOnceAndTheFirstLookOnlyRecords) {
  ASSERT_TRUE(store_->upsert_task(finished("a", 0, 100)).ok());
  EXPECT_TRUE(look("node gpu/n1 preempted").empty());  // what was so at the start is not news
  ASSERT_TRUE(store_->upsert_task(finished("b", 3, 200)).ok());
  pool_.allocation_state = AllocationState::Steady;
  pool_.current_dedicated_nodes = 2;
  ASSERT_TRUE(store_->upsert_pool(pool_).ok());
  job_.state = JobState::Completed;
  ASSERT_TRUE(store_->upsert_job(job_).ok());
  EXPECT_EQ(
      look("node gpu/n2 preempted"),
      (std::vector<std::string>{
          "task_failed task train/b failed (exit 3)", "job_completed job train completed",
          "resize_done pool gpu resized: 2 dedicated, 0 Spot", "preempted node gpu/n2 preempted"}));
  EXPECT_TRUE(look().empty());  // each once
  // A retried task that finishes again is a new event.
  ASSERT_TRUE(store_->upsert_task(task("b")).ok());
  EXPECT_TRUE(look().empty());
  ASSERT_TRUE(store_->upsert_task(finished("b", 0, 300)).ok());
  EXPECT_EQ(look(), std::vector<std::string>{"task_succeeded task train/b succeeded (exit 0)"});
}

TEST_F(AlertWatchTest, OnlyTheEventsAskedForAlert) {
  settings_.on = {AlertKind::TaskFailed};
  look();
  ASSERT_TRUE(store_->upsert_task(finished("a", 0, 100)).ok());
  ASSERT_TRUE(store_->upsert_task(finished("b", 1, 100)).ok());
  job_.state = JobState::Completed;
  ASSERT_TRUE(store_->upsert_job(job_).ok());
  EXPECT_EQ(look("node gpu/n2 preempted"),
            std::vector<std::string>{"task_failed task train/b failed (exit 1)"});
}

Alert failed_alert() {
  return {AlertKind::TaskFailed, "prod", "train", "b", "gpu", "task train/b failed (exit 3)"};
}

TEST(AlertCommandTest, GetsTheEventsFactsAndNoSecret) {
  ::setenv("AZURE_BATCH_ACCESS_KEY", "s3cret-key", 1);
  auto env = alert_environment(scrub_environment(current_environment(), {}), failed_alert());
  ::unsetenv("AZURE_BATCH_ACCESS_KEY");
  const auto out = ::testing::TempDir() + "alert-env.txt";
  auto r = run_alert_command("env > " + out, env, 5);
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto text = read_file(out);
  for (const char* fact : {"TRAINYARD_ALERT=task train/b failed (exit 3)\n", "EVENT=task_failed\n",
                           "ACCOUNT=prod\n", "JOB=train\n", "TASK=b\n", "POOL=gpu\n"})
    EXPECT_NE(text.find(fact), std::string::npos) << fact << " in\n" << text;
  EXPECT_EQ(text.find("s3cret-key"), std::string::npos);
}

TEST(AlertCommandTest, AFailureOrATimeoutIsOneLine) {
  auto exited = run_alert_command("exit 3", {}, 5);
  ASSERT_FALSE(exited.ok());
  EXPECT_EQ(exited.error().message, "alert command exited with 3");
  auto start = std::chrono::steady_clock::now();
  auto slow = run_alert_command("sleep 30", {}, 1);
  ASSERT_FALSE(slow.ok());
  EXPECT_EQ(slow.error().message, "alert command killed after 1 s");
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
}

TEST(AlertNotifierTest, RingsAndRunsTheCommandOfTheAlertsAccountOnly) {
  const auto out = ::testing::TempDir() + "alert-notified.txt";
  std::remove(out.c_str());
  AlertConfig config;
  config["prod"] = AlertSettings{{AlertKind::TaskFailed}, true, "printf '%s' \"$TASK\" >> " + out};
  config["quiet"] = AlertSettings{{AlertKind::TaskFailed}, false, "exit 4"};
  int rings = 0;
  std::vector<std::string> failures;
  std::mutex mu;
  AlertNotifier n(
      config, {"PATH=/usr/bin:/bin"}, [&] { ++rings; },
      [&](std::string line) {
        std::lock_guard<std::mutex> g(mu);
        failures.push_back(line);
      });
  Alert quiet = failed_alert();
  quiet.account = "quiet";
  Alert unknown = failed_alert();
  unknown.account = "nobody";
  n.notify({failed_alert(), quiet, unknown});
  n.settle();
  EXPECT_EQ(rings, 1);
  EXPECT_EQ(read_file(out), "b");
  EXPECT_EQ(failures, std::vector<std::string>{"alert command exited with 4"});
}

// The TUI over the local fixture with `local.alerts` in its config.json.
class TuiAlerts : public apptest::TuiScreen {
 protected:
  void open_with_alerts(TermSize size) {
    const auto config = fixture_.dir() + "/config.json";
    std::ofstream(config) << R"j({"local": {"alerts": {"on": ["task_failed"]}}})j";
    fixture_.ctx().settings.source = config;
    open(size, "tasks", "resnet-sweep");
  }
  // Another process (the run's supervisor) stores the run's failure.
  void fail_running_task() {
    auto other = Store::open(fixture_.dir() + "/cache.db");
    ASSERT_TRUE(other.ok()) << other.error().message;
    auto t = (*other)->task(kLocalAccount, "resnet-sweep", "lr-0010");
    ASSERT_TRUE(t.ok() && *t);
    Task done = **t;
    done.state = TaskState::Completed;
    done.execution_info.end_time = apptest::kFixtureNow - 1min;
    done.execution_info.exit_code = 2;
    done.execution_info.result = TaskResult::Failure;
    ASSERT_TRUE((*other)->upsert_task(done).ok());
    tui_->refresh();
    tui_->draw();
  }
  std::string screen() { return term_->last_frame().to_text(); }
};

TEST_F(TuiAlerts, ALocalRunsFailureIsInTheStatusLineOnce80x24) {
  open_with_alerts(apptest::kNormal);
  EXPECT_EQ(screen().find("failed (exit"), std::string::npos) << screen();
  fail_running_task();
  EXPECT_NE(screen().find("task resnet-sweep/lr-0010 failed (exit 2)"), std::string::npos)
      << screen();
  expect("alert_status_80x24");
}

TEST_F(TuiAlerts, ALocalRunsFailureIsInTheStatusLine200x60) {
  open_with_alerts({200, 60});
  fail_running_task();
  expect("alert_status_200x60");
}

}  // namespace
}  // namespace trainyard::alerts_test
