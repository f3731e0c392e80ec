// parse_task_page (streaming, no DOM) against parse_list_page + parse_task (DOM): the same Task,
// field by field, and one-line errors naming the place for malformed pages.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "azure/parse.hpp"
#include "azure/task_page.hpp"
#include "task_compare.hpp"

namespace trainyard::azure::task_page_test {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(TRAINYARD_SOURCE_DIR "/tests/azure/fixtures/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Parses `body` both ways and expects the same tasks and next link.
void expect_parsers_agree(const std::string& body, size_t tasks) {
  auto dom = parse_list_page(body);
  ASSERT_TRUE(dom.ok()) << dom.error().message;
  auto sax = parse_task_page(body, "acct", "job");
  ASSERT_TRUE(sax.ok()) << sax.error().message;
  ASSERT_EQ(dom->items.size(), tasks);
  ASSERT_EQ(sax->tasks.size(), tasks);
  EXPECT_EQ(sax->next_link, dom->next_link);
  for (size_t i = 0; i < tasks; ++i) {
    auto want = parse_task(dom->items[i], "acct", "job");
    ASSERT_TRUE(want.ok()) << want.error().message;
    EXPECT_EQ(azuretest::first_difference(*want, sax->tasks[i]), "") << "task " << i;
  }
}

std::string page_error(const std::string& body) {
  auto page = parse_task_page(body, "acct", "job");
  EXPECT_FALSE(page.ok()) << body;
  if (page.ok()) return "";
  EXPECT_EQ(page.error().kind, ErrorKind::Parse);
  EXPECT_EQ(page.error().message.find('\n'), std::string::npos) << page.error().message;
  return page.error().message;
}

TEST(TaskPage, TheSpecsTaskListMatchesTheDomParser) {
  expect_parsers_agree(fixture("tasks_list.json"), 2);  // task1 and task2
}

TEST(TaskPage, EveryFieldTheClientReadsMatchesTheDomParser) {
  const std::string body = R"({"odata.metadata":"x","value":[)" + fixture("task_full_wire.json") +
                           "," + fixture("task_files_wire.json") + "," +
                           fixture("task_get_2022.json") +
                           R"(],"odata.nextLink":"https://a.b/jobs/job/tasks?$skiptoken=7"})";
  expect_parsers_agree(body, 3);
  auto sax = parse_task_page(body, "acct", "job");
  ASSERT_TRUE(sax.ok());
  const Task& t = sax->tasks[0];
  EXPECT_EQ(t.id, "train-3");
  EXPECT_EQ(t.display_name, "Train fold 3");
  EXPECT_EQ(t.state, TaskState::Completed);
  EXPECT_EQ(t.previous_state, TaskState::Running);
  EXPECT_EQ(t.account, "acct");
  EXPECT_EQ(t.job_id, "job");
  EXPECT_EQ(sax->next_link, "https://a.b/jobs/job/tasks?$skiptoken=7");
}

TEST(TaskPage, UnknownValuesAndNullsReadAsTheDomParserReadsThem) {
  expect_parsers_agree(
      R"({"value":[{"id":"a","state":"sleeping","previousState":"dozing","displayName":null,
          "executionInfo":{"result":"maybe","failureInfo":{"category":"odd"},"exitCode":-3},
          "constraints":{"maxWallClockTime":"P10675199DT2H48M5.4775807S","maxTaskRetryCount":-1},
          "dependsOn":{"taskIdRanges":[{"start":3,"end":5}],"taskIds":["x"]},
          "nodeInfo":{},"multiInstanceSettings":{"numberOfInstances":4},
          "resourceFiles":[{"httpUrl":"https://s.blob/c/f?sig=SECRET","identityReference":
            {"resourceId":"/id/r"}}],
          "outputFiles":[{"filePattern":"*.pt","destination":{"container":{"containerUrl":
            "https://s.blob/out?sv=1&sig=SECRET","path":"p","identityReference":{"resourceId":
            "/id/o"},"uploadHeaders":[{"name":"h","value":"v"}]}},"uploadOptions":
            {"uploadCondition":"taskcompletion"}}],
          "environmentSettings":[{"name":"A","value":"1"},{"name":"B"}],
          "extra":{"deep":[1,{"x":[null]}]}},{"id":"b"}],"odata.nextLink":null})",
      2);
  auto sax = parse_task_page(R"({"value":[{"id":"a","dependsOn":{"taskIdRanges":[{"start":3,
      "end":5}],"taskIds":["x"]}}]})",
                             "acct", "job");
  ASSERT_TRUE(sax.ok());
  EXPECT_EQ(sax->tasks[0].depends_on.task_ids, (std::vector<std::string>{"x", "3", "4", "5"}));
}

TEST(TaskPage, AnEmptyLastPageHasNoTasksAndNoLink) {
  auto page = parse_task_page(R"({"value":[]})", "acct", "job");
  ASSERT_TRUE(page.ok());
  EXPECT_TRUE(page->tasks.empty());
  EXPECT_TRUE(page->next_link.empty());
}

