// `--upload DIR` on `run --account A` and `submit --account A`: the folder's files go to Azurite
// under the SHA-256 of their bytes (an unchanged file is not sent again), and each task gets
// resourceFiles with read SAS URLs that trainyard signed and outputFiles with a write SAS for the
// job's File Conventions container.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "../azure/azurite_process.hpp"
#include "azure/blob_auth.hpp"
#include "azure/blob_client.hpp"
#include "azure/http.hpp"
#include "azure/storage_accounts.hpp"
#include "batch_cli_fixture.hpp"

namespace trainyard::clitest::upload_test {
namespace {

using nlohmann::json;

// sha256("hello\n"), as `printf 'hello\n' | sha256sum` prints it.
constexpr const char* kHelloSha256 =
    "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";

class UploadCli : public BatchCli {
 protected:
  void SetUp() override {
    TY_REQUIRE_AZURITE();
    azurite_ = std::make_unique<azuretest::AzuriteProcess>();
    set_env("AZURE_STORAGE_CONNECTION_STRING", azurite_->connection_string());
    inputs_ = root() + "/inputs";
    std::filesystem::create_directories(inputs_ + "/scripts");
    std::ofstream(inputs_ + "/data.txt") << "hello\n";
    std::ofstream(inputs_ + "/scripts/train.sh") << "echo training\n";
    ::chmod((inputs_ + "/scripts/train.sh").c_str(), 0755);
  }

  json task_json(const std::string& job, const std::string& id) {
    auto r = client_->call("GET", "/jobs/" + job + "/tasks/" + id);
    EXPECT_TRUE(r.ok()) << (r ? "" : r.error().message);
    return r ? json::parse(r->body) : json();
  }

  azure::HttpResponse send(const std::string& method, const std::string& url,
                           const std::string& body = "") {
    azure::HttpRequest req{method, url, {}, body};
    if (method == "PUT") req.headers = {{"x-ms-blob-type", "BlockBlob"}};
    auto r = http_.send(req);
    EXPECT_TRUE(r.ok()) << (r ? "" : r.error().message);
    return r ? *r : azure::HttpResponse{};
  }

