// Which of a poller's writes make the focused pane read again: only those of the scopes it
// shows, on its own account.
#include <gtest/gtest.h>

#include "sync/incremental_sync.hpp"
#include "tui_state.hpp"

namespace trainyard::tui_written_scopes_test {
namespace {

StoreWritten wrote(const std::string& account, std::vector<std::string> scopes) {
  return {account, std::move(scopes)};
}

TEST(TuiWrittenScopes, TheJobsPaneReadsForItsJobListAndTheTasksOfTheJobsOnScreen) {
  TuiState st;
  st.stack.push_back(make_frame(View::Jobs, "contoso"));
  st.table.page.keys = {"train", "eval"};
  EXPECT_TRUE(shows_written(st, wrote("contoso", {kJobsScope})));
  EXPECT_TRUE(shows_written(st, wrote("contoso", {nodes_scope("gpu"), tasks_scope("eval")})));
  EXPECT_FALSE(shows_written(st, wrote("contoso", {tasks_scope("other"), kPoolsScope})));
  EXPECT_FALSE(shows_written(st, wrote("fabrikam", {kJobsScope})));
}

TEST(TuiWrittenScopes, TheNodesPaneReadsForItsPoolOnly) {
  TuiState st;
  auto f = make_frame(View::Nodes, "contoso");
  f.pool = "gpu";
  st.stack.push_back(f);
  EXPECT_TRUE(shows_written(st, wrote("contoso", {nodes_scope("gpu")})));
  EXPECT_FALSE(shows_written(st, wrote("contoso", {nodes_scope("cpu"), kJobsScope})));
}

TEST(TuiWrittenScopes, TheTasksPaneReadsForItsJobsTasks) {
  TuiState st;
  auto f = make_frame(View::Tasks, "contoso");
  f.job = "train";
  st.stack.push_back(f);
  EXPECT_TRUE(shows_written(st, wrote("contoso", {tasks_scope("train")})));
  EXPECT_FALSE(shows_written(st, wrote("contoso", {tasks_scope("eval"), kPoolsScope})));
}

// The Pool pane shows the pool's size and resize (the pool list) and its nodes, not another's.
TEST(TuiWrittenScopes, ThePoolPaneReadsForThePoolListAndItsNodes) {
  TuiState st;
  auto f = make_frame(View::Pool, "contoso");
  f.pool = "gpu";
  st.stack.push_back(f);
  EXPECT_TRUE(shows_written(st, wrote("contoso", {kPoolsScope})));
  EXPECT_TRUE(shows_written(st, wrote("contoso", {nodes_scope("gpu")})));
  EXPECT_FALSE(shows_written(st, wrote("contoso", {nodes_scope("cpu"), tasks_scope("train")})));
}

// The Failed pane shows its job's tasks.
TEST(TuiWrittenScopes, TheFailedPaneReadsForItsJobsTasks) {
  TuiState st;
  auto f = make_frame(View::Failed, "contoso");
  f.job = "train";
  st.stack.push_back(f);
  EXPECT_TRUE(shows_written(st, wrote("contoso", {tasks_scope("train")})));
  EXPECT_FALSE(shows_written(st, wrote("contoso", {tasks_scope("eval"), kPoolsScope})));
}

}  // namespace
}  // namespace trainyard::tui_written_scopes_test
