// `:grep` on an emulator account: the job's logs that are not in the cache yet are read into
// it by the account's worker, and the Grep pane finds their lines.
#include <gtest/gtest.h>

#include "tui_batch_fixture.hpp"

namespace trainyard::tui_grep_batch_test {
namespace {

using apptest::TuiBatch;

TEST_F(TuiBatch, GrepFetchesTheJobsLogsThenFindsTheirLines) {
  auto c = open_client();
  ASSERT_TRUE(
      c->add_task("seed-sweep",
                  {{"id", "zebra"},
                   {"commandLine", "echo start; echo 'zebra42 out'; echo 'zebra42 err' >&2"}})
          .ok());
  ASSERT_TRUE(eventually([&] {
    auto t = azure::get_task(*c, "seed-sweep", "zebra");
    return t && t->state == TaskState::Completed;
  }));
  SyncScope scope{emu_.account(), AccountKind::Emulator, emu_.endpoint()};
  ASSERT_TRUE(full_sync(*fixture_.ctx().store, *c, scope).ok());
  open_batch("tasks", false, "seed-sweep");
  keys(":");
  type("grep zebra42");
  keys("Enter");
  tui_->settle();  // the worker has read every log of the job into the cache
  tui_->refresh();
  tui_->draw();
  // stdout line 2 and stderr line 1 of zebra.
  auto out = line_with("zebra42 out");
  auto err = line_with("zebra42 err");
  EXPECT_NE(out.find("stdout"), std::string::npos) << screen();
  EXPECT_NE(out.find("     2 "), std::string::npos) << out;
  EXPECT_NE(err.find("stderr"), std::string::npos) << screen();
  EXPECT_NE(err.find("     1 "), std::string::npos) << err;
  EXPECT_NE(screen().find("2 line(s) match zebra42"), std::string::npos) << screen();
}

}  // namespace
}  // namespace trainyard::tui_grep_batch_test
