// `trainyard storage ls|get|put|cat` against Azurite on loopback: folders up and back byte for
// byte, a 100 MB download resumed after a kill, sanitized text, and the errors a user meets.
#include <spawn.h>
#include <sys/wait.h>

#include <random>

#include "../azure/azurite_process.hpp"
#include "cli_fixture.hpp"

namespace trainyard::clitest::storage_test {
namespace {

class StorageCli : public Cli {
 protected:
  void SetUp() override {
    TY_REQUIRE_AZURITE();
    azurite_ = std::make_unique<azuretest::AzuriteProcess>();
    for (const char* v : {"AZURE_STORAGE_ACCOUNT", "AZURE_STORAGE_KEY", "AZURE_STORAGE_SAS_TOKEN",
                          "AZURE_STORAGE_AUTH_MODE"})
      unset_env(v);
    set_env("AZURE_STORAGE_CONNECTION_STRING", azurite_->connection_string());
  }

  std::string make_file(const std::string& rel, const std::string& bytes) {
    fs::path p = fs::path(root()) / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }

  std::unique_ptr<azuretest::AzuriteProcess> azurite_;
};

TEST_F(StorageCli, PutsAFolderListsItAndGetsItBack) {
  make_file("data/a.txt", "alpha\n");
  make_file("data/sub/b.csv", "x,y\n1,2\n");
  auto put = ty({"storage", "put", root() + "/data", "inputs/run1"});
  ASSERT_EQ(put.code, 0) << put.err;
  EXPECT_NE(put.out.find("created container inputs"), std::string::npos) << put.out;
  EXPECT_NE(put.out.find("-> inputs/run1/data/sub/b.csv (8 B, MD5 "), std::string::npos) << put.out;
  auto folders = ty({"storage", "ls", "inputs/run1"});
  ASSERT_EQ(folders.code, 0) << folders.err;
  EXPECT_EQ(lines_of(folders.out).size(), 1u) << folders.out;
  EXPECT_NE(folders.out.find("DIR"), std::string::npos);
  EXPECT_NE(folders.out.find("run1/data/"), std::string::npos);
  auto listing = ty({"storage", "ls", "inputs/run1/data", "--json"});
  ASSERT_EQ(listing.code, 0) << listing.err;
  auto j = json::parse(listing.out);
  ASSERT_EQ(j.size(), 2u) << listing.out;
  EXPECT_EQ(j[0]["name"], "run1/data/sub/");
  EXPECT_EQ(j[0]["folder"], true);
  EXPECT_EQ(j[1]["name"], "run1/data/a.txt");
  EXPECT_EQ(j[1]["size"], 6);
  EXPECT_EQ(j[1]["contentType"], "text/plain");
  // `printf 'alpha\n' | openssl md5 -binary | base64`
  EXPECT_EQ(j[1]["contentMD5"], "n5+Q2+Pl7hIYyGuIOdsZlQ==");
  auto get = ty({"storage", "get", "inputs/run1/", root() + "/back"});
  ASSERT_EQ(get.code, 0) << get.err;
  EXPECT_EQ(read_file(root() + "/back/data/a.txt"), "alpha\n");
  EXPECT_EQ(read_file(root() + "/back/data/sub/b.csv"), "x,y\n1,2\n");
  EXPECT_NE(get.out.find("MD5 verified"), std::string::npos) << get.out;
  auto containers = ty({"storage", "ls"});
  ASSERT_EQ(containers.code, 0) << containers.err;
  EXPECT_NE(containers.out.find("inputs"), std::string::npos);
}

// Starts `trainyard ARGS` without waiting; the caller kills it.
pid_t spawn_trainyard(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  std::vector<std::string> all{TRAINYARD_BIN};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv, envp;
  for (auto& a : all) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  posix_spawn(&pid, TRAINYARD_BIN, &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

TEST_F(StorageCli, A100MbDownloadKilledHalfwayResumesAndMatches) {
  std::string bytes(100u << 20, '\0');
  std::mt19937_64 rng(2026);
  for (size_t i = 0; i < bytes.size(); i += 8) {
    uint64_t v = rng();
    std::memcpy(bytes.data() + i, &v, 8);
  }
  auto src = make_file("big/model.bin", bytes);
  ASSERT_EQ(ty({"storage", "put", src, "models"}, 300s).code, 0);
  const std::string dest = root() + "/model.bin";
  const std::string part = dest + ".trainyard-part";
  pid_t pid = spawn_trainyard(
      {"--data-dir", data(), "storage", "get", "--parallel", "2", "models/model.bin", dest},
      environment());
  ASSERT_GT(pid, 0);
  // Killed once the first 8 MiB block is on disk, well before the end.
  for (int i = 0; i < 6000; ++i) {
    std::error_code ec;
    const auto size = fs::file_size(part, ec);  // -1 (so, huge) while there is no file
    if (!ec && size >= (8u << 20)) break;
    std::this_thread::sleep_for(2ms);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  std::error_code ec;
  const auto kept = fs::file_size(part, ec);
  ASSERT_FALSE(ec) << "no partial file after the kill: " << ec.message();
  ASSERT_LT(kept, bytes.size());
  EXPECT_FALSE(fs::exists(dest));
  auto again = ty({"storage", "get", "models/model.bin", dest}, 300s);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("resumed at"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("MD5 verified"), std::string::npos) << again.out;
  EXPECT_TRUE(read_file(dest) == bytes);
  EXPECT_FALSE(fs::exists(part));
}

TEST_F(StorageCli, CatShowsTextInertlyAndErrorsNameTheBlob) {
  auto src = make_file("note.txt", "line one\n\x1b]0;owned\x07line two\n");
  ASSERT_EQ(ty({"storage", "put", src, "notes"}).code, 0);
  auto cat = ty({"storage", "cat", "notes/note.txt"});
  ASSERT_EQ(cat.code, 0) << cat.err;
  EXPECT_EQ(cat.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(cat.out.find('\x07'), std::string::npos);
  EXPECT_TRUE(cat.out.starts_with("line one\n")) << cat.out;
  EXPECT_NE(cat.out.find("line two"), std::string::npos);
  auto missing = ty({"storage", "cat", "notes/nope.txt"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_TRUE(missing.err.starts_with("trainyard: storage cat notes/nope.txt: BlobNotFound"))
      << missing.err;
  auto no_container = ty({"storage", "ls", "nosuch"});
  EXPECT_EQ(no_container.code, 1);
  EXPECT_TRUE(no_container.err.starts_with("trainyard: storage ls nosuch: ContainerNotFound"))
      << no_container.err;
  auto unknown = ty({"storage", "ls", "--storage", "nope"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("unknown storage account 'nope'"), std::string::npos) << unknown.err;
}

}  // namespace
}  // namespace trainyard::clitest::storage_test
