// Batch JSON parsers against the official spec examples, hand-written edge cases and mutations.
#include "azure/parse.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

namespace trainyard::azure::parse_test {
namespace {

using nlohmann::json;
using std::chrono::hours;
using std::chrono::minutes;

std::string fixture(const std::string& name) {
  std::ifstream in(TRAINYARD_SOURCE_DIR "/tests/azure/fixtures/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

json doc(const std::string& name) {
  return json::parse(fixture(name));
}

Timestamp ts(const char* text) {
  return parse_iso8601(text).value();
}

// The message of a failed parse, or "ok" so a wrong success shows up in the comparison.
template <typename T>
std::string error_of(const Result<T>& r) {
  if (r.ok()) return "ok";
  EXPECT_EQ(r.error().kind, ErrorKind::Parse);
  return r.error().message;
}

Result<Task> task_from(const char* text) {
  return parse_task(json::parse(text), "acct", "job");
}

TEST(ParseFixtures, PoolGetBasic) {
  auto p = parse_pool(doc("pool_get_basic.json"), "acct");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->account, "acct");
  EXPECT_EQ(p->id, "pool");
  EXPECT_EQ(p->display_name, "");
  EXPECT_EQ(p->vm_size, "standard_a1");
  EXPECT_EQ(p->state, PoolState::Active);
  EXPECT_EQ(p->allocation_state, AllocationState::Steady);
  EXPECT_EQ(p->current_dedicated_nodes + p->target_dedicated_nodes, 0);
  EXPECT_EQ(p->current_low_priority_nodes + p->target_low_priority_nodes, 0);
  EXPECT_EQ(p->task_slots_per_node, 1);
  EXPECT_EQ(p->creation_time, ts("2016-11-22T18:55:24.2632496Z"));
  EXPECT_EQ(p->state_transition_time, ts("2016-11-22T18:55:24.2632496Z"));
  EXPECT_EQ(format_iso8601(*p->creation_time), "2016-11-22T18:55:24.2632490Z");
  EXPECT_EQ(p->last_modified, ts("2016-11-22T18:55:25.2608598Z"));
  EXPECT_EQ(p->etag, "0x8D413091E739A56");
  auto old = parse_pool(doc("pool_get_extensions_2022.json"), "acct");
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->id, "pool");
  EXPECT_EQ(old->vm_size, "standard_a1");
}

TEST(ParseFixtures, PoolListAndWireShape) {
  auto page = parse_list_page(fixture("pool_list_2022.json"));
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->next_link, "");
  ASSERT_EQ(page->items.size(), 1u);
  auto listed = parse_pool(page->items[0], "a");
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->id, "testPool");
  EXPECT_EQ(listed->vm_size, "small");
  EXPECT_EQ(listed->current_dedicated_nodes, 3);
  EXPECT_EQ(listed->target_dedicated_nodes, 3);
  auto p = parse_pool(doc("pool_wire.json"), "a");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->display_name, "A100 pool");
  EXPECT_EQ(p->vm_size, "standard_nd96asr_v4");
  EXPECT_EQ(p->allocation_state, AllocationState::Resizing);
  EXPECT_EQ(p->current_dedicated_nodes, 2);
  EXPECT_EQ(p->target_dedicated_nodes, 4);
  EXPECT_EQ(p->current_low_priority_nodes, 1);
  EXPECT_EQ(p->target_low_priority_nodes, 3);
  EXPECT_EQ(p->task_slots_per_node, 8);
  EXPECT_EQ(p->creation_time, ts("2024-03-01T08:00:00Z"));
  EXPECT_EQ(p->state_transition_time, ts("2024-03-01T08:00:01.5Z"));
}

TEST(ParseFixtures, PoolOldApiMaxTasksPerNode) {
  auto p = parse_pool(doc("pool_max_tasks_per_node.json"), "a");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->task_slots_per_node, 4);
  EXPECT_EQ(p->vm_size, "STANDARD_A1");
  EXPECT_EQ(p->current_dedicated_nodes, 3);
  json both = doc("pool_max_tasks_per_node.json");
  both["taskSlotsPerNode"] = 6;
  EXPECT_EQ(parse_pool(both, "a")->task_slots_per_node, 6);
}

