// Spot nodes, requeues and a task's resource and output files from the spec's examples (with Spot
// counts, a preempted Spot node and file lists added): what the parsers keep, SAS signatures
// left out.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "azure/parse.hpp"

namespace trainyard::azure::parse_spot_files_test {
namespace {

using nlohmann::json;

json doc(const std::string& name) {
  std::ifstream in(TRAINYARD_SOURCE_DIR "/tests/azure/fixtures/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::ostringstream out;
  out << in.rdbuf();
  return json::parse(out.str());
}

TEST(ParseSpot, PoolCountsDedicatedAndSpotApart) {
  auto p = parse_pool(doc("pool_get_spot.json"), "a");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->current_dedicated_nodes, 0);
  EXPECT_EQ(p->target_dedicated_nodes, 0);
  EXPECT_EQ(p->current_low_priority_nodes, 1);
  EXPECT_EQ(p->target_low_priority_nodes, 2);
}

TEST(ParseSpot, NodeSaysWhetherItIsDedicated) {
  auto page = doc("nodes_list_spot.json");
  auto dedicated = parse_node(page["value"][0], "a", "p");
  auto spot = parse_node(page["value"][1], "a", "p");
  auto unsaid = parse_node(page["value"][2], "a", "p");
  ASSERT_TRUE(dedicated.ok() && spot.ok() && unsaid.ok());
  EXPECT_TRUE(dedicated->is_dedicated);
  EXPECT_FALSE(spot->is_dedicated);
  EXPECT_EQ(spot->state, NodeState::Preempted);
  // A node whose wire leaves it out (older API versions) counts as dedicated, Batch's default.
  EXPECT_TRUE(unsaid->is_dedicated);
  json wrong = page["value"][0];
  wrong["isDedicated"] = "yes";
  auto bad = parse_node(wrong, "a", "p");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "/isDedicated: expected a boolean, got a string");
}

TEST(ParseSpot, TaskKeepsRequeuesConstraintsAndEnvironment) {
  auto t = parse_task(doc("task_files_wire.json"), "a", "j");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->execution_info.retry_count, 1);
  EXPECT_EQ(t->execution_info.requeue_count, 2);
  EXPECT_EQ(t->constraints.max_task_retry_count, 2);
  EXPECT_EQ(t->constraints.max_wall_clock_time, std::chrono::hours(6));
  EXPECT_EQ(t->environment_settings, (std::vector<NameValue>{{"EPOCHS", "30"}}));
}

TEST(ParseFiles, ResourceFilesWithoutSignatures) {
  auto t = parse_task(doc("task_files_wire.json"), "a", "j");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->resource_files.size(), 3u);
  ResourceFile http;
  http.http_url = "https://acct.blob.core.windows.net/data/train.csv";
  http.file_path = "train.csv";
  http.file_mode = "0644";
  EXPECT_EQ(t->resource_files[0], http);
  ResourceFile container;
  container.storage_container_url = "https://acct.blob.core.windows.net/images";
  container.blob_prefix = "cifar/";
  container.file_path = "data";
  EXPECT_EQ(t->resource_files[1], container);
  ResourceFile autostorage;
  autostorage.auto_storage_container_name = "containerName";
  autostorage.file_path = "data2";
  autostorage.identity =
      "/subscriptions/s/resourceGroups/g/providers/Microsoft.ManagedIdentity/"
      "userAssignedIdentities/reader";
  EXPECT_EQ(t->resource_files[2], autostorage);
}

TEST(ParseFiles, OutputFilesWithoutSignatures) {
  auto t = parse_task(doc("task_files_wire.json"), "a", "j");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->output_files.size(), 2u);
  OutputFile checkpoints;
  checkpoints.file_pattern = "checkpoints/*.pt";
  checkpoints.container_url = "https://acct.blob.core.windows.net/out";
  checkpoints.path = "run-7/checkpoints";
  checkpoints.upload_headers = {{"x-ms-blob-content-type", "application/octet-stream"}};
  checkpoints.upload_condition = "tasksuccess";
  EXPECT_EQ(t->output_files[0], checkpoints);
  OutputFile logs;
  logs.file_pattern = "../std*.txt";
  logs.container_url = "https://acct.blob.core.windows.net/logs";
  logs.identity =
      "/subscriptions/s/resourceGroups/g/providers/Microsoft.ManagedIdentity/"
      "userAssignedIdentities/writer";
  logs.upload_condition = "taskcompletion";
  EXPECT_EQ(t->output_files[1], logs);
}

TEST(ParseFiles, AbsentListsAreEmptyAndWrongShapesNameTheirPointer) {
  auto plain = parse_task(json{{"id", "t"}}, "a", "j");
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain->resource_files.empty());
  EXPECT_TRUE(plain->output_files.empty());
  auto not_list = parse_task(json{{"id", "t"}, {"outputFiles", {{"filePattern", "x"}}}}, "a", "j");
  ASSERT_FALSE(not_list.ok());
  EXPECT_EQ(not_list.error().message, "/outputFiles: expected an array, got an object");
  auto bad_url = parse_task(
      json{{"id", "t"}, {"resourceFiles", json::array({{{"httpUrl", 7}, {"filePath", "f"}}})}}, "a",
      "j");
  ASSERT_FALSE(bad_url.ok());
  EXPECT_EQ(bad_url.error().message, "/resourceFiles/0/httpUrl: expected a string, got a number");
}

}  // namespace
}  // namespace trainyard::azure::parse_spot_files_test
