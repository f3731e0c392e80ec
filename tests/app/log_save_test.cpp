// Saving a log: a byte-for-byte copy renamed into place, never over an existing file unless
// asked, and nothing left behind when it fails.
#include "log_save.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace trainyard::log_save_test {
namespace {

namespace fs = std::filesystem;

const std::string kLog = "loss=0.9\n\x1b[31mred\x1b[0m\nlast";

class LogSave : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "trainyard-logsave-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    write(dir_ / "stdout.txt", kLog);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static void write(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
  }
  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  size_t entries() const {
    return static_cast<size_t>(std::distance(fs::directory_iterator(dir_), {}));
  }

  fs::path dir_;
};

TEST_F(LogSave, CopiesEveryByteToANewFile) {
  auto r = save_log_copy((dir_ / "stdout.txt").string(), (dir_ / "saved.log").string(), false);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, dir_ / "saved.log");
  // The escapes are kept: the file is the raw log, not what the screen shows.
  EXPECT_EQ(read(dir_ / "saved.log"), kLog);
  EXPECT_EQ(entries(), 2u);  // no temporary file left
}

TEST_F(LogSave, AnExistingFileIsKeptUnlessOverwriteIsAsked) {
  write(dir_ / "saved.log", "old");
  auto r = save_log_copy((dir_ / "stdout.txt").string(), (dir_ / "saved.log").string(), false);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Conflict);
  EXPECT_EQ(read(dir_ / "saved.log"), "old");
  ASSERT_TRUE(save_log_copy((dir_ / "stdout.txt").string(), (dir_ / "saved.log").string(), true));
  EXPECT_EQ(read(dir_ / "saved.log").substr(0, 9), "loss=0.9\n");
  EXPECT_EQ(entries(), 2u);
}

TEST_F(LogSave, AMissingLogChangesNothing) {
  write(dir_ / "saved.log", "old");
  auto r = save_log_copy((dir_ / "gone.txt").string(), (dir_ / "saved.log").string(), true);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Io);
  EXPECT_NE(r.error().message.find("gone.txt"), std::string::npos);
  EXPECT_EQ(read(dir_ / "saved.log"), "old");
  EXPECT_EQ(entries(), 2u);
}

TEST_F(LogSave, ADirectoryOrNoPathIsRefused) {
  EXPECT_EQ(save_log_copy((dir_ / "stdout.txt").string(), dir_.string(), true).error().kind,
            ErrorKind::Usage);
  EXPECT_EQ(save_log_copy((dir_ / "stdout.txt").string(), "", true).error().kind, ErrorKind::Usage);
  EXPECT_EQ(entries(), 1u);
}

}  // namespace
}  // namespace trainyard::log_save_test