TEST(ParseFixtures, NodesList) {
  auto page = parse_list_page(fixture("nodes_list.json"));
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->items.size(), 3u);
  auto n = parse_node(page->items[0], "acct", "poolId");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->account, "acct");
  EXPECT_EQ(n->pool_id, "poolId");
  EXPECT_EQ(n->id, "tvm-1695681911_1-20161122t193202z");
  EXPECT_EQ(n->state, NodeState::Idle);
  EXPECT_EQ(n->scheduling_state, SchedulingState::Enabled);
  EXPECT_EQ(n->vm_size, "Standard_D2_v5");
  EXPECT_EQ(n->ip_address, "1.1.1.1");
  EXPECT_EQ(n->running_tasks_count, 0);
  EXPECT_EQ(n->running_task_slots_count, 0);
  EXPECT_EQ(n->total_tasks_run, 0);
  EXPECT_EQ(n->task_slots, 1);  // not on the wire
  EXPECT_EQ(n->state_transition_time, ts("2025-11-22T22:22:27.2236818Z"));
  EXPECT_EQ(parse_node(page->items[2], "a", "p")->id, "tvm-1695681911_3-20161122t193202z");
  auto old = parse_node(doc("node_get_2022.json"), "a", "p");
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->vm_size, "small");
  EXPECT_EQ(old->state_transition_time, ts("2016-11-22T19:37:31.4285526Z"));
}

TEST(ParseFixtures, Jobs) {
  auto j = parse_job(doc("job_get.json"), "acct");
  ASSERT_TRUE(j.ok());
  EXPECT_EQ(j->account, "acct");
  EXPECT_EQ(j->id, "jobId");
  EXPECT_EQ(j->pool_id, "poolId");
  EXPECT_EQ(j->state, JobState::Completed);
  EXPECT_EQ(j->priority, 0);
  EXPECT_EQ(j->creation_time, ts("2016-11-19T00:05:25.311915Z"));
  EXPECT_EQ(j->state_transition_time, ts("2016-11-19T00:05:27.578581Z"));
  EXPECT_TRUE(j->metadata.empty());
  EXPECT_EQ(j->last_modified, ts("2016-11-19T00:05:27.5391608Z"));
  EXPECT_EQ(j->etag, "0x8D4100FC49F0278");
  auto page = parse_list_page(fixture("job_list_2022.json"));
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(parse_job(page->items.at(0), "a")->state, JobState::Active);
  auto w = parse_job(doc("job_wire.json"), "a");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->display_name, "LR sweep");
  EXPECT_EQ(w->state, JobState::Terminating);
  EXPECT_EQ(w->priority, -250);
  EXPECT_EQ(w->pool_id, "gpu");
  EXPECT_EQ(w->metadata, (std::vector<NameValue>{{"owner", "alice"}, {"sweep", "lr=1e-3"}}));
  EXPECT_EQ(parse_job(doc("job_auto_pool.json"), "a")->pool_id, "ap_8c2e1f");
}

TEST(ParseFixtures, TaskGetAndList) {
  auto t = parse_task(doc("task_get_2022.json"), "acct", "jobId");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->account, "acct");
  EXPECT_EQ(t->job_id, "jobId");
  EXPECT_EQ(t->id, "testTask");
  EXPECT_EQ(t->command_line, "cmd /c hostname");
  EXPECT_EQ(t->state, TaskState::Active);
  EXPECT_EQ(t->previous_state, std::nullopt);
  EXPECT_EQ(t->creation_time, ts("2016-09-06T06:59:15.1161429Z"));
  EXPECT_EQ(t->last_modified, ts("2016-09-06T06:59:15.1161429Z"));
  EXPECT_EQ(t->etag, "0x8D3D62350711C55");
  EXPECT_EQ(t->constraints.max_wall_clock_time, std::nullopt);  // "unlimited"
  EXPECT_EQ(t->constraints.max_task_retry_count, 0);
  EXPECT_EQ(t->required_slots, 2);
  EXPECT_EQ(t->execution_info.retry_count, 0);
  EXPECT_EQ(t->execution_info.start_time, std::nullopt);
  EXPECT_FALSE(t->node_info.has_value());
  auto page = parse_list_page(fixture("tasks_list.json"));
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->items.size(), 2u);
  auto t2 = parse_task(page->items[1], "a", "j");
  ASSERT_TRUE(t2.ok());
  EXPECT_EQ(t2->id, "task2");
  EXPECT_EQ(t2->constraints.max_task_retry_count, 3);
  EXPECT_EQ(t2->state_transition_time, ts("2016-11-21T22:43:31.6736345Z"));
}

