// `trainyard outputs`: a task's node files (the emulator's node), its outputFiles destination and
// its File Conventions blobs (Azurite), listed together and fetched with --get.
#include "../azure/azurite_process.hpp"
#include "azure/blob_auth.hpp"
#include "azure/blob_client.hpp"
#include "azure/storage_accounts.hpp"
#include "batch_cli_fixture.hpp"

namespace trainyard::clitest::outputs_test {
namespace {

class OutputsCli : public BatchCli {
 protected:
  void SetUp() override {
    TY_REQUIRE_AZURITE();
    azurite_ = std::make_unique<azuretest::AzuriteProcess>();
    azure::BlobClientOptions o;
    o.blob_endpoint = azurite_->blob_endpoint();
    blobs_ = std::make_unique<azure::BlobClient>(
        o, azure::blob_shared_key_credential(azure::kDevStoreAccount, azure::kDevStoreKey), clock_);
    set_env("AZURE_STORAGE_CONNECTION_STRING", azurite_->connection_string());
  }

  void put(const std::string& container, const std::string& name, const std::string& bytes) {
    ASSERT_TRUE(blobs_->create_container(container));
    auto ok = blobs_->put_blob(container, name, bytes, "");
    ASSERT_TRUE(ok) << ok.error().message;
  }

  bool completed(const std::string& id) {
    for (int i = 0; i < 300; ++i) {
      auto ts = client_->tasks("j");
      for (const auto& t : ts ? *ts : std::vector<Task>{})
        if (t.id == id && t.state == TaskState::Completed) return true;
      std::this_thread::sleep_for(100ms);
    }
    return false;
  }

  std::unique_ptr<azuretest::AzuriteProcess> azurite_;
  std::unique_ptr<azure::BlobClient> blobs_;
};

TEST_F(OutputsCli, ListsAndFetchesWhatATaskLeftEverywhere) {
  const std::string results = azurite_->blob_endpoint() + "/results";
  nlohmann::json t{
      {"id", "t1"},
      {"commandLine", "/bin/sh -c 'mkdir -p outputs && printf weights > outputs/model.bin'"},
      {"outputFiles",
       {{{"filePattern", "outputs/**"},
         {"destination", {{"container", {{"containerUrl", results}, {"path", "j/t1"}}}}},
         {"uploadOptions", {{"uploadCondition", "taskSuccess"}}}}}}};
  ASSERT_TRUE(client_->add_task("j", t));
  ASSERT_TRUE(completed("t1"));
  // What Batch's upload and the conventions library would have left.
  put("results", "j/t1/outputs/model.bin", "weights");
  put("job-j", "t1/$TaskOutput/metrics.json", "{\"loss\":0.25}");
  put("job-j", "t1/$TaskLog/stdout.txt", "epoch 1\n");
  auto listing = tyb({"outputs", "--account", emu_.account(), "j/t1", "--json"});
  ASSERT_EQ(listing.code, 0) << listing.err;
  auto j = nlohmann::json::parse(listing.out);
  std::map<std::string, std::string> where;  // name -> source
  std::map<std::string, uint64_t> size;
  for (const auto& o : j["outputs"]) {
    where[o["name"]] = o["source"];
    size[o["name"]] = o["size"];
  }
  EXPECT_EQ(where["wd/outputs/model.bin"], "node");
  EXPECT_EQ(size["wd/outputs/model.bin"], 7u);  // "weights"
  EXPECT_EQ(where["j/t1/outputs/model.bin"], "outputFiles");
  EXPECT_EQ(where["t1/$TaskOutput/metrics.json"], "conventions");
  EXPECT_EQ(size["t1/$TaskOutput/metrics.json"], 13u);  // {"loss":0.25}
  EXPECT_EQ(where["t1/$TaskLog/stdout.txt"], "conventions");
  EXPECT_TRUE(j["notes"].empty()) << j["notes"].dump();

  auto get = tyb({"outputs", "--account", emu_.account(), "j/t1", "--get", root() + "/got"});
  ASSERT_EQ(get.code, 0) << get.err;
  EXPECT_EQ(read_file(root() + "/got/node/wd/outputs/model.bin"), "weights");
  EXPECT_EQ(read_file(root() + "/got/j/t1/outputs/model.bin"), "weights");
  EXPECT_EQ(read_file(root() + "/got/$TaskOutput/metrics.json"), "{\"loss\":0.25}");
  EXPECT_EQ(read_file(root() + "/got/$TaskLog/stdout.txt"), "epoch 1\n");
}

// Two outputFiles entries into one folder (`model*` to j/t2, `../stdout.txt` to
// j/t2/logs/stdout.txt): each blob is listed and fetched once, under the entry that uploads it.
TEST_F(OutputsCli, EachBlobOnceWhenOneDestinationLiesInsideAnother) {
  const std::string results = azurite_->blob_endpoint() + "/results";
  auto dest = [&](const std::string& path) {
    return nlohmann::json{{"container", {{"containerUrl", results}, {"path", path}}}};
  };
  nlohmann::json t{
      {"id", "t2"},
      {"commandLine", "true"},
      {"outputFiles",
       {{{"filePattern", "model*"}, {"destination", dest("j/t2")}},
        {{"filePattern", "../stdout.txt"}, {"destination", dest("j/t2/logs/stdout.txt")}}}}};
  ASSERT_TRUE(client_->add_task("j", t));
  ASSERT_TRUE(completed("t2"));
  put("results", "j/t2/model.h5", "0123456789");
  put("results", "j/t2/model-best.h5", "01234");
  put("results", "j/t2/logs/stdout.txt", "epoch 1\n");
  auto listing = tyb({"outputs", "--account", emu_.account(), "j/t2", "--json"});
  ASSERT_EQ(listing.code, 0) << listing.err;
  std::map<std::string, int> seen;
  const auto found = nlohmann::json::parse(listing.out);
  for (const auto& o : found["outputs"])
    if (o["source"] != "node") ++seen[o["name"].get<std::string>()];
  EXPECT_EQ(seen,
            (std::map<std::string, int>{
                {"j/t2/logs/stdout.txt", 1}, {"j/t2/model-best.h5", 1}, {"j/t2/model.h5", 1}}))
      << listing.out;
}

TEST_F(OutputsCli, WithoutAStorageAccountTheNodeFilesStillShowAndANoteSaysWhy) {
  unset_env("AZURE_STORAGE_CONNECTION_STRING");
  task("t2", "/bin/sh -c 'echo hi'");
  ASSERT_TRUE(completed("t2"));
  auto r = tyb({"outputs", "--account", emu_.account(), "j/t2"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("stdout.txt"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("conventions container: name a storage account"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace trainyard::clitest::outputs_test
