// Batch actions against `trainyard emulator`: pools, nodes, jobs, tasks, addtaskcollection in
// collections of 100 (also under injected faults), submittedBy metadata, supported images.
#include <gtest/gtest.h>
#include <httplib.h>

#include <set>
#include <thread>

#include <fmt/format.h>

#include "azure/batch_actions.hpp"
#include "emulator_process.hpp"
#include "loopback_batch_server.hpp"

namespace trainyard::azure::batch_actions_test {
namespace {

using azuretest::EmulatorProcess;
using nlohmann::json;
using namespace std::chrono_literals;

struct Fixture {
  Fixture() {
    BatchClientOptions o;
    o.account = emu.account();
    o.endpoint = emu.endpoint();
    o.retry.base = 10ms;
    o.retry.cap = 100ms;
    o.retry.max_retries = 10;
    client = std::make_unique<BatchClient>(o, std::make_shared<HttpClient>(),
                                           shared_key_credential(emu.account(), emu.key()), clock);
  }

  // A pool of `dedicated` nodes, waited on until steady with every node idle.
  void pool(const std::string& id, int dedicated) {
    json body{{"id", id}, {"vmSize", "standard_d2s_v3"}, {"targetDedicatedNodes", dedicated}};
    auto ok = create_pool(*client, body);
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    ASSERT_TRUE(steady(id, dedicated));
  }

  bool steady(const std::string& id, int nodes) {
    return wait_until([&] {
      auto p = get_pool(*client, id);
      auto n = client->nodes(id);
      if (!p || !n || p->allocation_state != AllocationState::Steady) return false;
      if (static_cast<int>(n->size()) != nodes) return false;
      for (const auto& node : *n)
        if (node.state != NodeState::Idle) return false;
      return true;
    });
  }

  void job(const std::string& id, const std::string& pool_id) {
    auto ok = create_job(*client, json{{"id", id}, {"poolInfo", {{"poolId", pool_id}}}});
    ASSERT_TRUE(ok.ok()) << ok.error().message;
  }

  json raw(const std::string& path) {
    auto r = client->call("GET", path);
    EXPECT_TRUE(r.ok()) << (r ? "" : r.error().message);
    return r ? json::parse(r->body) : json();
  }

  void faults(const std::string& spec) {
    auto r = client->call("POST", "/__trainyard/faults", {}, json{{"spec", spec}}.dump());
    ASSERT_TRUE(r.ok()) << r.error().message;
  }

  static bool wait_until(const std::function<bool()>& fn, int seconds = 20) {
    for (int i = 0; i < seconds * 20; ++i) {
      if (fn()) return true;
      std::this_thread::sleep_for(50ms);
    }
    return false;
  }