TEST(ParseFixtures, TaskWithEveryField) {
  auto t = parse_task(doc("task_full_wire.json"), "a", "sweep");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->display_name, "Train fold 3");
  EXPECT_EQ(t->state, TaskState::Completed);
  EXPECT_EQ(t->previous_state, TaskState::Running);
  EXPECT_EQ(t->environment_settings, (std::vector<NameValue>{{"FOLD", "3"}, {"EMPTY", ""}}));
  EXPECT_EQ(t->constraints.max_wall_clock_time, hours(2) + minutes(30));
  EXPECT_EQ(t->constraints.max_task_retry_count, -1);
  EXPECT_EQ(t->depends_on.task_ids,
            (std::vector<std::string>{"prep", "download", "1", "2", "3", "10"}));
  EXPECT_EQ(t->required_slots, 4);
  const ExecutionInfo& e = t->execution_info;
  EXPECT_EQ(e.start_time, ts("2024-03-01T10:05:00.1Z"));
  EXPECT_EQ(e.end_time, ts("2024-03-01T11:30:15.25Z"));
  EXPECT_EQ(e.exit_code, 137);
  EXPECT_EQ(e.result, TaskResult::Failure);
  ASSERT_TRUE(e.failure_info.has_value());
  EXPECT_EQ(e.failure_info->category, ErrorCategory::UserError);
  EXPECT_EQ(e.failure_info->code, "FailureExitCode");
  EXPECT_EQ(e.failure_info->message, "The task exited with an exit code representing a failure");
  EXPECT_EQ(e.failure_info->details,
            (std::vector<NameValue>{{"Message", "The task exited with exit code 137"}}));
  EXPECT_EQ(e.retry_count, 2);
  EXPECT_EQ(e.last_retry_time, ts("2024-03-01T10:50:00Z"));
  EXPECT_EQ(e.requeue_count, 1);
  ASSERT_TRUE(t->node_info.has_value());
  EXPECT_EQ(t->node_info->pool_id, "gpu");
  EXPECT_EQ(t->node_info->node_id, "tvm-1_1-20240301t100000z");
  EXPECT_EQ(t->node_info->task_root_directory, "workitems/sweep/job-1/train-3");
}

TEST(ParseFixtures, TaskAddCollections) {
  for (const char* name : {"task_add_collection_2022.json", "task_add_collection_complex.json"}) {
    auto r = parse_task_add_results(fixture(name));
    ASSERT_TRUE(r.ok()) << name;
    ASSERT_EQ(r->size(), 2u);
    EXPECT_EQ((*r)[0].status, TaskAddStatus::Success);
    EXPECT_FALSE((*r)[1].error.has_value());
  }
  EXPECT_EQ(parse_task_add_results(fixture("task_add_collection_2022.json"))->at(1).etag,
            "0x8D3D623CD7072CC");
  auto r = parse_task_add_results(fixture("task_add_collection_mixed.json"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 4u);
  EXPECT_EQ((*r)[0].task_id, "t1");
  EXPECT_EQ((*r)[1].status, TaskAddStatus::ClientError);
  ASSERT_TRUE((*r)[1].error.has_value());
  EXPECT_EQ((*r)[1].error->code, "TaskExists");
  EXPECT_EQ((*r)[1].error->message, "The specified task already exists.");
  EXPECT_EQ((*r)[2].status, TaskAddStatus::ServerError);
  EXPECT_EQ((*r)[3].status, TaskAddStatus::ServerError);  // unknown status
  EXPECT_EQ(error_of(parse_task_add_results(R"({"value":[{"status":"success"}]})")),
            "/value/0/taskId: missing");
}

TEST(ParseFixtures, BatchErrors) {
  auto e = parse_batch_error(fixture("error_task_exists.json"));
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->code, "TaskExists");
  EXPECT_EQ(e->message, "The specified task already exists.");
  EXPECT_EQ(e->values, (std::vector<NameValue>{{"TaskId", "task1"}, {"Reason", "Duplicate"}}));
  auto m = parse_batch_error(fixture("error_missing_api_version.json"));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->message, "A query parameter that's mandatory for this request is not specified.");
  EXPECT_EQ(m->values, (std::vector<NameValue>{{"QueryParameterName", "api-version"}}));
  auto plain = parse_batch_error(R"({"error":{"code":"AuthorizationFailed","message":"No."}})");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->code, "AuthorizationFailed");
  EXPECT_EQ(plain->message, "No.");
  EXPECT_EQ(error_of(parse_batch_error(R"({"value":[]})")), "/code: missing");
  EXPECT_EQ(error_of(parse_batch_error(R"({"code":"X","values":[{"value":"v"}]})")),
            "/values/0/key: missing");
  EXPECT_EQ(error_of(parse_batch_error("Bad Gateway")), "not JSON at byte 1");
}

