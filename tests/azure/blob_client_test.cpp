// The Blob client and transfers against Azurite, the real Storage emulator, on loopback:
// listings with paging, ranges, uploads and downloads byte for byte, resume, MD5 checks, SAS, a
// bad key and a missing container.
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "azure/blob_auth.hpp"
#include "azure/blob_client.hpp"
#include "azure/blob_transfer.hpp"
#include "azure/storage_accounts.hpp"
#include "azurite_process.hpp"

namespace trainyard::azure::blob_client_test {
namespace {

namespace fs = std::filesystem;
using azuretest::AzuriteProcess;

class BlobClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TY_REQUIRE_AZURITE();
    azurite_ = std::make_unique<AzuriteProcess>();
    client_ = client_with(blob_shared_key_credential(kDevStoreAccount, kDevStoreKey));
    dir_ = fs::temp_directory_path() / ("ty-blob-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::unique_ptr<BlobClient> client_with(std::unique_ptr<Credential> credential) {
    BlobClientOptions options;
    options.blob_endpoint = azurite_->blob_endpoint();
    options.retry.max_retries = 1;
    options.retry.base = std::chrono::milliseconds(10);
    return std::make_unique<BlobClient>(options, std::move(credential), clock_);
  }

  std::string write_file(const std::string& name, const std::string& bytes) {
    auto path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  static std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }

  // Bytes that differ at every offset, so a misplaced range shows.
  static std::string random_bytes(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::string s(n, '\0');
    for (auto& c : s) c = static_cast<char>(rng() & 0xff);
    return s;
  }

  SystemClock clock_;
  std::unique_ptr<AzuriteProcess> azurite_;
  std::unique_ptr<BlobClient> client_;
  fs::path dir_;
};

TEST_F(BlobClientTest, CreatesAContainerOnceAndListsIt) {
  auto first = client_->create_container("inputs");
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_TRUE(*first);
  auto again = client_->create_container("inputs");
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_FALSE(*again);
  auto list = client_->containers();
  ASSERT_TRUE(list) << list.error().message;
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].name, "inputs");
}

TEST_F(BlobClientTest, ListsFoldersAndFollowsMarkers) {
  ASSERT_TRUE(client_->create_container("data"));
  for (const char* name : {"a/1.txt", "a/2.txt", "a/b/3.txt", "c.txt", "d/4.txt", "e.txt"})
    ASSERT_TRUE(client_->put_blob("data", name, name, "text/plain"));
  auto top = client_->list_page("data", "", "/", "");
  ASSERT_TRUE(top) << top.error().message;
  EXPECT_EQ(top->prefixes, (std::vector<std::string>{"a/", "d/"}));
  ASSERT_EQ(top->blobs.size(), 2u);
  EXPECT_EQ(top->blobs[0].name, "c.txt");
  EXPECT_EQ(top->blobs[0].size, 5u);  // the blob's content is its name
  // Two to a page: six blobs take three pages, in name order.
  std::vector<std::string> names;
  std::string marker;
  int pages = 0;
  do {
    auto page = client_->list_page("data", "", "", marker, 2);
    ASSERT_TRUE(page) << page.error().message;
    for (const auto& b : page->blobs) names.push_back(b.name);
    marker = page->next_marker;
    ++pages;
  } while (!marker.empty());
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(names, (std::vector<std::string>{"a/1.txt", "a/2.txt", "a/b/3.txt", "c.txt", "d/4.txt",
                                             "e.txt"}));
  auto under_a = client_->list_page("data", "a/", "/", "");
  ASSERT_TRUE(under_a);
  EXPECT_EQ(under_a->prefixes, std::vector<std::string>{"a/b/"});
  EXPECT_EQ(under_a->blobs.size(), 2u);
}

TEST_F(BlobClientTest, ReadsRangesAndKnowsTheWholeSize) {
  ASSERT_TRUE(client_->create_container("logs"));
  std::string text;
  for (int i = 0; i < 100; ++i) text += "0123456789";
  ASSERT_TRUE(client_->put_blob("logs", "task/stdout.txt", text, "text/plain"));
  auto r = client_->read_range("logs", "task/stdout.txt", 995, 10);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->data, "56789");  // only five bytes are left after offset 995
  EXPECT_EQ(r->blob.size, 1000u);
  auto past = client_->read_range("logs", "task/stdout.txt", 1000, 10);
  ASSERT_TRUE(past) << past.error().message;
  EXPECT_EQ(past->data, "");
  EXPECT_EQ(past->blob.size, 1000u);
  auto changed = client_->read_range("logs", "task/stdout.txt", 0, 10, "\"0xNOTTHEETAG\"");
  ASSERT_FALSE(changed);
  EXPECT_EQ(changed.error().kind, ErrorKind::Conflict);
}

