// The TUI's reader: a thread with its own store connection that loads the focused pane's page
// and hands it to the UI thread, which applies only the model of its latest request.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "tui_reader.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_reader_test {
namespace {

using namespace std::chrono_literals;
using apptest::kNormal;
using apptest::TuiScreen;

class TuiReaderTest : public TuiScreen {
 protected:
  ReadRequest jobs_request(uint64_t generation, const std::string& filter = "") {
    ReadRequest r;
    r.generation = generation;
    r.frame = make_frame(View::Jobs, kLocalAccount);
    r.frame.cursor.filter = filter;
    r.rows = 5;
    return r;
  }

  // Draws turns of the live loop until the frame holds `text` (or 5 s passed).
  bool eventually_shows(const std::string& text) {
    for (auto until = std::chrono::steady_clock::now() + 5s;
         std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(10ms)) {
      tui_->pump();
      tui_->draw();
      if (term_->last_frame().to_text().find(text) != std::string::npos) return true;
    }
    return false;
  }
};

// Requests sent faster than they are read: the one answered last is the latest, whose filter
// ("nothing" matches no job) the page shows.
TEST_F(TuiReaderTest, TheLatestRequestIsTheOneAnswered) {
  EventQueue events;
  auto reader = TuiReader::open(fixture_.ctx(), [&events](Event e) { events.post(e); });
  ASSERT_TRUE(reader);
  reader->request(jobs_request(1));
  reader->request(jobs_request(2));
  reader->request(jobs_request(3, "nothing"));
  auto m = reader->wait_for(3);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->generation, 3u);
  EXPECT_TRUE(m->loaded);
  EXPECT_EQ(m->page.total, 0u);
  EXPECT_TRUE(m->page.keys.empty());
  uint64_t last = 0;
  for (auto& e : events.drain())
    if (auto* ready = std::get_if<PageReady>(&e)) last = ready->generation;
  EXPECT_EQ(last, 3u);
}

// The fixture's local jobs, with the job that has tasks among them.
TEST_F(TuiReaderTest, AModelHoldsThePaneRowsAndTheCursorKeptWithinThem) {
  EventQueue events;
  auto reader = TuiReader::open(fixture_.ctx(), [&events](Event e) { events.post(e); });
  ASSERT_TRUE(reader);
  auto r = jobs_request(7, "resnet");
  r.frame.cursor.selected = 40;  // past the one matching row: kept on it
  reader->request(r);
  auto m = reader->wait_for(7);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->page.total, 1u);
  ASSERT_EQ(m->page.keys.size(), 1u);
  EXPECT_EQ(m->page.keys[0], "resnet-sweep");
  EXPECT_EQ(m->cursor.selected, 0u);
  EXPECT_EQ(m->cursor.first, 0u);
}

// In the live loop a key press does not wait for the store: the filtered page comes from the
// reader as an event, and the loop shows it.
TEST_F(TuiReaderTest, TheLiveLoopShowsThePageTheReaderDelivers) {
  open(kNormal, "tasks", "resnet-sweep");
  ASSERT_NE(term_->last_frame().to_text().find("lr-0001"), std::string::npos);
  tui_->go_live();
  keys("/");
  type("lr-0030");
  keys("Enter");
  EXPECT_TRUE(eventually_shows("1/1")) << term_->last_frame().to_text();
  auto frame = term_->last_frame().to_text();
  EXPECT_NE(frame.find("lr-0030"), std::string::npos) << frame;
  EXPECT_EQ(frame.find("lr-0001"), std::string::npos) << frame;
}

// A check asked for while nothing committed reads nothing; after another connection's commit it
// reads the page again, with the new row.
TEST_F(TuiReaderTest, ACheckReadsOnlyWhenAnotherConnectionCommitted) {
  EventQueue events;
  auto reader = TuiReader::open(fixture_.ctx(), [&events](Event e) { events.post(e); });
  ASSERT_TRUE(reader);
  reader->request(jobs_request(1));
  ASSERT_TRUE(reader->wait_for(1));
  auto check = jobs_request(1);
  check.only_if_changed = true;
  reader->request(check);
  EXPECT_FALSE(reader->wait_for(1, 300ms));
  Job j;
  j.account = kLocalAccount;
  j.id = "late-job";
  j.pool_id = kLocalPool;
  ASSERT_TRUE(fixture_.ctx().store->upsert_job(j).ok());
  reader->request(check);
  auto m = reader->wait_for(1, 5s);
  ASSERT_TRUE(m);
  EXPECT_NE(std::find(m->page.keys.begin(), m->page.keys.end(), "late-job"), m->page.keys.end());
}

// A check never cancels a read that is still waiting to run.
TEST_F(TuiReaderTest, ACheckKeepsTheReadItReplaces) {
  EventQueue events;
  auto reader = TuiReader::open(fixture_.ctx(), [&events](Event e) { events.post(e); });
  ASSERT_TRUE(reader);
  reader->request(jobs_request(1));
  ASSERT_TRUE(reader->wait_for(1));
  reader->request(jobs_request(2, "resnet"));
  auto check = jobs_request(2, "resnet");
  check.only_if_changed = true;
  reader->request(check);
  auto m = reader->wait_for(2, 5s);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->page.total, 1u);
}

}  // namespace
}  // namespace trainyard::tui_reader_test