  EmulatorProcess emu;
  SystemClock clock;
  std::unique_ptr<BatchClient> client;
};

std::vector<json> numbered_tasks(int n) {
  std::vector<json> out;
  for (int i = 0; i < n; ++i) {
    char id[32];
    std::snprintf(id, sizeof id, "t%03d", i);
    out.push_back({{"id", id}, {"commandLine", "echo " + std::to_string(i)}});
  }
  return out;
}

TEST(BatchActions, PoolResizeStopAndDelete) {
  Fixture f;
  EXPECT_EQ(create_pool(*f.client, json{{"vmSize", "x"}}).error().kind, ErrorKind::Usage);
  f.pool("p", 1);
  EXPECT_EQ(resize_pool(*f.client, "p", std::nullopt, std::nullopt).error().kind, ErrorKind::Usage);
  auto ok = resize_pool(*f.client, "p", 3, 1, std::chrono::minutes(20));
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  auto pool = f.raw("/pools/p");
  EXPECT_EQ(pool["targetDedicatedNodes"], 3);
  EXPECT_EQ(pool["targetLowPriorityNodes"], 1);
  EXPECT_EQ(pool["resizeTimeout"], "PT20M");
  ASSERT_TRUE(stop_resize_pool(*f.client, "p").ok());
  EXPECT_TRUE(Fixture::wait_until([&] {
    auto p = get_pool(*f.client, "p");
    return p && p->allocation_state == AllocationState::Steady;
  }));
  ASSERT_TRUE(delete_pool(*f.client, "p").ok());
  auto gone = get_pool(*f.client, "p");
  EXPECT_TRUE(!gone || gone->state == PoolState::Deleting);
  auto missing = resize_pool(*f.client, "nope", 1, std::nullopt);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::NotFound);
  EXPECT_EQ(missing.error().message.rfind("PoolNotFound: ", 0), 0u) << missing.error().message;
}

TEST(BatchActions, AutoscaleEnableEvaluateDisable) {
  Fixture f;
  f.pool("p", 0);
  auto ok = enable_autoscale(*f.client, "p", "$TargetDedicatedNodes = 0;", std::chrono::minutes(5));
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(f.raw("/pools/p")["autoScaleEvaluationInterval"], "PT5M");
  auto eval = evaluate_autoscale(*f.client, "p", "$TargetDedicatedNodes = 2; x = 1 + 1;");
  ASSERT_TRUE(eval.ok()) << eval.error().message;
  EXPECT_NE(eval->results.find("$TargetDedicatedNodes=2"), std::string::npos) << eval->results;
  EXPECT_TRUE(eval->error.empty());
  EXPECT_NE(eval->text().find("$TargetDedicatedNodes=2\n"), std::string::npos) << eval->text();
  EXPECT_NE(eval->text().find("x=2\n"), std::string::npos) << eval->text();
  auto bad = evaluate_autoscale(*f.client, "p", "$TargetDedicatedNodes = (;");
  ASSERT_TRUE(bad.ok()) << bad.error().message;
  EXPECT_EQ(bad->error.rfind("AutoScalingFormulaSyntaxError", 0), 0u) << bad->error;
  EXPECT_NE(bad->text().find("error: AutoScalingFormulaSyntaxError"), std::string::npos);
  ASSERT_TRUE(disable_autoscale(*f.client, "p").ok());
  EXPECT_EQ(f.raw("/pools/p")["enableAutoScale"], false);
  auto off = evaluate_autoscale(*f.client, "p", "$TargetDedicatedNodes = 1;");
  ASSERT_FALSE(off.ok());
  EXPECT_EQ(off.error().message.rfind("AutoScalingNotEnabled: ", 0), 0u);
}

TEST(BatchActions, SupportedImagesAndEndOfLife) {
  Fixture f;
  auto images = supported_images(*f.client);
  ASSERT_TRUE(images.ok()) << images.error().message;
  ASSERT_FALSE(images->empty());
  bool found = false;
  for (const auto& i : *images)
    found = found || (i.node_agent_sku_id == "batch.node.ubuntu 22.04" && !i.publisher.empty() &&
                      i.os_type == "linux" && i.verification_type == "verified");
  EXPECT_TRUE(found);
  auto old = parse_supported_image(json::parse(R"({
    "nodeAgentSKUId": "batch.node.centos 7",
    "imageReference": {"publisher": "openlogic", "offer": "centos", "sku": "7_9", "version": "latest"},
    "osType": "linux", "verificationType": "verified", "capabilities": ["DockerCompatible"],
    "batchSupportEndOfLife": "2024-06-30T00:00:00Z"})"));
  ASSERT_TRUE(old.ok()) << old.error().message;
  ASSERT_TRUE(old->batch_support_end_of_life.has_value());
  EXPECT_EQ(format_iso8601(*old->batch_support_end_of_life).substr(0, 10), "2024-06-30");
  EXPECT_TRUE(old->past_end_of_life(f.clock.now()));
  EXPECT_EQ(old->capabilities, std::vector<std::string>{"DockerCompatible"});
  auto far = parse_supported_image(
      json{{"nodeAgentSKUId", "a"}, {"batchSupportEndOfLife", "2999-01-01T00:00:00Z"}});
  ASSERT_TRUE(far.ok());
  EXPECT_FALSE(far->past_end_of_life(f.clock.now()));
  auto wrong = parse_supported_image(json{{"nodeAgentSKUId", "a"}, {"batchSupportEndOfLife", 3}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().message.find("/batchSupportEndOfLife"), std::string::npos);
}

TEST(BatchActions, NodeActions) {
  Fixture f;
  f.pool("p", 2);
  auto nodes = f.client->nodes("p");
  ASSERT_TRUE(nodes.ok());
  const std::string a = (*nodes)[0].id, b = (*nodes)[1].id;
  ASSERT_TRUE(disable_scheduling(*f.client, "p", a, NodeTaskOption::TaskCompletion).ok());
  EXPECT_EQ(get_node(*f.client, "p", a)->scheduling_state, SchedulingState::Disabled);
  EXPECT_EQ(disable_scheduling(*f.client, "p", a, NodeTaskOption::RetainedData).error().kind,
            ErrorKind::Usage);
  ASSERT_TRUE(enable_scheduling(*f.client, "p", a).ok());
  EXPECT_EQ(get_node(*f.client, "p", a)->scheduling_state, SchedulingState::Enabled);
  auto login = remote_login_settings(*f.client, "p", a);
  ASSERT_TRUE(login.ok()) << login.error().message;
  EXPECT_EQ(login->ip, "127.0.0.1");
  EXPECT_GT(login->port, 0);
  ASSERT_TRUE(reboot_node(*f.client, "p", a).ok());
  EXPECT_EQ(get_node(*f.client, "p", a)->state, NodeState::Rebooting);
  ASSERT_TRUE(reimage_node(*f.client, "p", b, NodeTaskOption::Terminate).ok());
  EXPECT_EQ(get_node(*f.client, "p", b)->state, NodeState::Reimaging);
  ASSERT_TRUE(f.steady("p", 2));
  EXPECT_EQ(remove_nodes(*f.client, "p", {}).error().kind, ErrorKind::Usage);
  ASSERT_TRUE(remove_nodes(*f.client, "p", {a}, NodeTaskOption::Requeue).ok());
  EXPECT_EQ(get_pool(*f.client, "p")->target_dedicated_nodes, 1);
  EXPECT_TRUE(f.steady("p", 1));
}

TEST(BatchActions, NodeOptionsParse) {
  EXPECT_EQ(*parse_node_task_option("TaskCompletion"), NodeTaskOption::TaskCompletion);
  EXPECT_EQ(std::string(wire_name(NodeTaskOption::RetainedData)), "retaineddata");
  EXPECT_EQ(*parse_disable_job_option("wait"), DisableJobOption::Wait);
  auto bad = parse_node_task_option("later");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::Usage);
  EXPECT_NE(bad.error().message.find("requeue, terminate"), std::string::npos);
}

TEST(BatchActions, CreateJobAddsSubmittedByOnce) {
  Fixture f;
  f.pool("p", 0);
  json body{{"id", "j"},
            {"poolInfo", {{"poolId", "p"}}},
            {"metadata", {{{"name", "team"}, {"value", "vision"}}}}};
  ASSERT_TRUE(create_job(*f.client, body).ok());
  auto metadata = f.raw("/jobs/j")["metadata"];
  ASSERT_EQ(metadata.size(), 2u) << metadata.dump();
  EXPECT_EQ(metadata[0]["name"], "team");
  EXPECT_EQ(metadata[1]["name"], "submittedBy");
  EXPECT_EQ(metadata[1]["value"], submitter_identity());
  EXPECT_NE(submitter_identity().find('@'), std::string::npos);
  auto kept = with_submitted_by(json{{"metadata", {{{"name", "submittedBy"}, {"value", "ci"}}}}},
                                "me@here");
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ((*kept)["metadata"].size(), 1u);
  EXPECT_EQ((*kept)["metadata"][0]["value"], "ci");
  EXPECT_EQ(with_submitted_by(json{{"metadata", "x"}}, "a@b").error().kind, ErrorKind::Usage);
  EXPECT_EQ(create_job(*f.client, json::array()).error().kind, ErrorKind::Usage);
  auto again = create_job(*f.client, body);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message.rfind("JobExists: ", 0), 0u);
}