TEST_F(BlobClientTest, UploadsInParallelBlocksAndDownloadsTheSameBytes) {
  ASSERT_TRUE(client_->create_container("models"));
  const std::string bytes = random_bytes((5u << 20) + 12345, 7);
  auto src = write_file("model.bin", bytes);
  TransferOptions options;
  options.block_size = 1 << 20;
  options.parallel = 3;
  uint64_t last_done = 0, last_total = 0;
  options.progress = [&](uint64_t done, uint64_t total) {
    EXPECT_GE(done, last_done);
    last_done = done;
    last_total = total;
  };
  auto up = upload_file(*client_, src, "models", "run-1/model.bin", options);
  ASSERT_TRUE(up) << up.error().message;
  EXPECT_EQ(up->bytes, bytes.size());
  EXPECT_EQ(up->content_md5, content_md5(bytes));
  EXPECT_EQ(last_done, bytes.size());
  EXPECT_EQ(last_total, bytes.size());
  last_done = 0;
  auto props = client_->properties("models", "run-1/model.bin");
  ASSERT_TRUE(props) << props.error().message;
  EXPECT_EQ(props->size, bytes.size());
  EXPECT_EQ(props->content_md5, content_md5(bytes));
  EXPECT_EQ(props->content_type, "application/octet-stream");
  auto dest = (dir_ / "back.bin").string();
  auto down = download_blob(*client_, "models", "run-1/model.bin", dest, options);
  ASSERT_TRUE(down) << down.error().message;
  EXPECT_TRUE(down->verified);
  EXPECT_EQ(down->resumed_from, 0u);
  EXPECT_TRUE(read_file(dest) == bytes);
  EXPECT_FALSE(fs::exists(dest + kPartialSuffix));
  EXPECT_FALSE(fs::exists(dest + kPartialSuffix + ".etag"));
}

TEST_F(BlobClientTest, ADownloadGoesOnFromWhatAnInterruptedOneLeft) {
  ASSERT_TRUE(client_->create_container("ckpt"));
  const std::string bytes = random_bytes(3u << 20, 11);
  TransferOptions options;
  options.block_size = 1 << 20;
  ASSERT_TRUE(upload_file(*client_, write_file("src.bin", bytes), "ckpt", "w.bin", options));
  auto props = client_->properties("ckpt", "w.bin");
  ASSERT_TRUE(props);
  const auto dest = (dir_ / "w.bin").string();
  // What a download killed after 1,234,567 bytes leaves: those bytes and the blob's ETag.
  write_file("w.bin" + std::string(kPartialSuffix), bytes.substr(0, 1234567));
  write_file("w.bin" + std::string(kPartialSuffix) + ".etag", props->etag);
  auto down = download_blob(*client_, "ckpt", "w.bin", dest, options);
  ASSERT_TRUE(down) << down.error().message;
  EXPECT_EQ(down->resumed_from, 1234567u);
  EXPECT_TRUE(down->verified);
  EXPECT_TRUE(read_file(dest) == bytes);
}

TEST_F(BlobClientTest, APartialFileOfAnotherVersionIsStartedOver) {
  ASSERT_TRUE(client_->create_container("ckpt"));
  ASSERT_TRUE(client_->put_blob("ckpt", "v.txt", "version two", "text/plain"));
  const auto dest = (dir_ / "v.txt").string();
  write_file("v.txt" + std::string(kPartialSuffix), "version one, longer");
  write_file("v.txt" + std::string(kPartialSuffix) + ".etag", "\"0xOLD\"");
  auto down = download_blob(*client_, "ckpt", "v.txt", dest);
  ASSERT_TRUE(down) << down.error().message;
  EXPECT_EQ(down->resumed_from, 0u);
  EXPECT_EQ(read_file(dest), "version two");
}