TEST(TaskPage, AMalformedPageIsOneLineNamingThePlace) {
  EXPECT_EQ(page_error(R"({"value":[{"id":"t","executionInfo":"x"}]})"),
            "/value/0/executionInfo: expected an object, got a string");
  EXPECT_EQ(page_error(R"({"value":[{"id":"a"},{"id":"b","executionInfo":{"exitCode":"1"}}]})"),
            "/value/1/executionInfo/exitCode: expected an integer, got a string");
  EXPECT_EQ(page_error(R"({"value":[{"id":"a","requiredSlots":1.5}]})"),
            "/value/0/requiredSlots: expected an integer, got 1.5");
  EXPECT_EQ(page_error(R"({"value":[{"id":"a","requiredSlots":4294967296}]})"),
            "/value/0/requiredSlots: 4294967296 is out of range");
  EXPECT_EQ(page_error(R"({"value":[{"displayName":"no id"}]})"), "/value/0/id: missing");
  EXPECT_EQ(page_error(R"({"value":[{"id":"a","id":"b"}]})"), "/value/0/id: given twice");
  EXPECT_EQ(page_error(R"({"value":{}})"), "/value: expected an array, got an object");
  EXPECT_EQ(page_error(R"({"value":[7]})"), "/value/0: expected an object, got a number");
  EXPECT_EQ(page_error(R"([])"), "(root): expected an object, got an array");
  EXPECT_EQ(page_error(R"({"odata.nextLink":"x"})"), "/value: missing");
  EXPECT_EQ(page_error(R"({"value":[],"odata.nextLink":3})"),
            "/odata.nextLink: expected a string, got a number");
  EXPECT_EQ(
      page_error(R"({"value":[{"id":"a","dependsOn":{"taskIdRanges":[{"start":5,"end":2}]}}]})"),
      "/value/0/dependsOn/taskIdRanges/0: end 2 is before start 5");
  EXPECT_EQ(page_error(R"({"value":[{"id":"a","dependsOn":{"taskIds":["x",null]}}]})"),
            "/value/0/dependsOn/taskIds/1: expected a string, got null");
  EXPECT_EQ(
      page_error(R"({"value":[{"id":"a","environmentSettings":[{"name":"A"},{"value":"v"}]}]})"),
      "/value/0/environmentSettings/1/name: missing");
  EXPECT_EQ(page_error(R"({"value":[{"id":"a","creationTime":"yesterday"}]})")
                .rfind("/value/0/creationTime: ", 0),
            0u);
}

TEST(TaskPage, TextThatIsNotJsonNamesTheByte) {
  // `{"value":[{"id":` is 16 bytes; the lexer stops at the 17th, the end of the text.
  EXPECT_EQ(page_error(R"({"value":[{"id":)"), "not JSON at byte 17");
  const std::string deep =
      R"({"value":[{"id":"a","x":)" + std::string(200, '[') + std::string(200, ']') + "}]}";
  EXPECT_EQ(page_error(deep).rfind("nested deeper than 128 levels at byte ", 0), 0u);
}

// Texts that simdjson refuses and nlohmann reads are read as nlohmann reads them: a byte order
// mark, a number past 64 bits in a member the client skips, nesting at the limit itself.
TEST(TaskPage, TextsOnlyNlohmannAcceptsAreReadAsTheDomParserReadsThem) {
  const std::string task = R"({"id":"t1","state":"running","requiredSlots":2})";
  expect_parsers_agree("\xEF\xBB\xBF{\"value\":[" + task + "]}", 1);
  expect_parsers_agree(
      R"({"value":[{"id":"t1","x":18446744073709551616,"y":-9223372036854775809}]})", 1);
  // 128 levels: the page, the list, the task and 125 arrays.
  const std::string at_limit =
      R"({"value":[{"id":"a","x":)" + std::string(125, '[') + std::string(125, ']') + "}]}";
  expect_parsers_agree(at_limit, 1);
  EXPECT_EQ(page_error(R"({"value":[{"id":"a","requiredSlots":-0.0}]})"),
            "/value/0/requiredSlots: expected an integer, got -0.0");
  EXPECT_EQ(
      page_error(R"({"value":[{"id":"a","commandLine":"\ud800"}]})").rfind("not JSON at byte ", 0),
      0u);
}

// A page read on several threads at once (each has its own parser) gives each its own tasks.
TEST(TaskPage, PagesParsedOnSeveralThreadsAreEachTheirOwn) {
  std::vector<std::thread> threads;
  std::vector<std::string> ids(4);
  for (size_t k = 0; k < ids.size(); ++k) {
    threads.emplace_back([&ids, k] {
      for (int round = 0; round < 200; ++round) {
        const std::string id = "t" + std::to_string(k) + "-" + std::to_string(round);
        auto page = parse_task_page(R"({"value":[{"id":")" + id + R"("}]})", "acct", "job");
        if (!page || page->tasks.size() != 1 || page->tasks[0].id != id) return;
        ids[k] = id;
      }
    });
  }
  for (auto& t : threads) t.join();
  for (size_t k = 0; k < ids.size(); ++k) EXPECT_EQ(ids[k], "t" + std::to_string(k) + "-199");
}

}  // namespace
}  // namespace trainyard::azure::task_page_test
