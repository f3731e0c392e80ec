// The emulator's node-side file moves that need no server: outputFiles patterns, upload
// conditions, and what is refused before any request (URLs beyond loopback, paths leaving the
// task's folder). Transfers to and from Azurite are tested end to end in tests/cli/upload_test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "task_files.hpp"

namespace trainyard::emu {
namespace {

using nlohmann::json;

constexpr size_t kMaxPatternForTest = 1024;  // task_files.cpp's bound

TEST(OutputPattern, StarStaysInASegmentAndDoubleStarCrossesThem) {
  EXPECT_TRUE(output_pattern_matches("*.log", "train.log"));
  EXPECT_FALSE(output_pattern_matches("*.log", "logs/train.log"));
  EXPECT_TRUE(output_pattern_matches("outputs/**/*", "outputs/model.bin"));
  EXPECT_TRUE(output_pattern_matches("outputs/**/*", "outputs/ckpt/epoch-3/model.bin"));
  EXPECT_FALSE(output_pattern_matches("outputs/**/*", "other/model.bin"));
  EXPECT_TRUE(output_pattern_matches("../std*.txt", "../stdout.txt"));
  EXPECT_TRUE(output_pattern_matches("../std???.txt", "../stderr.txt"));
  EXPECT_FALSE(output_pattern_matches("?", "/"));
  EXPECT_TRUE(output_pattern_matches("**", "a/b/c"));
  EXPECT_FALSE(output_pattern_matches("model.bin", "model.bi"));
  EXPECT_TRUE(output_pattern_matches("ckpt/**", "ckpt/a/b"));
  EXPECT_TRUE(output_pattern_matches("**.txt", "logs/a.txt"));
}

// A backtracking matcher tries exponentially many ways to split 40 characters among 20 stars
// before failing; the memo settles each (pattern, path) position pair once.
TEST(OutputPattern, ManyStarsFailQuickly) {
  std::string pattern;
  for (int i = 0; i < 20; ++i) pattern += "*a";
  pattern += "b";
  EXPECT_FALSE(output_pattern_matches(pattern, std::string(40, 'a')));
  EXPECT_FALSE(output_pattern_matches(std::string(kMaxPatternForTest + 1, '*'), "x"));
}

class TaskFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    wd_ = ::testing::TempDir() + "task_files_" + std::to_string(::getpid()) + "/wd";
    std::filesystem::create_directories(wd_);
    std::ofstream(wd_ + "/model.bin") << "weights";
  }
  void TearDown() override {
    std::filesystem::remove_all(std::filesystem::path(wd_).parent_path());
  }
  std::string wd_;
};

TEST_F(TaskFiles, DownloadsOnlyFromLoopbackIntoTheTasksFolder) {
  auto far = download_resource_files(
      json::array(
          {{{"httpUrl", "https://acct.blob.core.windows.net/c/x?sig=s"}, {"filePath", "x"}}}),
      wd_);
  ASSERT_TRUE(far);
  EXPECT_EQ(far->code, "BlobDownloadMiscError");
  EXPECT_EQ(far->message, "httpUrl: the emulator reaches only loopback http URLs");
  // A host name that starts like a loopback address is not one.
  auto named = download_resource_files(
      json::array({{{"httpUrl", "http://127.evil.example:9/c/x"}, {"filePath", "x"}}}), wd_);
  ASSERT_TRUE(named);
  EXPECT_EQ(named->message, "httpUrl: the emulator reaches only loopback http URLs");
  auto escape = download_resource_files(
      json::array({{{"httpUrl", "http://127.0.0.1:9/c/x"}, {"filePath", "../../etc/x"}}}), wd_);
  ASSERT_TRUE(escape);
  EXPECT_EQ(escape->code, "ResourceFileCreateFailed");
  EXPECT_FALSE(download_resource_files(json::array(), wd_));
}

TEST_F(TaskFiles, UploadsOnlyWhenTheConditionHoldsAndNamesWhatFailed) {
  json on_failure = {{"filePattern", "model.bin"},
                     {"destination", {{"container", {{"containerUrl", "https://far/c?sig=s"}}}}},
                     {"uploadOptions", {{"uploadCondition", "taskFailure"}}}};
  EXPECT_TRUE(upload_output_files(json::array({on_failure}), wd_, true).empty());
  auto errors = upload_output_files(json::array({on_failure}), wd_, false);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "model.bin: the emulator uploads only to loopback http container URLs");
  json missing = {{"filePattern", "absent.bin"},
                  {"destination", {{"container", {{"containerUrl", "http://127.0.0.1:9/c"}}}}}};
  errors = upload_output_files(json::array({missing}), wd_, true);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "absent.bin: no file matches");
  auto failure = upload_failure({"a: x", "b: y"});
  EXPECT_EQ(failure.code, "FileUploadMiscError");
  EXPECT_EQ(failure.message, "One or more output files failed to upload: a: x; b: y");
}

}  // namespace
}  // namespace trainyard::emu