TEST(BatchActions, JobDisableEnableTerminateDelete) {
  Fixture f;
  f.pool("p", 0);
  f.job("j", "p");
  ASSERT_TRUE(disable_job(*f.client, "j", DisableJobOption::Wait).ok());
  EXPECT_TRUE(
      Fixture::wait_until([&] { return get_job(*f.client, "j")->state == JobState::Disabled; }));
  ASSERT_TRUE(enable_job(*f.client, "j").ok());
  EXPECT_TRUE(
      Fixture::wait_until([&] { return get_job(*f.client, "j")->state == JobState::Active; }));
  auto twice = enable_job(*f.client, "j");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().kind, ErrorKind::Conflict);
  ASSERT_TRUE(terminate_job(*f.client, "j", "done by test").ok());
  EXPECT_EQ(f.raw("/jobs/j")["executionInfo"]["terminateReason"], "done by test");
  ASSERT_TRUE(delete_job(*f.client, "j").ok());
  auto gone = get_job(*f.client, "j");
  EXPECT_TRUE(!gone || gone->state == JobState::Deleting);
}

TEST(BatchActions, TaskTerminateReactivateDelete) {
  Fixture f;
  f.pool("p", 0);  // no node: the task stays queued and no process starts
  f.job("j", "p");
  ASSERT_TRUE(f.client->add_task("j", json{{"id", "t"}, {"commandLine", "true"}}).ok());
  auto not_failed = reactivate_task(*f.client, "j", "t");
  ASSERT_FALSE(not_failed.ok());
  EXPECT_EQ(not_failed.error().message.rfind("TaskNotFailed: ", 0), 0u);
  ASSERT_TRUE(terminate_task(*f.client, "j", "t").ok());
  auto t = get_task(*f.client, "j", "t");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->state, TaskState::Completed);
  EXPECT_EQ(t->execution_info.result, TaskResult::Failure);
  ASSERT_TRUE(reactivate_task(*f.client, "j", "t").ok());
  EXPECT_EQ(get_task(*f.client, "j", "t")->state, TaskState::Active);
  ASSERT_TRUE(delete_task(*f.client, "j", "t").ok());
  EXPECT_EQ(get_task(*f.client, "j", "t").error().kind, ErrorKind::NotFound);
  EXPECT_EQ(delete_task(*f.client, "j", "t").error().kind, ErrorKind::NotFound);
}

