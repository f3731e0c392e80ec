// The emulator's node-side file moves that need no server: outputFiles patterns, upload
// conditions, and what is refused before any request (URLs beyond loopback, paths leaving the
// task's folder). Transfers to and from Azurite are tested end to end in tests/cli/upload_test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "auto_storage.hpp"
#include "core/time.hpp"
#include "task_files.hpp"

namespace trainyard::emu::task_files_test {
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

TEST(AutoStorage, ConnectionStringsAsTheSdksWriteThem) {
  auto dev = parse_auto_storage("UseDevelopmentStorage=true");
  ASSERT_TRUE(dev.ok());
  EXPECT_EQ(dev->account, "devstoreaccount1");
  EXPECT_EQ(dev->blob_endpoint, "http://127.0.0.1:10000/devstoreaccount1");
  auto own = parse_auto_storage(
      "DefaultEndpointsProtocol=http;accountname=acct;AccountKey=a2V5LWtleQ==;"
      "BlobEndpoint=http://127.0.0.1:10123/acct/;");
  ASSERT_TRUE(own.ok()) << own.error().message;
  EXPECT_EQ(own->account, "acct");
  EXPECT_EQ(own->key_base64, "a2V5LWtleQ==");
  EXPECT_EQ(own->blob_endpoint, "http://127.0.0.1:10123/acct");
}

TEST(AutoStorage, RefusalsNameThePartAndNeverTheKey) {
  auto not_base64 =
      parse_auto_storage("AccountName=a;AccountKey=secret!;BlobEndpoint=http://127.0.0.1:10000/a");
  ASSERT_FALSE(not_base64.ok());
  EXPECT_EQ(not_base64.error().message, "--auto-storage: its AccountKey is not base64");
  auto far = parse_auto_storage(
      "AccountName=a;AccountKey=a2V5;BlobEndpoint=http://127.evil.example:10000/a");
  ASSERT_FALSE(far.ok());
  EXPECT_EQ(far.error().message.find("a2V5"), std::string::npos);
  EXPECT_EQ(parse_auto_storage("AccountKey=a2V5").error().message,
            "--auto-storage: the connection string names no AccountName");
}

// A read-and-list container SAS of the Storage version the emulator signs, an hour long.
TEST(AutoStorage, TheContainerUrlCarriesAReadAndListSas) {
  AutoStorage s{"acct", "a2V5LWtleQ==", "http://127.0.0.1:10123/acct"};
  auto url = auto_storage_container_url(s, "inputs", *parse_iso8601("2026-11-27T10:00:00Z"));
  EXPECT_EQ(url.rfind("http://127.0.0.1:10123/acct/inputs?sv=2021-08-06&sr=c&sp=rl&"
                      "st=2026-11-27T09%3A55%3A00Z&se=2026-11-27T11%3A00%3A00Z&spr=https,http&sig=",
                      0),
            0u)
      << url;
}

}  // namespace
}  // namespace trainyard::emu::task_files_test
