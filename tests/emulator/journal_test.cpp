// The `--state` journal: what a crash can leave in the file, and compaction after a snapshot.
#include "journal.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace trainyard::emu::journal_test {
namespace {

namespace fs = std::filesystem;

class JournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "trainyard-journal-XXXXXX").string();
    ASSERT_TRUE(::mkdtemp(tmpl.data()));
    dir_ = tmpl;
    path_ = dir_ + "/state.json.journal";
  }
  void TearDown() override { fs::remove_all(dir_); }

  static JournalEntry entry(std::string target) {
    return JournalEntry{0, 42, "POST", std::move(target), R"({"id":"t"})"};
  }
  std::string contents() const {
    std::ifstream in(path_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void write(const std::string& text) const { std::ofstream(path_) << text; }

  std::string dir_;
  std::string path_;
};

TEST_F(JournalTest, AppendedEntriesReadBackInOrder) {
  Journal j;
  ASSERT_TRUE(j.open(path_, {}, 7).ok());
  ASSERT_TRUE(j.append(entry("/jobs/a/tasks")));
  ASSERT_TRUE(j.append(entry("/jobs/b/tasks?api-version=2025-06-01")));
  auto read = Journal::read(path_);
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read->size(), 2u);
  EXPECT_EQ((*read)[0].seq, 8u);  // numbering goes on after the snapshot's
  EXPECT_EQ((*read)[1].seq, 9u);
  EXPECT_EQ((*read)[1].target, "/jobs/b/tasks?api-version=2025-06-01");
  EXPECT_EQ((*read)[1].body, R"({"id":"t"})");
  EXPECT_EQ((*read)[1].at, 42);
}

TEST_F(JournalTest, NoFileIsNoEntries) {
  auto read = Journal::read(path_);
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(read->empty());
}

TEST_F(JournalTest, ALastLineCutShortIsIgnoredAndNotAppendedTo) {
  JournalEntry kept = entry("/jobs/a/tasks");
  kept.seq = 1;
  write(journal_line(kept) + R"({"seq":2,"at":0,"meth)");
  auto read = Journal::read(path_);
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read->size(), 1u);
  Journal j;
  ASSERT_TRUE(j.open(path_, std::move(*read), 0).ok());
  ASSERT_TRUE(j.append(entry("/jobs/b/tasks")));
  auto again = Journal::read(path_);
  ASSERT_TRUE(again.ok()) << again.error().message;
  ASSERT_EQ(again->size(), 2u);
  EXPECT_EQ((*again)[1].seq, 2u);
}

TEST_F(JournalTest, ABadLineIsAnErrorNamingFileAndLine) {
  JournalEntry kept = entry("/jobs/a/tasks");
  kept.seq = 1;
  write(journal_line(kept) + "{\"seq\":\"two\"}\n" + journal_line(kept));
  auto read = Journal::read(path_);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message.find(path_ + ":2:"), std::string::npos) << read.error().message;
}

// Found by fuzz_journal: a time too large for an integer was converted anyway (undefined).
TEST_F(JournalTest, ANumberThatIsNotAnIntegerIsAnError) {
  write(R"({"seq":1,"at":1.76412e+20,"method":"POST","target":"/jobs","body":""})"
        "\n");
  auto read = Journal::read(path_);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message.find(path_ + ":1:"), std::string::npos) << read.error().message;
  write(R"({"seq":-1,"at":0,"method":"POST","target":"/jobs","body":""})"
        "\n");
  EXPECT_FALSE(Journal::read(path_).ok());
}

TEST_F(JournalTest, DroppingKeepsOnlyEntriesASnapshotDoesNotHold) {
  Journal j;
  ASSERT_TRUE(j.open(path_, {}, 0).ok());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(j.append(entry("/jobs/j" + std::to_string(i))));
  j.drop_through(3);
  EXPECT_TRUE(j.has_entries());
  ASSERT_TRUE(j.append(entry("/jobs/j5")));
  auto read = Journal::read(path_);
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read->size(), 3u);
  EXPECT_EQ((*read)[0].seq, 4u);
  EXPECT_EQ((*read)[2].seq, 6u);
  j.drop_through(6);
  EXPECT_FALSE(j.has_entries());
  EXPECT_EQ(contents(), "");
  EXPECT_EQ(j.last_seq(), 6u);
}

}  // namespace
}  // namespace trainyard::emu::journal_test
