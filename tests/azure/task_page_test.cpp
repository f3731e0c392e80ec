// parse_task_page (streaming, no DOM) against parse_list_page + parse_task (DOM): the same Task,
// field by field, and one-line errors naming the place for malformed pages.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "azure/parse.hpp"
#include "azure/task_page.hpp"
#include "task_compare.hpp"

namespace trainyard::azure {
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

}  // namespace
}  // namespace trainyard::azure