TEST(ParseErrors, BodiesThatAreNotPages) {
  EXPECT_EQ(error_of(parse_list_page(fixture("malformed_html.json"))), "not JSON at byte 1");
  EXPECT_EQ(error_of(parse_list_page(fixture("malformed_truncated_page.json"))),
            "not JSON at byte 131");  // one past the end: the file is 130 bytes
  EXPECT_EQ(error_of(parse_list_page("")), "not JSON at byte 1");
  EXPECT_EQ(error_of(parse_list_page(fixture("malformed_value_not_array.json"))),
            "/value: expected an array, got an object");
  EXPECT_EQ(error_of(parse_list_page("{}")), "/value: missing");
  EXPECT_EQ(error_of(parse_list_page("[1]")), "(root): expected an object, got an array");
  EXPECT_EQ(error_of(parse_list_page(R"({"value":[],"odata.nextLink":5})")),
            "/odata.nextLink: expected a string, got a number");
  auto last = parse_list_page(R"({"value":[],"odata.nextLink":null})");
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last->next_link, "");
  auto more =
      parse_list_page(R"({"value":[{},{}],"odata.nextLink":"https://x/pools?$skiptoken=1"})");
  ASSERT_TRUE(more.ok());
  EXPECT_EQ(more->items.size(), 2u);
  EXPECT_EQ(more->next_link, "https://x/pools?$skiptoken=1");
}