  // The task's JSON once it completed; null after 60 s.
  json completed(const std::string& job, const std::string& id) {
    for (int i = 0; i < 600; ++i) {
      auto t = task_json(job, id);
      if (t.value("state", "") == "completed") return t;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return nullptr;
  }

  std::string read_sas(const std::string& container, const std::string& blob) {
    azure::ServiceSasRequest req{azure::kDevStoreAccount,
                                 azurite_->blob_endpoint(),
                                 container,
                                 blob,
                                 {.read = true},
                                 clock_.now() - std::chrono::minutes(5),
                                 clock_.now() + std::chrono::hours(1)};
    auto sas = azure::make_service_sas(req, azure::kDevStoreKey);
    EXPECT_TRUE(sas.ok());
    return sas ? *sas : "";
  }

  std::unique_ptr<azuretest::AzuriteProcess> azurite_;
  azure::HttpClient http_;
  std::string inputs_;
};

TEST_F(UploadCli, RunSendsTheFolderAndTheTaskGetsSignedUrls) {
  auto r = tyb({"run", "--account", emu_.account(), "--job", "j", "--id", "t1", "--upload", inputs_,
                "--", "cat", "data.txt"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "j/t1\n");
  // data.txt is 6 bytes, train.sh 14.
  EXPECT_NE(r.err.find("inputs: 2 file(s) (20 B), 2 sent (20 B), 0 already in storage account"),
            std::string::npos)
      << r.err;
  auto t = task_json("j", "t1");
  ASSERT_EQ(t["resourceFiles"].size(), 2u) << t.dump();
  const auto& data = t["resourceFiles"][0];
  EXPECT_EQ(data["filePath"], "data.txt");
  EXPECT_EQ(data["fileMode"], "0644");
  EXPECT_EQ(t["resourceFiles"][1]["filePath"], "scripts/train.sh");
  EXPECT_EQ(t["resourceFiles"][1]["fileMode"], "0755");
  const std::string url = data["httpUrl"];
  const std::string blob = azurite_->blob_endpoint() + "/trainyard-inputs/sha256/" + kHelloSha256;
  ASSERT_EQ(url.rfind(blob + "?", 0), 0u) << url;
  EXPECT_NE(url.find("sp=r&"), std::string::npos) << url;  // read only
  auto got = send("GET", url);
  EXPECT_EQ(got.status, 200);
  EXPECT_EQ(got.body, "hello\n");
  // The signature covers the rest: a changed expiry is refused.
  std::string tampered = url;
  tampered.replace(tampered.find("se=") + 3, 4, "2099");
  EXPECT_EQ(send("GET", tampered).status, 403);
}

TEST_F(UploadCli, OutputsGoToTheJobsConventionsContainerWithAWriteOnlySas) {
  auto r = tyb({"run", "--account", emu_.account(), "--job", "j", "--id", "t1", "--upload", inputs_,
                "--", "true"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto outputs = task_json("j", "t1")["outputFiles"];
  ASSERT_EQ(outputs.size(), 3u) << outputs.dump();
  EXPECT_EQ(outputs[0]["filePattern"], "outputs/**/*");
  EXPECT_EQ(outputs[0]["destination"]["container"]["path"], "t1/$TaskOutput");
  EXPECT_EQ(outputs[1]["filePattern"], "../stdout.txt");
  EXPECT_EQ(outputs[1]["destination"]["container"]["path"], "t1/$TaskLog/stdout.txt");
  EXPECT_EQ(outputs[2]["destination"]["container"]["path"], "t1/$TaskLog/stderr.txt");
  for (const auto& o : outputs) EXPECT_EQ(o["uploadOptions"]["uploadCondition"], "taskCompletion");
  const std::string url = outputs[0]["destination"]["container"]["containerUrl"];
  const std::string container = azurite_->blob_endpoint() + "/job-j";
  ASSERT_EQ(url.rfind(container + "?", 0), 0u) << url;
  const std::string sas = url.substr(container.size());
  EXPECT_EQ(send("PUT", container + "/t1/$TaskOutput/model.bin" + sas, "weights").status, 201);
  EXPECT_EQ(send("GET", container + "/t1/$TaskOutput/model.bin" + sas).status, 403);
}

TEST_F(UploadCli, ASecondRunSendsOnlyWhatChanged) {
  ASSERT_EQ(
      tyb({"run", "--account", emu_.account(), "--job", "j", "--upload", inputs_, "--", "true"})
          .code,
      0);
  std::ofstream(inputs_ + "/scripts/train.sh") << "echo training harder\n";  // 21 bytes
  auto r =
      tyb({"run", "--account", emu_.account(), "--job", "j", "--upload", inputs_, "--", "true"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("inputs: 2 file(s) (27 B), 1 sent (21 B), 1 already in storage account"),
            std::string::npos)
      << r.err;
}

TEST_F(UploadCli, WithoutAStorageAccountNothingIsCreated) {
  unset_env("AZURE_STORAGE_CONNECTION_STRING");
  auto r = tyb({"run", "--account", emu_.account(), "--job", "j2", "--pool", "p", "--upload",
                inputs_, "--", "true"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--upload needs a storage account: give --storage S, set autoStorage on "
                       "account"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(client_->call("GET", "/jobs/j2").error().kind, ErrorKind::NotFound);
  auto local = tyb({"run", "--upload", inputs_, "--", "true"});
  EXPECT_EQ(local.code, 2);
  EXPECT_NE(local.err.find("--upload and --storage are for Batch accounts"), std::string::npos);
}

TEST_F(UploadCli, AFolderWithoutFilesIsRefusedBeforeAnythingIsSent) {
  std::filesystem::create_directories(root() + "/empty");
  auto r = tyb({"run", "--account", emu_.account(), "--job", "j3", "--pool", "p", "--upload",
                root() + "/empty", "--", "true"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("the folder holds no files"), std::string::npos) << r.err;
  EXPECT_EQ(client_->call("GET", "/jobs/j3").error().kind, ErrorKind::NotFound);
}

TEST_F(UploadCli, SubmitGivesEveryTaskTheInputsAndKeepsATasksOwnOutputFiles) {
  json own = json::array(
      {{{"filePattern", "*.log"},
        {"destination", {{"container", {{"containerUrl", "http://127.0.0.1:1/c?sig=x"}}}}},
        {"uploadOptions", {{"uploadCondition", "taskFailure"}}}}});
  json spec{{"job", {{"id", "sweep"}, {"poolInfo", {{"poolId", "p"}}}}},
            {"tasks",
             {{{"id", "a"}, {"commandLine", "true"}},
              {{"id", "b"}, {"commandLine", "true"}, {"outputFiles", own}}}}};
  std::ofstream(root() + "/spec.json") << spec.dump();
  auto r = tyb({"submit", root() + "/spec.json", "--account", emu_.account(), "--upload", inputs_});
  ASSERT_EQ(r.code, 0) << r.err;
  auto a = task_json("sweep", "a"), b = task_json("sweep", "b");
  EXPECT_EQ(a["resourceFiles"].size(), 2u);
  EXPECT_EQ(b["resourceFiles"].size(), 2u);
  EXPECT_EQ(a["outputFiles"].size(), 3u);
  EXPECT_EQ(a["outputFiles"][0]["destination"]["container"]["path"], "a/$TaskOutput");
  ASSERT_EQ(b["outputFiles"].size(), 1u);
  EXPECT_EQ(b["outputFiles"][0]["filePattern"], "*.log");
}

// The whole path: the emulator downloads the task's inputs (a script keeps its mode), the task
// writes outputs/, the emulator uploads them and the logs on completion, and `outputs --get`
// brings back the same bytes.
TEST_F(UploadCli, ATaskReadsItsInputsAndItsOutputsComeBackByteForByte) {
  auto r = tyb({"run", "--account", emu_.account(), "--job", "j", "--id", "e2e", "--upload",
                inputs_, "--", "sh", "-c",
                "./scripts/train.sh && mkdir -p outputs/ckpt && cat data.txt data.txt > "
                "outputs/model.bin && printf step > outputs/ckpt/last"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto t = completed("j", "e2e");
  ASSERT_FALSE(t.is_null());
  EXPECT_EQ(t["executionInfo"]["result"], "success") << t["executionInfo"].dump();
  auto get = tyb({"outputs", "--account", emu_.account(), "j/e2e", "--get", root() + "/got"});
  ASSERT_EQ(get.code, 0) << get.err;
  EXPECT_EQ(read_file(root() + "/got/$TaskOutput/model.bin"), "hello\nhello\n");
  EXPECT_EQ(read_file(root() + "/got/$TaskOutput/ckpt/last"), "step");
  EXPECT_EQ(read_file(root() + "/got/$TaskLog/stdout.txt"), "training\n");
  EXPECT_EQ(read_file(root() + "/got/$TaskLog/stderr.txt"), "");
}

TEST_F(UploadCli, AMissingInputFailsTheTaskBeforeItsCommandRuns) {
  const std::string url = azurite_->blob_endpoint() + "/trainyard-inputs/absent.bin?" +
                          read_sas("trainyard-inputs", "absent.bin");
  json task{{"id", "noinput"},
            {"commandLine", "/bin/sh -c 'touch ran'"},
            {"resourceFiles", {{{"httpUrl", url}, {"filePath", "absent.bin"}}}}};
  ASSERT_TRUE(client_->add_task("j", task).ok());
  auto t = completed("j", "noinput");
  ASSERT_FALSE(t.is_null());
  const auto& info = t["executionInfo"];
  EXPECT_EQ(info["result"], "failure");
  EXPECT_FALSE(info.contains("exitCode")) << info.dump();
  EXPECT_EQ(info["failureInfo"]["code"], "BlobNotFound") << info.dump();
  // The message names the blob, never the SAS.
  EXPECT_EQ(info["failureInfo"]["message"].get<std::string>().find("sig="), std::string::npos);
}

TEST_F(UploadCli, AnOutputThatCannotBeUploadedFailsATaskThatSucceeded) {
  json task{{"id", "noupload"},
            {"commandLine", "/bin/sh -c 'printf w > model.bin'"},
            {"outputFiles",
             {{{"filePattern", "model.bin"},
               {"destination",
                {{"container", {{"containerUrl", azurite_->blob_endpoint() + "/nosuch"}}}}},
               {"uploadOptions", {{"uploadCondition", "taskSuccess"}}}}}}};
  ASSERT_TRUE(client_->add_task("j", task).ok());
  auto t = completed("j", "noupload");
  ASSERT_FALSE(t.is_null());
  const auto& info = t["executionInfo"];
  EXPECT_EQ(info["exitCode"], 0);
  EXPECT_EQ(info["result"], "failure");
  EXPECT_EQ(info["failureInfo"]["code"], "FileUploadMiscError");
  const std::string why = info["failureInfo"]["message"];
  EXPECT_EQ(why.rfind("One or more output files failed to upload: model.bin: " +
                          azurite_->blob_endpoint() + "/nosuch/model.bin: HTTP 4",
                      0),
            0u)
      << why;
  // Each entry that failed is a detail of its own, as the node's fileuploaderr.txt has it.
  const auto& details = info["failureInfo"]["details"];
  ASSERT_EQ(details.size(), 1u) << info.dump();
  EXPECT_EQ(details[0]["name"], "FileUploadError");
  EXPECT_EQ(details[0]["value"].get<std::string>().rfind(
                "model.bin: " + azurite_->blob_endpoint() + "/nosuch/model.bin: HTTP 4", 0),
            0u)
      << details.dump();
  auto files = client_->call("GET", "/jobs/j/tasks/noupload/files/fileuploaderr.txt");
  ASSERT_TRUE(files.ok()) << files.error().message;
  EXPECT_EQ(files->body, details[0]["value"].get<std::string>() + "\n");
}

// Output patterns as Batch matches them: `../std*.txt` reaches the task's own folder and drops the
// `..`; `**/*.txt` takes the working directory's files at any depth, under their names below it.
TEST_F(UploadCli, OutputPatternsUploadWhatTheyMatchUnderBatchsNames) {
  azure::BlobClientOptions o;
  o.blob_endpoint = azurite_->blob_endpoint();
  azure::BlobClient blobs(
      o, azure::blob_shared_key_credential(azure::kDevStoreAccount, azure::kDevStoreKey), clock_);
  ASSERT_TRUE(blobs.create_container("pat"));
  azure::ServiceSasRequest req{azure::kDevStoreAccount,
                               azurite_->blob_endpoint(),
                               "pat",
                               "",
                               {.create = true, .write = true},
                               clock_.now() - std::chrono::minutes(5),
                               clock_.now() + std::chrono::hours(1)};
  auto sas = azure::make_service_sas(req, azure::kDevStoreKey);
  ASSERT_TRUE(sas.ok());
  const std::string url = azurite_->blob_endpoint() + "/pat?" + *sas;
  auto to = [&](const std::string& pattern, const std::string& path) {
    return json{{"filePattern", pattern},
                {"destination", {{"container", {{"containerUrl", url}, {"path", path}}}}},
                {"uploadOptions", {{"uploadCondition", "taskCompletion"}}}};
  };
  json task{{"id", "pat"},
            {"commandLine",
             "/bin/sh -c 'echo out; mkdir -p sub && echo a > a.txt && echo b > "
             "sub/b.txt && echo c > c.bin'"},
            {"outputFiles", {to("../std*.txt", "logs"), to("**/*.txt", "txt")}}};
  ASSERT_TRUE(client_->add_task("j", task).ok());
  auto t = completed("j", "pat");
  ASSERT_FALSE(t.is_null());
  EXPECT_EQ(t["executionInfo"]["result"], "success") << t["executionInfo"].dump();
  std::vector<std::string> names;
  auto listed = blobs.list("pat", "", "", [&](azure::BlobListPage& page) -> Result<void> {
    for (const auto& b : page.blobs) names.push_back(b.name);
    return {};
  });
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"logs/stderr.txt", "logs/stdout.txt", "txt/a.txt",
                                             "txt/sub/b.txt"}));
}

// A resourceFile's autoStorageContainerName is read from the account's auto-storage, as Batch
// reads the linked storage account: an emulator started with --auto-storage signs its own
// read-and-list SAS for the container. Without one, the task fails before its command runs.
TEST_F(UploadCli, AutoStorageContainerFilesReachTheTask) {
  std::filesystem::create_directories(root() + "/auto/data");
  std::ofstream(root() + "/auto/data/in.txt") << "from auto-storage\n";
  auto put = tyb({"storage", "put", root() + "/auto/data", "autoin"});
  ASSERT_EQ(put.code, 0) << put.err;
  azuretest::EmulatorProcess linked({"--auto-storage", azurite_->connection_string()});
  auto client = azuretest::emulator_client(linked, clock_);
  for (auto [path, body] :
       {std::pair{"/pools", json{{"id", "p"}, {"vmSize", "d2"}, {"targetDedicatedNodes", 1}}},
        std::pair{"/jobs", json{{"id", "j"}, {"poolInfo", {{"poolId", "p"}}}}}})
    ASSERT_TRUE(client->call("POST", path, {}, body.dump(), {}, false).ok()) << path;
  json task{{"id", "auto"},
            {"commandLine", "/bin/sh -c 'test \"$(cat data/in.txt)\" = \"from auto-storage\"'"},
            {"resourceFiles", {{{"autoStorageContainerName", "autoin"}, {"blobPrefix", "data/"}}}}};
  ASSERT_TRUE(client->add_task("j", task).ok());
  json t = json::object();
  for (int i = 0; i < 600 && t.value("state", "") != "completed"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto r = client->call("GET", "/jobs/j/tasks/auto");
    ASSERT_TRUE(r.ok());
    t = json::parse(r->body);
  }
  EXPECT_EQ(t["executionInfo"]["result"], "success") << t["executionInfo"].dump();
  EXPECT_EQ(t["executionInfo"]["exitCode"], 0) << t["executionInfo"].dump();

  ASSERT_TRUE(client_
                  ->add_task("j", {{"id", "noauto"},
                                   {"commandLine", "/bin/true"},
                                   {"resourceFiles", {{{"autoStorageContainerName", "autoin"}}}}})
                  .ok());
  auto none = completed("j", "noauto");
  ASSERT_FALSE(none.is_null());
  EXPECT_EQ(none["executionInfo"]["failureInfo"]["code"], "BlobDownloadMiscError");
  EXPECT_EQ(none["executionInfo"]["failureInfo"]["message"],
            "autoStorageContainerName: the account has no auto-storage (start the emulator with "
            "--auto-storage)");
}

TEST_F(UploadCli, AnAutoStorageWithoutAKeyIsRefusedAtStart) {
  auto r = tyb({"emulator", "--port", "0", "--auto-storage",
                "AccountName=acct;BlobEndpoint=http://127.0.0.1:10000/acct"});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--auto-storage: the connection string has no AccountKey"),
            std::string::npos)
      << r.err;
  auto far =
      tyb({"emulator", "--port", "0", "--auto-storage",
           "AccountName=acct;AccountKey=a2V5;BlobEndpoint=https://acct.blob.core.windows.net"});
  EXPECT_NE(far.code, 0);
  EXPECT_NE(far.err.find("--auto-storage: its BlobEndpoint must be a loopback http URL"),
            std::string::npos)
      << far.err;
}

}  // namespace
}  // namespace trainyard::clitest::upload_test
