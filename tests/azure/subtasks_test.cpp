// Multi-instance tasks from Batch: multiInstanceSettings and subtasksinfo parsed from the spec's
// examples, and a round trip through the emulator into the cache.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "azure/batch_actions.hpp"
#include "azure/parse.hpp"
#include "emulator_client.hpp"
#include "emulator_process.hpp"
#include "store/store.hpp"
#include "sync/entity_refresh.hpp"

namespace trainyard::azure::subtasks_test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

json fixture(const std::string& name) {
  std::ifstream in(TRAINYARD_SOURCE_DIR "/tests/azure/fixtures/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::ostringstream out;
  out << in.rdbuf();
  return json::parse(out.str());
}

TEST(ParseSubtasks, SpecExample) {
  auto body = fixture("subtasks_list.json");
  ASSERT_EQ(body["value"].size(), 2u);
  auto first = parse_subtask(body["value"][0]);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->id, 1);
  EXPECT_EQ(first->state, TaskState::Completed);
  EXPECT_EQ(first->execution_info.exit_code, 0);
  ASSERT_TRUE(first->execution_info.start_time && first->execution_info.end_time);
  ASSERT_TRUE(first->node_info);
  EXPECT_EQ(first->node_info->pool_id, "mpiPool");
  EXPECT_EQ(first->node_info->node_id, "tvm-2544493925_3-20160905t051718z");
  auto second = parse_subtask(body["value"][1]);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->state, TaskState::Running);
  EXPECT_FALSE(second->execution_info.end_time);
  EXPECT_FALSE(second->execution_info.exit_code);
}

TEST(ParseSubtasks, MalformedIsAnErrorNamingTheField) {
  auto no_id = parse_subtask(json{{"state", "running"}});
  ASSERT_FALSE(no_id.ok());
  EXPECT_NE(no_id.error().message.find("id"), std::string::npos);
  auto bad_exit = parse_subtask(json{{"id", 1}, {"exitCode", "zero"}});
  ASSERT_FALSE(bad_exit.ok());
  EXPECT_NE(bad_exit.error().message.find("exitCode"), std::string::npos);
}

TEST(ParseSubtasks, TaskMultiInstanceSettings) {
  json t{{"id", "mpi"},
         {"commandLine", "mpirun -n 2 app"},
         {"state", "active"},
         {"multiInstanceSettings",
          {{"numberOfInstances", 3}, {"coordinationCommandLine", "start smpd"}}}};
  auto task = parse_task(t, "acct", "job");
  ASSERT_TRUE(task.ok()) << task.error().message;
  ASSERT_TRUE(task->multi_instance);
  EXPECT_EQ(task->multi_instance->number_of_instances, 3);
  EXPECT_EQ(task->multi_instance->coordination_command_line, "start smpd");
  t["multiInstanceSettings"]["numberOfInstances"] = "three";
  EXPECT_FALSE(parse_task(t, "acct", "job").ok());
}

bool wait_until(const std::function<bool()>& fn, int seconds = 30) {
  for (int i = 0; i < seconds * 20; ++i) {
    if (fn()) return true;
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

TEST(EmulatorSubtasks, AMultiInstanceTaskAndItsSubtasksReachTheCache) {
  azuretest::EmulatorProcess emu;
  SystemClock clock;
  auto client = azuretest::emulator_client(emu, clock);
  ASSERT_TRUE(
      create_pool(*client, json{{"id", "p"}, {"vmSize", "x"}, {"targetDedicatedNodes", 2}}).ok());
  ASSERT_TRUE(wait_until([&] {
    auto n = client->nodes("p");
    if (!n || n->size() != 2) return false;
    for (const auto& node : *n)
      if (node.state != NodeState::Idle) return false;
    return true;
  }));
  ASSERT_TRUE(create_job(*client, json{{"id", "j"}, {"poolInfo", {{"poolId", "p"}}}}).ok());
  ASSERT_TRUE(client
                  ->add_task("j", json{{"id", "mpi"},
                                       {"commandLine", "echo primary"},
                                       {"multiInstanceSettings",
                                        {{"numberOfInstances", 2},
                                         {"coordinationCommandLine", "echo coordinated"}}}})
                  .ok());
  ASSERT_TRUE(wait_until([&] {
    auto t = get_task(*client, "j", "mpi");
    return t && t->state == TaskState::Completed;
  }));
  char tmpl[] = "/tmp/trainyard-subtasks-XXXXXX";
  std::string dir = mkdtemp(tmpl);
  auto store = Store::open(dir + "/cache.db");
  ASSERT_TRUE(store.ok());
  auto cached = cache_task(**store, *client, "j", "mpi");
  ASSERT_TRUE(cached.ok()) << cached.error().message;
  ASSERT_TRUE(cached->has_value() && (*cached)->multi_instance);
  EXPECT_EQ((*cached)->multi_instance->number_of_instances, 2);
  auto subs = (*store)->subtasks(emu.account(), "j", "mpi");
  ASSERT_TRUE(subs.ok());
  ASSERT_EQ(subs->size(), 1u);
  EXPECT_EQ((*subs)[0].id, 1);
  EXPECT_EQ((*subs)[0].state, TaskState::Completed);
  ASSERT_TRUE((*subs)[0].node_info);
  EXPECT_FALSE((*subs)[0].node_info->node_id.empty());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace trainyard::azure::subtasks_test
