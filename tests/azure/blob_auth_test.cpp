// Blob service SharedKey and service SAS: strings-to-sign and signatures checked against values
// computed independently of this code (Python's hmac/hashlib/base64, one cross-checked with
// `openssl dgst -sha256 -mac HMAC -macopt hexkey:…`), and the documented canonicalized resources.
#include "azure/blob_auth.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "azure/credentials.hpp"

namespace trainyard::azure::blob_auth_test {
namespace {

using namespace std::chrono_literals;

// Azurite's published development key, and the bytes 0..31.
constexpr const char* kDevKey =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
constexpr const char* kKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

Timestamp at_utc(int y, unsigned m, unsigned d, std::chrono::seconds time_of_day) {
  return Timestamp(std::chrono::sys_days(std::chrono::year(y) / m / d)) + time_of_day;
}

// Fri, 27 Nov 2026 03:17:24 GMT.
const Timestamp kNow = at_utc(2026, 11, 27, 3h + 17min + 24s);

std::string header(const HttpRequest& req, std::string_view name) {
  return find_header(req.headers, name);
}

// Expected signature: python3 -c 'import base64,hmac,hashlib; print(base64.b64encode(hmac.new(
//   base64.b64decode(KEY), STS.encode(), hashlib.sha256).digest()).decode())', and the same with
// `openssl dgst -sha256 -mac HMAC -macopt hexkey:$(base64 -d <<<KEY | xxd -p -c 200) -binary`.
TEST(BlobSharedKey, CreateContainerOnAzuriteSignsThePathStyleResource) {
  auto cred = blob_shared_key_credential("devstoreaccount1", kDevKey);
  HttpRequest req;
  req.method = "PUT";
  req.url = "http://127.0.0.1:10000/devstoreaccount1/mycontainer?restype=container";
  ASSERT_TRUE(cred->authorize(req, kNow).ok());
  EXPECT_EQ(header(req, "x-ms-date"), "Fri, 27 Nov 2026 03:17:24 GMT");
  EXPECT_EQ(header(req, "x-ms-version"), "2021-08-06");
  EXPECT_EQ(header(req, "Content-Length"), "");
  // The account appears twice with a path-style (emulator) endpoint: once as the signer, once in
  // the URL's path.
  EXPECT_EQ(blob_string_to_sign(req, "devstoreaccount1"),
            "PUT\n\n\n\n\n\n\n\n\n\n\n\n"
            "x-ms-date:Fri, 27 Nov 2026 03:17:24 GMT\nx-ms-version:2021-08-06\n"
            "/devstoreaccount1/devstoreaccount1/mycontainer\nrestype:container");
  EXPECT_EQ(header(req, "Authorization"),
            "SharedKey devstoreaccount1:j38Gzjr2MpUHlW28Rv9ilitUoSsH4qC65li7Rn5qRgo=");
}

TEST(BlobSharedKey, PutBlobSignsContentHeadersAndSortedMsHeaders) {
  auto cred = blob_shared_key_credential("myaccount", kKey);
  HttpRequest req;
  req.method = "put";
  req.url = "https://myaccount.blob.core.windows.net/data/dir/my%20file.txt?timeout=30";
  req.body = "hello world";
  // Out of order and in mixed case on purpose; Content-MD5 is base64(md5("hello world")).
  req.headers = {{"X-MS-Client-Request-Id", " abc "},
                 {"Content-Type", "text/plain"},
                 {"x-ms-blob-type", "BlockBlob"},
                 {"Content-MD5", "XrY7u+Ae7tCTyyK7j1rNww=="},
                 {"x-ms-version", "2021-08-06"}};
  ASSERT_TRUE(cred->authorize(req, kNow).ok());
  EXPECT_EQ(header(req, "Content-Length"), "11");
  EXPECT_EQ(blob_string_to_sign(req, "myaccount"),
            "PUT\n\n\n11\nXrY7u+Ae7tCTyyK7j1rNww==\ntext/plain\n\n\n\n\n\n\n"
            "x-ms-blob-type:BlockBlob\nx-ms-client-request-id:abc\n"
            "x-ms-date:Fri, 27 Nov 2026 03:17:24 GMT\nx-ms-version:2021-08-06\n"
            "/myaccount/data/dir/my%20file.txt\ntimeout:30");
  EXPECT_EQ(header(req, "Authorization"),
            "SharedKey myaccount:ypBv5YpQenl3yYqtbVvAMCDaTZ4oxQAxzfS6lZuDBSE=");
}

// The CanonicalizedResource examples of "Authorize with Shared Key" (Blob service).
TEST(BlobSharedKey, DocumentedCanonicalizedResources) {
  auto resource_of = [](const char* url) {
    HttpRequest req;
    req.url = url;
    std::string s = blob_string_to_sign(req, "myaccount");
    return s.substr(s.find("\n/") + 1);
  };
  EXPECT_EQ(resource_of("http://myaccount.blob.core.windows.net/mycontainer?restype=container&"
                        "comp=metadata"),
            "/myaccount/mycontainer\ncomp:metadata\nrestype:container");
  EXPECT_EQ(resource_of("http://myaccount.blob.core.windows.net/mycontainer?restype=container&"
                        "comp=list&include=snapshots&include=metadata&include=uncommittedblobs"),
            "/myaccount/mycontainer\ncomp:list\ninclude:metadata,snapshots,uncommittedblobs\n"
            "restype:container");
  EXPECT_EQ(resource_of("https://myaccount-secondary.blob.core.windows.net/mycontainer/myblob"),
            "/myaccount/mycontainer/myblob");
}

// Batch signs ocp- headers and no x-ms- ones; the Blob service the other way round.
TEST(BlobSharedKey, IsNotTheBatchStringToSign) {
  HttpRequest req;
  req.url = "https://myaccount.blob.core.windows.net/c?comp=list&restype=container";
  req.headers = {{"x-ms-date", "Fri, 27 Nov 2026 03:17:24 GMT"}, {"ocp-date", "x"}};
  EXPECT_NE(blob_string_to_sign(req, "myaccount").find("x-ms-date:"), std::string::npos);
  EXPECT_EQ(blob_string_to_sign(req, "myaccount").find("ocp-date"), std::string::npos);
  EXPECT_EQ(shared_key_string_to_sign(req, "myaccount").find("x-ms-date"), std::string::npos);
}

TEST(BlobSharedKey, ABadKeyFailsWithoutQuotingIt) {
  auto cred = blob_shared_key_credential("myaccount", "c2VjcmV0*not-base64");
  HttpRequest req;
  req.url = "https://myaccount.blob.core.windows.net/c";
  auto r = cred->authorize(req, kNow);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Auth);
  EXPECT_EQ(r.error().message.find("c2VjcmV0"), std::string::npos) << r.error().message;
  EXPECT_EQ(header(req, "Authorization"), "");
}

TEST(SasCredential, AddsTheTokenToTheQueryOnce) {
  auto cred = sas_credential("?sv=2021-08-06&sr=c&sp=rl&sig=abc%3D");
  HttpRequest req;
  req.url = "https://a.blob.core.windows.net/c?restype=container&comp=list";
  ASSERT_TRUE(cred->authorize(req, kNow).ok());
  ASSERT_TRUE(cred->authorize(req, kNow).ok());  // a retry
  EXPECT_EQ(req.url,
            "https://a.blob.core.windows.net/c?restype=container&comp=list&"
            "sv=2021-08-06&sr=c&sp=rl&sig=abc%3D");
  EXPECT_EQ(header(req, "Authorization"), "");
  HttpRequest bare;
  bare.url = "https://a.blob.core.windows.net/c/b";
  ASSERT_TRUE(cred->authorize(bare, kNow).ok());
  EXPECT_EQ(bare.url, "https://a.blob.core.windows.net/c/b?sv=2021-08-06&sr=c&sp=rl&sig=abc%3D");
}

ServiceSasRequest azurite_container_read_list() {
  ServiceSasRequest r;
  r.account_name = "devstoreaccount1";
  r.blob_endpoint = "http://127.0.0.1:10000/devstoreaccount1";
  r.container = "inputs";
  r.permissions.read = true;
  r.permissions.list = true;
  r.start = at_utc(2026, 11, 27, 3h);
  r.expiry = at_utc(2026, 11, 27, 4h);
  return r;
}

TEST(ServiceSas, ContainerSasOnLoopbackHttp) {
  auto req = azurite_container_read_list();
  // sp, st, se, canonicalized resource, si, sip, spr, sv, sr, snapshot time, encryption scope and
  // the five response-header overrides: sixteen lines.
  EXPECT_EQ(service_sas_string_to_sign(req),
            "rl\n2026-11-27T03:00:00Z\n2026-11-27T04:00:00Z\n/blob/devstoreaccount1/inputs\n\n\n"
            "https,http\n2021-08-06\nc\n\n\n\n\n\n\n");
  auto sas = make_service_sas(req, kDevKey);
  ASSERT_TRUE(sas.ok()) << sas.error().message;
  // sig: HMAC-SHA256 of the string above with the dev key, base64 then percent-encoded.
  EXPECT_EQ(*sas,
            "sv=2021-08-06&sr=c&sp=rl&st=2026-11-27T03%3A00%3A00Z&se=2026-11-27T04%3A00%3A00Z&"
            "spr=https%2Chttp&sig=yvLdFi8nrzRwAKtoS0q%2Fpoq9i3wGIwKmiB8HEl2w0VA%3D");
}

TEST(ServiceSas, BlobSasIsHttpsOnlyWithTheAskedPermissions) {
  ServiceSasRequest req;
  req.account_name = "myaccount";
  req.blob_endpoint = "https://myaccount.blob.core.windows.net";
  req.container = "job-1";
  req.blob = "task 1/$TaskOutput/model.bin";  // signed unescaped
  req.permissions.create = true;
  req.permissions.write = true;
  req.start = at_utc(2026, 11, 27, 3h);
  req.expiry = at_utc(2026, 11, 27, 3h + 30min);
  auto sas = make_service_sas(req, kKey);
  ASSERT_TRUE(sas.ok()) << sas.error().message;
  EXPECT_EQ(*sas,
            "sv=2021-08-06&sr=b&sp=cw&st=2026-11-27T03%3A00%3A00Z&se=2026-11-27T03%3A30%3A00Z&"
            "spr=https&sig=dSovmRUvlMUlYgK2s746XHs5a3q6j9lUam5Ln7jLUPE%3D");
}

TEST(ServiceSas, PermissionLettersComeInTheServicesOrder) {
  SasPermissions all{true, true, true, true, true, true};
  EXPECT_EQ(sas_permission_letters(all), "racwdl");
  SasPermissions some;
  some.list = true;
  some.del = true;
  EXPECT_EQ(sas_permission_letters(some), "dl");
}

TEST(ServiceSas, RefusesWhatItShouldNotSign) {
  struct Case {
    void (*change)(ServiceSasRequest&);
    const char* expected;
  } cases[] = {
      {[](ServiceSasRequest& r) { r.permissions = {}; }, "no permission"},
      {[](ServiceSasRequest& r) { r.blob = "b"; }, "list is a container permission"},
      {[](ServiceSasRequest& r) { r.expiry = r.start; }, "expiry must come after the start"},
      {[](ServiceSasRequest& r) { r.expiry = r.start + std::chrono::hours(24 * 7 + 1); },
       "at most 7 days"},
      {[](ServiceSasRequest& r) { r.blob_endpoint = "http://10.1.2.3:10000/devstoreaccount1"; },
       "loopback"},
      {[](ServiceSasRequest& r) { r.container.clear(); }, "no container"},
  };
  for (const auto& c : cases) {
    auto req = azurite_container_read_list();
    c.change(req);
    auto sas = make_service_sas(req, kDevKey);
    ASSERT_FALSE(sas.ok()) << c.expected;
    EXPECT_EQ(sas.error().kind, ErrorKind::Usage);
    EXPECT_NE(sas.error().message.find(c.expected), std::string::npos) << sas.error().message;
  }
  auto bad_key = make_service_sas(azurite_container_read_list(), "c2VjcmV0*oops");
  ASSERT_FALSE(bad_key.ok());
  EXPECT_EQ(bad_key.error().message.find("c2VjcmV0"), std::string::npos);
}

// A user delegation key as the service lends one (its value: base64 of 40 ASCII bytes).
UserDelegationKey delegation_key() {
  return {"6a1c4d3e-0000-4b5f-9a1e-2c3d4e5f6a7b",
          "72f988bf-86f1-41af-91ab-2d7cd011db47",
          "2026-11-27T05:45:00Z",
          "2026-11-28T06:00:00Z",
          "b",
          "2021-08-06",
          "c2VjcmV0LWRlbGVnYXRpb24ta2V5LWZvci10ZXN0cy0zMmJ5dGVzIQ=="};
}

ServiceSasRequest quarter_hour(std::string endpoint, std::string container, std::string blob) {
  ServiceSasRequest r;
  r.account_name = "mlteamdata";
  r.blob_endpoint = std::move(endpoint);
  r.container = std::move(container);
  r.blob = std::move(blob);
  r.start = at_utc(2026, 11, 27, 5h + 45min);
  r.expiry = at_utc(2026, 11, 27, 6h);
  return r;
}

// The expected tokens are what the Azure Storage SDK for Python (azure-storage-blob 12.15, from
// Debian's python3-azure) signs for the same key and request: BlobSharedAccessSignature with
// this user_delegation_key and x_ms_version 2021-08-06, generate_blob / generate_container with
// the same permission, start, expiry and protocol. Only the order of the query's fields differs.
TEST(UserDelegationSas, BlobSasMatchesTheStorageSdks) {
  auto req = quarter_hour("https://mlteamdata.blob.core.windows.net", "inputs", "sha256/ab cd");
  req.permissions.read = true;
  // The service SAS's lines with the key's six fields and three empty ids for the signedIdentifier.
  EXPECT_EQ(user_delegation_sas_string_to_sign(req, delegation_key()),
            "r\n2026-11-27T05:45:00Z\n2026-11-27T06:00:00Z\n/blob/mlteamdata/inputs/sha256/ab cd\n"
            "6a1c4d3e-0000-4b5f-9a1e-2c3d4e5f6a7b\n72f988bf-86f1-41af-91ab-2d7cd011db47\n"
            "2026-11-27T05:45:00Z\n2026-11-28T06:00:00Z\nb\n2021-08-06\n\n\n\n\nhttps\n"
            "2021-08-06\nb\n\n\n\n\n\n\n");
  auto sas = make_user_delegation_sas(req, delegation_key());
  ASSERT_TRUE(sas.ok()) << sas.error().message;
  EXPECT_EQ(*sas,
            "sv=2021-08-06&sr=b&sp=r&st=2026-11-27T05%3A45%3A00Z&se=2026-11-27T06%3A00%3A00Z&"
            "spr=https&skoid=6a1c4d3e-0000-4b5f-9a1e-2c3d4e5f6a7b&"
            "sktid=72f988bf-86f1-41af-91ab-2d7cd011db47&skt=2026-11-27T05%3A45%3A00Z&"
            "ske=2026-11-28T06%3A00%3A00Z&sks=b&skv=2021-08-06&"
            "sig=l0gdZlsJT%2Bsr7ipYAoEnc3JYkjA8Yn6325QTWMgXLfM%3D");
}

TEST(UserDelegationSas, ContainerSasOnLoopbackMatchesTheStorageSdks) {
  auto req = quarter_hour("http://127.0.0.1:10000/mlteamdata", "job-train", "");
  req.permissions.create = true;
  req.permissions.write = true;
  auto sas = make_user_delegation_sas(req, delegation_key());
  ASSERT_TRUE(sas.ok()) << sas.error().message;
  EXPECT_NE(sas->find("&sr=c&sp=cw&"), std::string::npos) << *sas;
  EXPECT_NE(sas->find("&spr=https%2Chttp&"), std::string::npos) << *sas;
  EXPECT_TRUE(sas->ends_with("&sig=1a37FMYYdRs3AesO%2BfZrkEFS6D8S8QtRg6LazLavg5c%3D")) << *sas;
}

TEST(UserDelegationSas, ASignerWithTheKeySignsAsTheFunctionDoes) {
  auto req = quarter_hour("https://mlteamdata.blob.core.windows.net", "inputs", "a.txt");
  req.permissions.read = true;
  SasSigner signer(delegation_key());
  EXPECT_EQ(signer.sign(req).value(), make_user_delegation_sas(req, delegation_key()).value());
}

TEST(UserDelegationSas, RefusesToOutlastItsKeyOrABadKey) {
  auto req = quarter_hour("https://mlteamdata.blob.core.windows.net", "inputs", "a.txt");
  req.permissions.read = true;
  req.expiry = at_utc(2026, 11, 28, 6h + 1s);
  auto late = make_user_delegation_sas(req, delegation_key());
  ASSERT_FALSE(late.ok());
  EXPECT_NE(late.error().message.find("outlast the user delegation key"), std::string::npos);
  req.expiry = at_utc(2026, 11, 27, 6h);
  auto key = delegation_key();
  key.value = "c2VjcmV0*oops";
  auto bad = make_user_delegation_sas(req, key);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::Auth);
  EXPECT_EQ(bad.error().message.find("c2VjcmV0"), std::string::npos);
}

// The well-formed answer is read in blob_xml_test (fixtures/blob/user_delegation_key.xml).
TEST(UserDelegationSas, AnAnswerWithoutAFieldNamesIt) {
  const std::string xml =
      "<UserDelegationKey><SignedOid>o</SignedOid><SignedTid>t</SignedTid><SignedStart>s"
      "</SignedStart><SignedExpiry>e</SignedExpiry><SignedService>b</SignedService>"
      "<SignedVersion>v</SignedVersion></UserDelegationKey>";
  auto missing = parse_user_delegation_key(xml);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "UserDelegationKey has no Value");
  EXPECT_FALSE(parse_user_delegation_key("<oops").ok());
  EXPECT_FALSE(parse_user_delegation_key("<Other/>").ok());
}

}  // namespace
}  // namespace trainyard::azure::blob_auth_test
