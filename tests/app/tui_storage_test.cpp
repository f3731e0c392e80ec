// The Storage pane against Azurite: accounts, containers and folders listed with their sizes; a
// text blob in the log view, followed as it grows and copied again when replaced; a download
// that matches byte for byte; an upload that shows up in the listing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "../azure/azurite_process.hpp"
#include "storage_lookup.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_storage_test {
namespace {

namespace fs = std::filesystem;
using apptest::kNormal;
using apptest::TuiScreen;

constexpr TermSize kWide{120, 30};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class TuiStorage : public TuiScreen {
 protected:
  // Requests are signed with the context's clock: a real one.
  TuiStorage() : TuiScreen(std::make_unique<SystemClock>()) {}

  void SetUp() override {
    TY_REQUIRE_AZURITE();
    azurite_ = std::make_unique<azuretest::AzuriteProcess>();
    azure::StorageAccountConfig lake;
    lake.name = "lake";
    lake.connection_string = azurite_->connection_string();
    fixture_.ctx().settings.storage_accounts = {lake};
    auto c = open_blob_client(lake, clock_ref());
    ASSERT_TRUE(c.ok()) << c.error().message;
    client_ = std::move(*c);
    ASSERT_TRUE(client_->create_container("data").ok());
    put("readme.md", "# data\n");
    put("train/log.txt", "epoch 1 loss=0.9\nepoch 2 loss=0.5\n");
    model_ = std::string(300000, '\0');
    for (size_t i = 0; i < model_.size(); ++i) model_[i] = static_cast<char>(i * 7 % 251);
    put("train/model.bin", model_, "application/octet-stream");
  }
  void TearDown() override { fs::remove_all(scratch_); }

  const Clock& clock_ref() { return *clock_; }
  void put(const std::string& blob, const std::string& data,
           const std::string& type = "text/plain") {
    ASSERT_TRUE(client_->put_blob("data", blob, data, type).ok()) << blob;
  }
  // Selects the row holding `text`: the filter shows only the rows that hold it.
  void select(const std::string& text) {
    keys("/ C-u");
    type(text);
    keys("Enter");
  }

  std::unique_ptr<azuretest::AzuriteProcess> azurite_;
  std::unique_ptr<azure::BlobClient> client_;
  std::string model_;
  fs::path scratch_ = fs::temp_directory_path() / ("ty-tui-storage-" + std::to_string(::getpid()));
};

TEST_F(TuiStorage, ListsAccountsContainersAndFoldersWithTheirSizes) {
  open(kWide, "jobs");
  command("storage");
  EXPECT_NE(screen().find("Storage accounts"), std::string::npos) << screen();
  EXPECT_NE(line_with("lake").find(azurite_->blob_endpoint()), std::string::npos) << screen();
  keys("Enter");
  EXPECT_NE(line_with("data").find("container"), std::string::npos) << screen();
  keys("Enter");
  // Folders first; sizes in bytes as listed: "# data\n" is 7 bytes.
  auto s = screen();
  EXPECT_LT(s.find("train/"), s.find("readme.md")) << s;
  EXPECT_NE(line_with("readme.md").find("7 B"), std::string::npos) << s;
  keys("Enter");
  EXPECT_NE(line_with("log.txt").find("34 B"), std::string::npos) << screen();
  // 300000 bytes = 292.96875 KiB.
  EXPECT_NE(line_with("model.bin").find("293.0 KiB"), std::string::npos) << screen();
  EXPECT_NE(screen().find("storage › lake › data › train/"), std::string::npos) << screen();
}

TEST_F(TuiStorage, ATextBlobOpensInTheLogViewAndIsFollowed) {
  open(kWide, "storage");
  command("storage lake/data/train");
  select("model");
  keys("Enter");
  EXPECT_NE(screen().find("model.bin is not text (application/octet-stream)"), std::string::npos)
      << screen();
  select("log.txt");
  keys("Enter");
  EXPECT_NE(screen().find("Blob · data/train/log.txt"), std::string::npos) << screen();
  EXPECT_NE(screen().find("epoch 2 loss=0.5"), std::string::npos) << screen();
  // The blob grows (rewritten longer): the followed view shows the new line within a second.
  put("train/log.txt", "epoch 1 loss=0.9\nepoch 2 loss=0.5\nepoch 3 loss=0.2\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  tui_->refresh();  // the read it is due for
  keys("G");
  EXPECT_NE(screen().find("epoch 3 loss=0.2"), std::string::npos) << screen();
  // Replaced by a shorter one: the copy starts over and the old lines are gone.
  put("train/log.txt", "fresh start\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  tui_->refresh();
  keys("G");
  EXPECT_NE(screen().find("fresh start"), std::string::npos) << screen();
  EXPECT_EQ(screen().find("epoch 1"), std::string::npos) << screen();
}

TEST_F(TuiStorage, DownloadsABlobAndAFolderByteForByte) {
  open(kWide, "storage");
  command("storage lake/data");
  select("train");
  keys("Enter");
  select("model");
  keys("d C-u");
  type((scratch_ / "one").string());
  keys("Enter");
  EXPECT_EQ(read_file(scratch_ / "one" / "model.bin"), model_);
  EXPECT_NE(settled_and_pumped().find("downloaded 1 file(s), 293.0 KiB"), std::string::npos)
      << screen();
  keys("Escape Escape");  // the filter cleared, then back to the container
  select("train");
  keys("d C-u");
  type((scratch_ / "two").string());
  keys("Enter");
  EXPECT_EQ(read_file(scratch_ / "two" / "train" / "model.bin"), model_);
  EXPECT_EQ(read_file(scratch_ / "two" / "train" / "log.txt"),
            "epoch 1 loss=0.9\nepoch 2 loss=0.5\n");
  // 300000 + 34 bytes = 293.0 KiB.
  EXPECT_NE(settled_and_pumped().find("downloaded 2 file(s), 293.0 KiB"), std::string::npos)
      << screen();
}

TEST_F(TuiStorage, AnUploadedFolderShowsInTheListing) {
  fs::create_directories(scratch_ / "run" / "sub");
  std::ofstream(scratch_ / "run" / "a.txt") << "alpha\n";
  std::ofstream(scratch_ / "run" / "sub" / "b.txt") << "beta\n";
  open(kWide, "storage");
  command("storage lake/data");
  keys("u");
  type((scratch_ / "run").string());
  keys("Enter");
  EXPECT_NE(settled_and_pumped().find("uploaded 2 file(s), 11 B"), std::string::npos) << screen();
  EXPECT_NE(settled_and_pumped().find("run/"), std::string::npos) << screen();
  auto b = client_->read_range("data", "run/sub/b.txt", 0, 100);
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->data, "beta\n");
}

TEST_F(TuiStorage, AMissingContainerSaysWhatTheServiceSaid) {
  open(kNormal, "storage");
  command("storage lake/nosuch");
  EXPECT_NE(screen().find("ContainerNotFound"), std::string::npos) << screen();
}

// No Azurite needed: the accounts are listed from the settings and the discovery cache alone.
class TuiStorageAccounts : public TuiScreen {};

TEST_F(TuiStorageAccounts, ADiscoveredAccountsAutoStorageIsKnownWithTheDiscoveryToken) {
  azure::DiscoveredAccount d;
  d.config.name = "mlteam";
  d.config.endpoint = "https://mlteam.westeurope.batch.azure.com";
  d.config.auto_storage = "mlteamdata";
  ASSERT_TRUE(azure::save_discovery_cache(azure::discovery_cache_path(fixture_.dir()), {d}).ok());
  auto& settings = fixture_.ctx().settings;
  settings.discovery.auth.kind = azure::AuthKind::AzureCli;
  auto found = find_storage_account(settings, "mlteamdata");
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_EQ(found->account_name, "mlteamdata");
  EXPECT_EQ(found->auth.kind, azure::AuthKind::AzureCli);
  EXPECT_EQ(found->auth.tokens.resource, azure::kStorageResource);
  // One of the same name in config.json wins.
  azure::StorageAccountConfig own;
  own.name = "mlteamdata";
  own.connection_string = "UseDevelopmentStorage=true";
  settings.storage_accounts = {own};
  EXPECT_EQ(find_storage_account(settings, "mlteamdata")->connection_string, own.connection_string);
  settings.storage_accounts.clear();
  open({200, 20}, "storage");
  auto row = line_with("mlteamdata");
  EXPECT_NE(
      row.find("https://mlteamdata.blob.core.windows.net · auto-storage of mlteam · discovered"),
      std::string::npos)
      << screen();
}

}  // namespace
}  // namespace trainyard::tui_storage_test