TEST(BatchActions, AddTasksSendsCollectionsOf100) {
  Fixture f;
  f.pool("p", 0);
  f.job("j", "p");
  ASSERT_TRUE(f.client->call("POST", "/__trainyard/reset-counters").ok());
  auto added = add_tasks(*f.client, "j", numbered_tasks(250));
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_EQ(added->added, 250);
  EXPECT_EQ(added->collections, 3);
  auto counters = f.raw("/__trainyard/counters");
  EXPECT_EQ(counters["paths"]["POST /jobs/{}/addtaskcollection"]["requests"], 3) << counters.dump();
  auto tasks = f.client->tasks("j");
  ASSERT_TRUE(tasks.ok());
  EXPECT_EQ(tasks->size(), 250u);
  // Sent again without a retry in between, an existing id is the caller's mistake.
  auto again = add_tasks(*f.client, "j", {json{{"id", "t007"}, {"commandLine", "true"}}});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().kind, ErrorKind::Conflict);
  EXPECT_EQ(again.error().message.rfind("task t007: TaskExists: ", 0), 0u) << again.error().message;
  auto twice = add_tasks(*f.client, "j", {json{{"id", "x"}}, json{{"id", "x"}}});
  EXPECT_EQ(twice.error().kind, ErrorKind::Usage);
  EXPECT_EQ(add_tasks(*f.client, "j", {json{{"commandLine", "a"}}}).error().kind, ErrorKind::Usage);
  auto bad = add_tasks(*f.client, "j", {json{{"id", "bad id!"}, {"commandLine", "true"}}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("task bad id!: InvalidPropertyValue"), std::string::npos)
      << bad.error().message;
}

// A hundred tasks with many resourceFiles each exceed the 1 MiB a request may carry (the service
// answers RequestBodyTooLarge): collections are cut by size too. 30 tasks of some 50,000 bytes
// make 1.5 MB: two collections.
TEST(BatchActions, AddTasksKeepsEachCollectionUnderAMegabyte) {
  Fixture f;
  f.pool("p", 0);
  f.job("j", "p");
  ASSERT_TRUE(f.client->call("POST", "/__trainyard/reset-counters").ok());
  std::vector<json> tasks;
  for (int i = 0; i < 30; ++i) {
    json files = json::array();
    for (int k = 0; k < 250; ++k)
      files.push_back({{"httpUrl", "http://127.0.0.1:1/c/" + std::string(150, 'x')},
                       {"filePath", fmt::format("in/{:03}", k)}});
    tasks.push_back(
        {{"id", fmt::format("t{:02}", i)}, {"commandLine", "true"}, {"resourceFiles", files}});
  }
  const size_t one = tasks[0].dump().size() + 1;
  ASSERT_GT(one * 30, size_t{1'048'576});
  auto added = add_tasks(*f.client, "j", tasks);
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_EQ(added->added, 30);
  EXPECT_EQ(added->collections, 2) << "one task: " << one << " bytes";
  auto counters = f.raw("/__trainyard/counters");
  EXPECT_EQ(counters["paths"]["POST /jobs/{}/addtaskcollection"]["requests"], 2);
}

