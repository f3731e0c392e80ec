// The table panes' shared tools: the bulk outcome line, wide mode and the column chooser's
// choice, the JSON view's text (pretty-printed, SAS signatures redacted).
#include <gtest/gtest.h>

#include "bulk_action.hpp"
#include "tui_columns.hpp"
#include "tui_pane_json.hpp"

namespace trainyard::tui_table_tools_test {
namespace {

TEST(BulkText, CountsEveryRowDone) {
  EXPECT_EQ(act::bulk_text("stop 3 runs", 3, {}), "stop 3 runs: 3 done");
}

TEST(BulkText, NamesTheFailuresAfterTheCounts) {
  EXPECT_EQ(act::bulk_text("stop 3 runs", 1, {"t2: not running", "t3: not running"}),
            "stop 3 runs: 1 done, 2 failed (t2: not running; t3: not running)");
}

TEST(BulkText, NamesAtMostThreeFailures) {
  EXPECT_EQ(act::bulk_text("delete 4 jobs", 0, {"a: x", "b: x", "c: x", "d: x"}),
            "delete 4 jobs: 0 done, 4 failed (a: x; b: x; c: x; …)");
}

TEST(ColumnChoice, WideOnlyColumnsShowInWideModeOnly) {
  ColumnChoice c;
  EXPECT_TRUE(column_shown(c, "tasks", "state", false));
  EXPECT_FALSE(column_shown(c, "tasks", "started", true));
  c.wide = true;
  EXPECT_TRUE(column_shown(c, "tasks", "started", true));
}

TEST(ColumnChoice, HiddenColumnsArePerPane) {
  ColumnChoice c;
  c.hidden["tasks"] = {"state"};
  EXPECT_FALSE(column_shown(c, "tasks", "state", false));
  EXPECT_TRUE(column_shown(c, "jobs", "state", false));
}

// Three columns: id, state (hidden), started (wide only): the drawn table keeps ID alone, then
// ID and STARTED in wide mode, each row's cells cut alike.
TEST(ColumnChoice, ChooseColumnsCutsTheLayoutAndEveryRow) {
  TablePage page;
  page.column_ids = {"id", "state", "started"};
  page.wide_only = {false, false, true};
  TableVm vm;
  vm.columns = {{"ID"}, {"STATE"}, {"STARTED"}};
  vm.rows = {TableRow{{{"t1"}, {"running"}, {"2024-03-01 14:00:05"}}},
             TableRow{{{"t2"}, {"active"}, {"-"}}}};
  ColumnChoice c;
  c.hidden["tasks"] = {"state"};
  auto narrow = vm;
  choose_columns(narrow, page, c, "tasks");
  ASSERT_EQ(narrow.columns.size(), 1u);
  EXPECT_EQ(narrow.columns[0].title, "ID");
  ASSERT_EQ(narrow.rows[1].cells.size(), 1u);
  EXPECT_EQ(narrow.rows[1].cells[0].text, "t2");
  c.wide = true;
  choose_columns(vm, page, c, "tasks");
  ASSERT_EQ(vm.columns.size(), 2u);
  EXPECT_EQ(vm.columns[1].title, "STARTED");
  EXPECT_EQ(vm.rows[0].cells[1].text, "2024-03-01 14:00:05");
}

TEST(ColumnChoice, APageWithoutIdsKeepsEveryColumn) {
  TableVm vm;
  vm.columns = {{"RUN"}, {"BEST"}};
  ColumnChoice c;
  c.hidden["sweep"] = {"run"};
  choose_columns(vm, TablePage{}, c, "sweep");
  EXPECT_EQ(vm.columns.size(), 2u);
}

TEST(WideTime, SecondsInUtcWithoutTheFraction) {
  Timestamp t{std::chrono::sys_days{std::chrono::year{2024} / 3 / 1} + std::chrono::hours{14} +
              std::chrono::seconds{5} + std::chrono::milliseconds{500}};
  EXPECT_EQ(wide_time(t), "2024-03-01 14:00:05");
  EXPECT_EQ(wide_time(std::nullopt), "-");
}

TEST(EntityJson, SasSignaturesAreRedactedAndOtherTextKept) {
  nlohmann::json j{
      {"resourceFiles",
       {{{"storageContainerUrl", "https://a.blob.core.windows.net/c?sv=2022&sig=abc%3D&se=2"}}}},
      {"commandLine", "train --design=x sig=1"}};
  redact_signatures(j);
  EXPECT_EQ(j["resourceFiles"][0]["storageContainerUrl"],
            "https://a.blob.core.windows.net/c?sv=2022&sig=REDACTED&se=2");
  EXPECT_EQ(j["commandLine"], "train --design=x sig=1");
}

TEST(EntityJson, PrettyPrintedOneLineEachWithControlBytesEscaped) {
  nlohmann::json j = nlohmann::json::parse(R"({"id":"t1","exit":[3]})");
  j["note"] = "a\x1b[31mb";
  std::vector<std::string> want{"{",    "  \"exit\": [",     "    3",
                                "  ],", "  \"id\": \"t1\",", "  \"note\": \"a\\u001b[31mb\"",
                                "}"};
  EXPECT_EQ(json_lines(j), want);
}

}  // namespace
}  // namespace trainyard::tui_table_tools_test
