#include "core/atomic_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace trainyard::atomic_file_test {
namespace {

namespace fs = std::filesystem;

struct AtomicFile : ::testing::Test {
  fs::path dir =
      fs::temp_directory_path() / ("ty-atomic-" + std::to_string(::getpid()) + "-" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  std::string read(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  size_t entries() { return static_cast<size_t>(std::distance(fs::directory_iterator(dir), {})); }
};

TEST_F(AtomicFile, ReplacesTheFileWholeWithItsMode) {
  auto path = (dir / "config.json").string();
  ASSERT_TRUE(write_file_atomic(path, "old", 0644));
  ASSERT_TRUE(write_file_atomic(path, "new content", 0600, false));
  EXPECT_EQ(read(path), "new content");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(entries(), 1u);  // no temporary file left beside it
}

TEST_F(AtomicFile, AFailureLeavesTheOldFileAndNoTemporary) {
  auto path = dir / "held";
  ASSERT_TRUE(write_file_atomic(path.string(), "kept", 0644));
  // A folder where the file should go: the rename fails.
  auto blocked = dir / "folder";
  fs::create_directories(blocked / "inside");
  auto r = write_file_atomic(blocked.string(), "x", 0644);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.rfind(blocked.string() + ": ", 0), 0u) << r.error().message;
  EXPECT_EQ(read(path), "kept");
  EXPECT_EQ(entries(), 2u);
}

TEST_F(AtomicFile, AMissingFolderIsAnErrorNamingThePath) {
  auto path = (dir / "no" / "such" / "file").string();
  auto r = write_file_atomic(path, "x", 0644);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, path + ": No such file or directory");
}

}  // namespace
}  // namespace trainyard::atomic_file_test