TEST(BatchActions, AddTasksIsRetrySafeUnderFaults) {
  Fixture f;
  f.pool("p", 0);
  f.job("j", "p");
  // truncate: the service adds the collection, then the answer is cut, so the re-sent
  // collection meets its own tasks (TaskExists); 500 and 429 are refused before anything lands.
  f.faults("truncate=0.3,500=0.1,429=0.05,retry-after=0,seed=3");
  auto added = add_tasks(*f.client, "j", numbered_tasks(250));
  f.faults("");
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_EQ(added->added, 250);
  EXPECT_EQ(added->collections, 3);
  EXPECT_GT(f.client->stats().retries, 0u);
  auto counters = f.raw("/__trainyard/counters");
  // More than 3 answers of 200: at least one collection landed and lost its answer.
  EXPECT_GT(counters["paths"]["POST /jobs/{}/addtaskcollection"]["statuses"]["200"].get<int>(), 3)
      << counters.dump();
  auto tasks = f.client->tasks("j");
  ASSERT_TRUE(tasks.ok());
  std::set<std::string> ids;
  for (const auto& t : *tasks) ids.insert(t.id);
  EXPECT_EQ(tasks->size(), 250u);
  EXPECT_EQ(ids.size(), 250u);
}

TEST(BatchActions, ResizeIsRetrySafeUnderFaults) {
  Fixture f;
  f.pool("p", 0);
  f.faults("truncate=0.5,retry-after=0,seed=1");
  auto ok = resize_pool(*f.client, "p", 2, std::nullopt);
  f.faults("");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(get_pool(*f.client, "p")->target_dedicated_nodes, 2);
}

// A server that fails the first attempt of each path with a 500 and then answers `then`:
// what a client sees when its first attempt landed but the answer was lost.
class SecondAnswer {
 public:
  explicit SecondAnswer(int status, std::string code)
      : server_([this, status, code](httplib::Server& s) {
          s.Post(".*", [this, status, code](const httplib::Request& req, httplib::Response& res) {
            const bool first = seen_.insert(req.path).second;
            res.status = first ? 500 : status;
            res.set_content(json{{"code", first ? "InternalError" : code},
                                 {"message", {{"lang", "en-US"}, {"value", "as told"}}}}
                                .dump(),
                            "application/json");
          });
        }) {}

 private:
  std::set<std::string> seen_;  // before the server, whose handler fills it
  azuretest::LoopbackBatchServer server_;

 public:
  BatchClient* client = server_.client.get();
};

TEST(BatchActions, ARetriedActionMeetingItsOwnResultSucceeds) {
  SecondAnswer busy(409, "PoolNotSteady");
  EXPECT_TRUE(resize_pool(*busy.client, "p", 2, std::nullopt).ok());
  EXPECT_TRUE(remove_nodes(*busy.client, "p", {"n"}).ok());
  SecondAnswer rebooting(409, "NodeNotReady");
  EXPECT_TRUE(reboot_node(*rebooting.client, "p", "n").ok());
  SecondAnswer ended(409, "JobCompleted");
  EXPECT_TRUE(terminate_job(*ended.client, "j").ok());
  // Another conflict after a retry is still a failure.
  SecondAnswer other(409, "AutoScalingEnabled");
  auto r = resize_pool(*other.client, "p", 2, std::nullopt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.rfind("AutoScalingEnabled: as told (HTTP 409", 0), 0u);
}

TaskAddResult result(const std::string& id, TaskAddStatus status, const std::string& code = "") {
  TaskAddResult r;
  r.task_id = id;
  r.status = status;
  if (!code.empty()) r.error = BatchError{code, "because", {}};
  return r;
}

TEST(BatchActions, ClassifiesTaskAddResults) {
  std::vector<TaskAddResult> results{result("a", TaskAddStatus::Success),
                                     result("b", TaskAddStatus::ClientError, "TaskExists"),
                                     result("c", TaskAddStatus::ServerError, "ServerBusy"),
                                     result("d", TaskAddStatus::ServerError, "InternalError")};
  auto retried = classify_task_adds(results, true);
  EXPECT_EQ(retried.added, 2);
  EXPECT_EQ(retried.retry, (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(retried.retry_reason, "task c: ServerBusy: because");
  EXPECT_FALSE(retried.error.has_value());
  auto first = classify_task_adds(results, false);
  EXPECT_EQ(first.added, 1);
  ASSERT_TRUE(first.error.has_value());
  EXPECT_EQ(first.error->message, "task b: TaskExists: because");
  results.push_back(result("e", TaskAddStatus::ClientError, "InvalidPropertyValue"));
  auto bad = classify_task_adds(results, true);
  ASSERT_TRUE(bad.error.has_value());
  EXPECT_EQ(bad.error->message, "task e: InvalidPropertyValue: because");
}

}  // namespace
}  // namespace trainyard::azure::batch_actions_test
