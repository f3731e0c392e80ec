// The Outputs pane (`i` on a Batch task) on an emulator account that uploads to Azurite: the
// task's node files, what its outputFiles uploaded with each destination's state, and fetching
// an output after the fact.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../azure/azurite_process.hpp"
#include "azure/blob_auth.hpp"
#include "storage_lookup.hpp"
#include "tui_batch_fixture.hpp"

namespace trainyard::tui_outputs_test {
namespace {

namespace fs = std::filesystem;
using apptest::TuiBatch;

class TuiOutputs : public TuiBatch {
 protected:
  void SetUp() override {
    TY_REQUIRE_AZURITE();
    TuiBatch::SetUp();
    azurite_ = std::make_unique<azuretest::AzuriteProcess>();
    azure::StorageAccountConfig lake;
    lake.name = "lake";
    lake.connection_string = azurite_->connection_string();
    auto& settings = fixture_.ctx().settings;
    settings.storage_accounts = {lake};
    settings.accounts.front().auto_storage = "lake";
    auto c = open_blob_client(lake, *clock_);
    ASSERT_TRUE(c.ok()) << c.error().message;
    ASSERT_TRUE((*c)->create_container("results").ok());
  }
  void TearDown() override { fs::remove_all(scratch_); }

  // A container URL with a write SAS, as `run --upload` gives a task.
  std::string results_url() {
    azure::ServiceSasRequest req{azure::kDevStoreAccount,
                                 azurite_->blob_endpoint(),
                                 "results",
                                 "",
                                 {.create = true, .write = true},
                                 clock_->now() - std::chrono::minutes(5),
                                 clock_->now() + std::chrono::hours(1)};
    auto sas = azure::make_service_sas(req, azure::kDevStoreKey);
    EXPECT_TRUE(sas.ok());
    return azurite_->blob_endpoint() + "/results?" + (sas ? *sas : "");
  }
  nlohmann::json output_file(const std::string& pattern, const std::string& path,
                             const std::string& condition) {
    return {{"filePattern", pattern},
            {"destination", {{"container", {{"containerUrl", results_url()}, {"path", path}}}}},
            {"uploadOptions", {{"uploadCondition", condition}}}};
  }
  std::unique_ptr<azuretest::AzuriteProcess> azurite_;
  fs::path scratch_ = fs::temp_directory_path() / ("ty-tui-outputs-" + std::to_string(::getpid()));
};

TEST_F(TuiOutputs, ShowsWhatATaskUploadedAndFetchesItAfterwards) {
  auto c = open_client();
  nlohmann::json task = {
      {"id", "producer"},
      {"commandLine", "mkdir -p outputs && echo weights > outputs/model.bin && echo all done"},
      {"outputFiles",
       {output_file("outputs/*", "run1", "taskCompletion"),
        output_file("crash/*", "crashes", "taskFailure")}}};
  ASSERT_TRUE(c->add_task("seed-sweep", task).ok());
  ASSERT_TRUE(eventually([&] {
    auto t = azure::get_task(*c, "seed-sweep", "producer");
    return t && t->state == TaskState::Completed;
  }));
  SyncScope scope{emu_.account(), AccountKind::Emulator, emu_.endpoint()};
  ASSERT_TRUE(full_sync(*fixture_.ctx().store, *c, scope).ok());
  open_batch("tasks", false, "seed-sweep");
  resize({160, 30});
  select_task("producer");
  keys("i");
  auto s = settled_and_pumped();
  EXPECT_NE(s.find("Inputs and outputs · seed-sweep/producer"), std::string::npos) << s;
  // One blob of 8 bytes ("weights\n") went to results/run1; the failure-only one did not.
  EXPECT_NE(line_with("outputs/*").find("uploaded: 1 blob(s), 8 B"), std::string::npos) << s;
  EXPECT_NE(line_with("crash/*").find("not uploaded: only on failure"), std::string::npos) << s;
  EXPECT_NE(line_with("stdout.txt").find("node"), std::string::npos) << s;
  auto blob = line_with("results/run1/model.bin");
  EXPECT_NE(blob.find("outputFiles"), std::string::npos) << s;
  EXPECT_NE(blob.find("storage lake"), std::string::npos) << s;
  EXPECT_EQ(s.find("sig="), std::string::npos) << s;
  // Fetched into a folder, under the blob's name.
  keys("/ C-u");
  type("outputFiles");
  keys("Enter d C-u");
  type(scratch_.string());
  keys("Enter");
  EXPECT_NE(settled_and_pumped().find("fetched 1 output(s), 8 B"), std::string::npos) << screen();
  std::ifstream in(scratch_ / "run1" / "model.bin");
  std::stringstream got;
  got << in.rdbuf();
  EXPECT_EQ(got.str(), "weights\n");
  // The node's stdout opens in the task's log view; another node file only says how to get it.
  keys("/ C-u");
  type("wd/");
  keys("Enter Enter");
  EXPECT_NE(screen().find("d fetches it; only stdout.txt and stderr.txt open here"),
            std::string::npos)
      << screen();
  keys("/ C-u");
  type("stdout");
  keys("Enter Enter");
  EXPECT_NE(screen().find("Logs · seed-sweep/producer"), std::string::npos) << screen();
}

// An upload that failed says why, in the service's words (failureInfo.details), on its row.
TEST_F(TuiOutputs, AFailedUploadQuotesTheServicesReason) {
  auto c = open_client();
  nlohmann::json dest = {
      {"container", {{"containerUrl", azurite_->blob_endpoint() + "/nosuch"}, {"path", "m"}}}};
  nlohmann::json task = {{"id", "lost"},
                         {"commandLine", "echo w > model.bin"},
                         {"outputFiles", {{{"filePattern", "model.bin"}, {"destination", dest}}}}};
  ASSERT_TRUE(c->add_task("seed-sweep", task).ok());
  ASSERT_TRUE(eventually([&] {
    auto t = azure::get_task(*c, "seed-sweep", "lost");
    return t && t->state == TaskState::Completed;
  }));
  SyncScope scope{emu_.account(), AccountKind::Emulator, emu_.endpoint()};
  ASSERT_TRUE(full_sync(*fixture_.ctx().store, *c, scope).ok());
  open_batch("tasks", false, "seed-sweep");
  resize({200, 30});
  select_task("lost");
  keys("i");
  auto s = settled_and_pumped();
  EXPECT_NE(
      line_with("model.bin")
          .find("upload failed: model.bin: " + azurite_->blob_endpoint() + "/nosuch/m: HTTP 4"),
      std::string::npos)
      << s;
}

TEST_F(TuiOutputs, ALocalRunSaysWhereItsFilesAre) {
  open(apptest::kNormal, "tasks", "resnet-sweep");
  keys("i");
  EXPECT_NE(screen().find("i is for Batch tasks"), std::string::npos) << screen();
}

}  // namespace
}  // namespace trainyard::tui_outputs_test