TEST(ParseErrors, SizeAndDepthLimits) {
  std::string deep(static_cast<std::size_t>(kMaxJsonDepth), '[');
  deep += std::string(deep.size(), ']');
  EXPECT_TRUE(parse_json_body(deep).ok());
  EXPECT_EQ(error_of(parse_json_body("[" + deep + "]")),
            "nested deeper than 128 levels at byte 129");
  EXPECT_TRUE(parse_json_body(R"(["[[[[", {"a":"\"{{{{"}])").ok());
  static_assert(kMaxBodyBytes == 64u << 20);
  // 8 MiB, not 64: a Debug nlohmann needs seconds for 64; what is over the limit is refused early.
  std::string big = R"({"value":[{"id":")" + std::string(8u << 20, 'x') + R"("}]})";
  auto page = parse_list_page(big);
  ASSERT_TRUE(page.ok()) << page.error().message;
  EXPECT_EQ(page->items.size(), 1u);
  EXPECT_EQ(error_of(parse_list_page(std::string(kMaxBodyBytes + 1, ' '))),
            "body is 67108865 bytes, over the 64 MiB limit");
}

TEST(ParseErrors, WrongTypesNameTheirPointer) {
  EXPECT_EQ(error_of(parse_task(doc("malformed_task_types.json"), "a", "j")),
            "/executionInfo: expected an object, got a string");
  const std::pair<const char*, const char*> cases[] = {
      {R"({"id":5})", "/id: expected a string, got a number"},
      {R"({"state":"active"})", "/id: missing"},
      {R"("task")", "(root): expected an object, got a string"},
      {R"({"id":"t","state":7})", "/state: expected a string, got a number"},
      {R"({"id":"t","creationTime":"yesterday"})",
       "/creationTime: not an ISO 8601 UTC time: 'yesterday'"},
      {R"({"id":"t","constraints":{"maxWallClockTime":"soon"}})",
       "/constraints/maxWallClockTime: not an ISO 8601 duration: 'soon'"},
      {R"({"id":"t","requiredSlots":1.5})", "/requiredSlots: expected an integer, got 1.5"},
      {R"({"id":"t","requiredSlots":"2"})", "/requiredSlots: expected an integer, got a string"},
      {R"({"id":"t","executionInfo":{"exitCode":4294967296}})",
       "/executionInfo/exitCode: 4294967296 is out of range"},
      {R"({"id":"t","executionInfo":{"failureInfo":[]}})",
       "/executionInfo/failureInfo: expected an object, got an array"},
      {R"({"id":"t","environmentSettings":[{"name":"A"},{"value":"v"}]})",
       "/environmentSettings/1/name: missing"},
      {R"({"id":"t","dependsOn":{"taskIds":["a",true]}})",
       "/dependsOn/taskIds/1: expected a string, got a boolean"},
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(error_of(task_from(text)), want) << text;
  EXPECT_EQ(error_of(parse_job(json::parse(R"({"id":"j","metadata":{}})"), "a")),
            "/metadata: expected an array, got an object");
  EXPECT_EQ(
      error_of(parse_pool(json::parse(R"({"id":"p","targetDedicatedNodes":-3000000000})"), "a")),
      "/targetDedicatedNodes: -3000000000 is out of range");
  EXPECT_EQ(error_of(parse_node(json::parse(R"({"id":"n","ipAddress":[]})"), "a", "p")),
            "/ipAddress: expected a string, got an array");
  auto nulls = task_from(R"({"id":"t","displayName":null,"nodeInfo":null,"executionInfo":null})");
  ASSERT_TRUE(nulls.ok());
  EXPECT_FALSE(nulls->node_info.has_value());
}

TEST(ParseEnums, CaseInsensitive) {
  auto n = parse_node(
      json::parse(R"({"id":"n","state":"WaitingForStartTask","schedulingState":"DISABLED"})"), "a",
      "p");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->state, NodeState::WaitingForStartTask);
  EXPECT_EQ(n->scheduling_state, SchedulingState::Disabled);
  EXPECT_EQ(
      task_from(R"({"id":"t","state":"Running","previousState":"PREPARING"})")->previous_state,
      TaskState::Preparing);
}

TEST(ParseEnums, UnknownValuesGetDefaults) {
  auto p = parse_pool(
      json::parse(R"({"id":"p","state":"upgrading","allocationState":"shrinking"})"), "a");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->state, PoolState::Active);
  EXPECT_EQ(p->allocation_state, AllocationState::Resizing);
  auto n = parse_node(
      json::parse(R"({"id":"n","state":"hibernating","schedulingState":"draining"})"), "a", "p");
  EXPECT_EQ(n->state, NodeState::Unknown);
  EXPECT_EQ(n->scheduling_state, SchedulingState::Disabled);
  EXPECT_EQ(parse_job(json::parse(R"({"id":"j","state":"archiving"})"), "a")->state,
            JobState::Active);
  auto t = task_from(R"({"id":"t","state":"paused","previousState":"paused","executionInfo":
      {"result":"cancelled","failureInfo":{"category":"platformerror","code":"C"}}})");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->state, TaskState::Active);
  EXPECT_EQ(t->previous_state, std::nullopt);
  EXPECT_EQ(t->execution_info.result, TaskResult::Failure);
  EXPECT_EQ(t->execution_info.failure_info->category, ErrorCategory::UserError);
}

TEST(ParseDurations, UnlimitedAndLong) {
  auto wall = [](const std::string& text) {
    return task_from(
               ("{\"id\":\"t\",\"constraints\":{\"maxWallClockTime\":\"" + text + "\"}}").c_str())
        ->constraints.max_wall_clock_time;
  };
  EXPECT_EQ(wall("P10675199DT2H48M5.4775807S"), std::nullopt);
  EXPECT_EQ(wall("p10675199dt2h48m5.4775807s"), std::nullopt);
  EXPECT_EQ(wall("P10675199DT2H48M5.47758S"), std::nullopt);  // what format_iso_duration writes
  EXPECT_EQ(wall("P99999999999W"), std::nullopt);
  EXPECT_EQ(wall("P1D"), hours(24));
  EXPECT_EQ(wall("PT15M"), minutes(15));
  EXPECT_EQ(wall("PT0S"), Duration(0));
  EXPECT_EQ(wall("P10675198D"), hours(24) * 10675198);
}

TEST(ParseDependsOn, RangesExpandUpToTheCap) {
  auto deps = [](const std::string& depends_on) {
    return task_from(("{\"id\":\"t\",\"dependsOn\":" + depends_on + "}").c_str());
  };
  auto ok = deps(R"({"taskIdRanges":[{"start":-2,"end":0},{"start":7,"end":7}]})");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->depends_on.task_ids, (std::vector<std::string>{"-2", "-1", "0", "7"}));
  EXPECT_EQ(deps(R"({"taskIdRanges":[{"start":1,"end":100000}]})")->depends_on.task_ids.size(),
            100000u);
  EXPECT_EQ(error_of(deps(R"({"taskIds":["a"],"taskIdRanges":[{"start":1,"end":100000}]})")),
            "/dependsOn/taskIdRanges/0: dependsOn expands to more than 100000 task ids");
  EXPECT_EQ(error_of(deps(R"({"taskIdRanges":[{"start":0,"end":2147483647}]})")),
            "/dependsOn/taskIdRanges/0: dependsOn expands to more than 100000 task ids");
  EXPECT_EQ(error_of(deps(R"({"taskIdRanges":[{"start":5,"end":3}]})")),
            "/dependsOn/taskIdRanges/0: end 3 is before start 5");
  EXPECT_EQ(error_of(deps(R"({"taskIdRanges":[{"start":1}]})")),
            "/dependsOn/taskIdRanges/0/end: missing");
  EXPECT_EQ(error_of(deps(R"({"taskIdRanges":[7]})")),
            "/dependsOn/taskIdRanges/0: expected an object, got a number");
}