TEST_F(BlobClientTest, ABlobWhoseBytesDoNotMatchItsMd5IsRefusedAndNotKept) {
  ASSERT_TRUE(client_->create_container("ckpt"));
  ASSERT_TRUE(client_->put_block("ckpt", "bad.bin", "YmxvY2stMQ==", "actual bytes"));
  // The stored MD5 is that of other bytes, as a damaged upload would leave it.
  ASSERT_TRUE(
      client_->put_block_list("ckpt", "bad.bin", {"YmxvY2stMQ=="}, "", content_md5("other")));
  const auto dest = (dir_ / "bad.bin").string();
  write_file("bad.bin", "what the user had");
  auto down = download_blob(*client_, "ckpt", "bad.bin", dest);
  ASSERT_FALSE(down);
  EXPECT_EQ(down.error().kind, ErrorKind::Parse);
  EXPECT_NE(down.error().message.find("does not match the blob's " + content_md5("other")),
            std::string::npos)
      << down.error().message;
  EXPECT_EQ(read_file(dest), "what the user had");
  EXPECT_FALSE(fs::exists(dest + kPartialSuffix));
}

TEST_F(BlobClientTest, ASasMadeHereIsAcceptedAndATamperedOneRefused) {
  ASSERT_TRUE(client_->create_container("shared"));
  ASSERT_TRUE(client_->put_blob("shared", "in.txt", "hello", "text/plain"));
  ServiceSasRequest req;
  req.account_name = kDevStoreAccount;
  req.blob_endpoint = azurite_->blob_endpoint();
  req.container = "shared";
  req.permissions.read = true;
  req.permissions.list = true;
  req.start = clock_.now() - std::chrono::minutes(5);
  req.expiry = clock_.now() + std::chrono::hours(1);
  auto sas = make_service_sas(req, kDevStoreKey);
  ASSERT_TRUE(sas) << sas.error().message;
  auto reader = client_with(sas_credential(*sas));
  auto page = reader->list_page("shared", "", "", "");
  ASSERT_TRUE(page) << page.error().message;
  ASSERT_EQ(page->blobs.size(), 1u);
  auto got = reader->read_range("shared", "in.txt", 0, 100);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(got->data, "hello");
  // Read and list only: writing is refused.
  auto write = reader->put_blob("shared", "out.txt", "x", "text/plain");
  ASSERT_FALSE(write);
  EXPECT_EQ(write.error().kind, ErrorKind::Auth);
  // One changed letter of the permissions breaks the signature.
  std::string tampered = *sas;
  auto sp = tampered.find("sp=rl");
  ASSERT_NE(sp, std::string::npos);
  tampered.replace(sp, 5, "sp=rw");
  auto forged = client_with(sas_credential(tampered))->list_page("shared", "", "", "");
  ASSERT_FALSE(forged);
  EXPECT_EQ(forged.error().kind, ErrorKind::Auth);
  // Azure says AuthenticationFailed; Azurite AuthorizationFailure. Either way a 403 with its code.
  EXPECT_TRUE(forged.error().message.starts_with("Authorization") ||
              forged.error().message.starts_with("AuthenticationFailed"))
      << forged.error().message;
  EXPECT_NE(forged.error().message.find("(HTTP 403"), std::string::npos);
}

TEST_F(BlobClientTest, ABadKeyAndAMissingContainerSayWhatIsWrong) {
  const std::string wrong_key = "d3Jvbmcta2V5LXdyb25nLWtleS13cm9uZy1rZXktd3Jvbmcta2V5";
  auto bad = client_with(blob_shared_key_credential(kDevStoreAccount, wrong_key))->containers();
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::Auth);
  EXPECT_TRUE(bad.error().message.starts_with("AuthorizationFailure") ||
              bad.error().message.starts_with("AuthenticationFailed"))
      << bad.error().message;
  EXPECT_EQ(bad.error().message.find(wrong_key), std::string::npos);
  auto missing = client_->list_page("nosuch", "", "", "");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::NotFound);
  EXPECT_TRUE(missing.error().message.starts_with("ContainerNotFound")) << missing.error().message;
  auto no_blob = client_->properties("nosuch", "x");
  ASSERT_FALSE(no_blob);
  EXPECT_EQ(no_blob.error().kind, ErrorKind::NotFound);
}

}  // namespace
}  // namespace trainyard::azure::blob_client_test