// Every node of `j`, for type-changing mutations.
void collect(json& j, std::vector<json*>& out) {
  out.push_back(&j);
  if (j.is_structured())
    for (auto& child : j) collect(child, out);
}

std::string mutate(const std::string& text, std::mt19937& rng) {
  if (text.empty()) return "{";
  auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  std::string out = text;
  switch (pick(4)) {
    case 0:
      return out.substr(0, pick(out.size()));
    case 1:
      out[pick(out.size())] = static_cast<char>(pick(256));
      return out;
    case 2:
      out.insert(pick(out.size()), std::string(pick(3) + 1, "{[\"]},:\\0-e"[pick(11)]));
      return out;
    default:
      break;
  }
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return out.substr(0, pick(out.size()));
  std::vector<json*> nodes;
  collect(j, nodes);
  static const json kReplacements = json::parse(R"([5, "x", {}, [], null, true, -1, 1e300,
      4294967296, "P10675199DT2H48M5.4775807S", "2016-13-45T99:99:99Z", [{}]])");
  *nodes[pick(nodes.size())] = kReplacements[pick(kReplacements.size())];
  return j.dump();
}

// Runs every parser on `text`; only the absence of crashes and of non-Parse errors is checked.
void parse_everything(const std::string& text) {
  (void)error_of(parse_batch_error(text));
  (void)error_of(parse_task_add_results(text));
  auto page = parse_list_page(text);
  auto body = parse_json_body(text);
  if (!body) return;
  std::vector<json> items = page ? page->items : std::vector<json>{};
  items.push_back(*body);
  for (const json& item : items) {
    (void)error_of(parse_pool(item, "a"));
    (void)error_of(parse_node(item, "a", "p"));
    (void)error_of(parse_job(item, "a"));
    (void)error_of(parse_task(item, "a", "j"));
  }
}

TEST(ParseMutation, TwoThousandMutationsNeverCrash) {
  std::vector<std::string> names;  // sorted, so the run is the same everywhere
  for (const auto& e :
       std::filesystem::directory_iterator(TRAINYARD_SOURCE_DIR "/tests/azure/fixtures"))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  ASSERT_GE(names.size(), 20u);
  std::mt19937 rng(20240301);
  for (int i = 0; i < 2000; ++i) {
    std::string text = fixture(names[static_cast<std::size_t>(i) % names.size()]);
    for (int rounds = i % 3; rounds >= 0; --rounds) text = mutate(text, rng);
    parse_everything(text);
    if (::testing::Test::HasFailure()) FAIL() << "mutation " << i << ": " << text;
  }
}

}  // namespace
}  // namespace trainyard::azure::parse_test
