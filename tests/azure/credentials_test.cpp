// Credentials: SharedKey against vectors computed independently in Python, tokens against the
// emulator's identity endpoints, and the `az` CLI through fake `az` scripts.
#include "azure/credentials.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "emulator_process.hpp"

namespace trainyard::azure::credentials_test {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr const char* kKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";  // bytes 0..31

Timestamp utc(int y, unsigned m, unsigned d) {
  return Timestamp(std::chrono::sys_days(std::chrono::year(y) / m / d));
}

Timestamp wall_now() {
  return std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now());
}

size_t count_headers(const HttpRequest& req, std::string_view name) {
  return std::count_if(req.headers.begin(), req.headers.end(), [&](const auto& h) {
    return h.first.size() == name.size() &&
           strncasecmp(h.first.c_str(), name.data(), name.size()) == 0;
  });
}

std::string header(const HttpRequest& req, std::string_view name) {
  return find_header(req.headers, name);
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// The error `authorize` fails with; it must leave the request without an Authorization header.
Error failure(Credential& cred, Timestamp now = wall_now()) {
  HttpRequest req;
  req.url = "https://a.b.batch.azure.com/pools";
  auto r = cred.authorize(req, now);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(count_headers(req, "Authorization"), 0u);
  return r.ok() ? Error{} : r.error();
}

// A POST with every kind of signed input: body, Content-Type, If-Match, ocp- headers of mixed case,
// an encoded path, and query names that need decoding, lowercasing and sorting.
HttpRequest sample_post() {
  HttpRequest req;
  req.method = "post";
  req.url =
      "https://myaccount.westeurope.batch.azure.com/jobs/job%201/tasks?api-version=2025-06-01"
      "&timeOut=30&%24filter=state%20eq%20%27active%27&empty=";
  req.headers = {{"Content-Type", "application/json; odata=minimalmetadata"},
                 {"client-request-id", "0f8fad5b-d9cb-469f-a165-70867728950e"},
                 {"If-Match", "\"0x8D4\""},
                 {"OCP-Range", "bytes=0-99"}};
  req.body = R"({"id":"t1"})";
  return req;
}

// Computed once with Python's hmac/hashlib/base64 (the script in python_signature) for sample_post.
TEST(SharedKeyTest, MatchesHardCodedPythonVector) {
  auto cred = shared_key_credential("myaccount", kKey);
  HttpRequest req = sample_post();
  ASSERT_TRUE(cred->authorize(req, utc(2017, 2, 17)).ok());
  EXPECT_EQ(header(req, "ocp-date"), "Fri, 17 Feb 2017 00:00:00 GMT");
  EXPECT_EQ(header(req, "Content-Length"), "11");
  EXPECT_EQ(header(req, "Authorization"),
            "SharedKey myaccount:s02W/qYcL0X3h/VptWYzwpZFav8B0fnR0ZBz3DxG9A0=");
  EXPECT_EQ(shared_key_string_to_sign(req, "myaccount"),
            "POST\n\n\n11\n\napplication/json; odata=minimalmetadata\n\n\n\"0x8D4\"\n\n\n\n"
            "ocp-date:Fri, 17 Feb 2017 00:00:00 GMT\nocp-range:bytes=0-99\n"
            "/myaccount/jobs/job%201/tasks\n$filter:state eq 'active'\napi-version:2025-06-01\n"
            "empty:\ntimeout:30");
}

// Follows `req = {...}` (the request as JSON, also a Python literal) in the script it runs.
constexpr const char* kPythonSigner = R"PY(
import base64, hashlib, hmac, sys, urllib.parse
h = {}; params = {}
for k, v in req["headers"]: h.setdefault(k.strip().lower(), v.strip())
names = ["content-encoding", "content-language", "content-length", "content-md5", "content-type", "date",
         "if-modified-since", "if-match", "if-none-match", "if-unmodified-since", "range"]
lines = [req["method"].upper()] + ["" if n == "date" or h.get(n) == "0" else h.get(n, "") for n in names]
s = "\n".join(lines) + "\n" + "".join(k + ":" + h[k] + "\n" for k in sorted(h) if k.startswith("ocp-"))
u = urllib.parse.urlsplit(req["url"]); s += "/" + req["account"] + (u.path or "/")
for item in filter(None, u.query.split("&")):
    name, _, value = item.partition("=")
    params.setdefault(urllib.parse.unquote(name).lower(), []).append(urllib.parse.unquote(value))
s += "".join("\n" + n + ":" + ",".join(sorted(params[n])) for n in sorted(params))
print(base64.b64encode(hmac.new(base64.b64decode(req["key"]), s.encode(), hashlib.sha256).digest()).decode())
)PY";

// Python's signature for the request as it would be sent (its headers after authorize).
std::string python_signature(const HttpRequest& req, const std::string& account, const char* key) {
  nlohmann::json in{{"account", account}, {"key", key}, {"method", req.method}, {"url", req.url}};
  in["headers"] = nlohmann::json::array();
  for (const auto& [k, v] : req.headers) {
    if (strcasecmp(k.c_str(), "Authorization") != 0) in["headers"].push_back({k, v});
  }
  fs::path script = fs::temp_directory_path() / fmt::format("ty-sk-{}.py", ::getpid());
  std::ofstream(script) << "req = " << in.dump() << kPythonSigner;
  std::string out(256, '\0');
  FILE* p = ::popen(("/usr/bin/python3 " + script.string()).c_str(), "r");
  out.resize(p ? std::fread(out.data(), 1, out.size(), p) : 0);
  if (p) ::pclose(p);
  fs::remove(script);
  return out.substr(0, out.find('\n'));
}

TEST(SharedKeyTest, MatchesPythonOnVariedRequests) {
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  std::vector<HttpRequest> cases(4);
  cases[0].url = "https://a.b.batch.azure.com/pools?api-version=2025-06-01";
  cases[1].url =
      "http://127.0.0.1:8080/jobs/j/tasks/t/files/dir%2Fout.txt?api-version=2025-06-01&timeOut=5";
  cases[1].headers = {{"ocp-range", "bytes=10-"},
                      {"If-Modified-Since", "Fri, 17 Feb 2017 00:00:00 GMT"}};
  cases[2] = sample_post();
  cases[2].method = "PATCH";
  cases[3].method = "POST";  // no body: no Content-Length header, an empty line signed
  cases[3].headers = {{"Content-Length", "0"}};
  cases[3].url = "https://a.b.batch.azure.com/pools/p1/resize?api-version=2025-06-01&B=2&a=1&a=0";
  auto cred = shared_key_credential("acct", kKey);
  for (auto& req : cases) {
    ASSERT_TRUE(cred->authorize(req, utc(2024, 7, 1) + 1234567us).ok());
    std::string sig = header(req, "Authorization").substr(std::string("SharedKey acct:").size());
    EXPECT_EQ(sig, python_signature(req, "acct", kKey)) << req.url;
    EXPECT_EQ(header(req, "Content-Length"),
              req.body.empty() ? "" : std::to_string(req.body.size()));
  }
}

TEST(SharedKeyTest, ResigningReplacesHeadersInsteadOfAddingThem) {
  auto cred = shared_key_credential("acct", kKey);
  HttpRequest req = sample_post();
  req.headers.insert(
      req.headers.end(),
      {{"authorization", "stale"}, {"OCP-Date", "stale"}, {"content-length", "999"}});
  ASSERT_TRUE(cred->authorize(req, utc(2024, 1, 1)).ok());
  std::string first = header(req, "Authorization");
  ASSERT_TRUE(cred->authorize(req, utc(2024, 1, 1) + 90s).ok());
  for (const char* name : {"Authorization", "ocp-date", "Content-Length"})
    EXPECT_EQ(count_headers(req, name), 1u) << name;
  EXPECT_EQ(header(req, "ocp-date"), "Mon, 01 Jan 2024 00:01:30 GMT");
  EXPECT_EQ(header(req, "Content-Length"), "11");
  EXPECT_NE(header(req, "Authorization"), first);
}

TEST(SharedKeyTest, KeyThatIsNotBase64IsAnAuthErrorWithoutTheKey) {
  for (std::string bad : {"not base64 at all!", "abc", "a2V5=a2V5", ""}) {
    Error e = failure(*shared_key_credential("acct", bad), utc(2024, 1, 1));
    EXPECT_EQ(e.kind, ErrorKind::Auth) << bad;
    EXPECT_TRUE(bad.empty() || !contains(e.message, bad)) << e.message;
  }
  EXPECT_EQ(shared_key_credential("acct", kKey)->describe(), "SharedKey (account acct)");
}

struct EmulatorFixture : ::testing::Test {
  azuretest::EmulatorProcess emu{{"--identity"}};  // token endpoint and IMDS
  std::shared_ptr<HttpClient> http = std::make_shared<HttpClient>();

  HttpRequest get(const std::string& path, const char* method = "GET") {
    HttpRequest req;
    req.method = method;
    req.url = emu.endpoint() + path;
    return req;
  }
  // Authorizes, lets `tamper` change the signed request, sends it; the status.
  int send(Credential& cred, HttpRequest req, void (*tamper)(HttpRequest&) = nullptr) {
    auto auth = cred.authorize(req, wall_now());
    EXPECT_TRUE(auth.ok()) << (auth.ok() ? "" : auth.error().message);
    if (tamper) tamper(req);
    auto resp = http->send(req);
    EXPECT_TRUE(resp.ok()) << (resp.ok() ? "" : resp.error().message);
    return resp.ok() ? resp->status : -1;
  }
  // Requests the emulator counted for one operation (`POST /t1/oauth2/v2.0/token`).
  int requests_to(const std::string& operation) {
    HttpRequest req = get("/__trainyard/counters?api-version=2025-06-01");
    EXPECT_TRUE(shared_key_credential(emu.account(), emu.key())->authorize(req, wall_now()).ok());
    auto resp = http->send(req);
    if (!resp.ok() || resp->status != 200) return -1;
    auto paths = nlohmann::json::parse(resp->body).at("paths");
    return paths.value(operation, nlohmann::json::object()).value("requests", 0);
  }
  TokenSource source() {
    return {emu.endpoint(), emu.endpoint() + "/metadata/identity/oauth2/token"};
  }
};

using SharedKeyEmulator = EmulatorFixture;

TEST_F(SharedKeyEmulator, SignedRequestsAreAcceptedAndATamperedOneRefused) {
  auto cred = shared_key_credential(emu.account(), emu.key());
  EXPECT_EQ(send(*cred, get("/pools?api-version=2025-06-01")), 200);
  HttpRequest post = get("/__trainyard/faults?api-version=2025-06-01", "POST");
  post.headers = {{"Content-Type", "application/json"}};
  post.body = R"({"spec": ""})";
  EXPECT_LT(send(*cred, post), 300);  // a body: Content-Length signed as set
  post = get("/__trainyard/reset-counters?api-version=2025-06-01", "POST");
  EXPECT_LT(send(*cred, post), 300);  // no body: an empty Content-Length line
  auto tamper = [](HttpRequest& req) { req.url += "&maxresults=1"; };
  EXPECT_EQ(send(*cred, get("/pools?api-version=2025-06-01"), tamper), 403);
}

using CredClientSecret = EmulatorFixture;

TEST_F(CredClientSecret, TokenIsAcceptedAndCachedUntilFiveMinutesBeforeExpiry) {
  auto cred = client_secret_credential("t1", "app-1", emu.key(), source(), http);
  EXPECT_EQ(send(*cred, get("/pools?api-version=2025-06-01")), 200);
  EXPECT_EQ(send(*cred, get("/pools?api-version=2025-06-01")), 200);
  EXPECT_EQ(requests_to("POST /t1/oauth2/v2.0/token"), 1);
  HttpRequest later = get("/pools?api-version=2025-06-01");
  ASSERT_TRUE(cred->authorize(later, wall_now() + 56min).ok());  // emulator tokens last an hour
  EXPECT_EQ(requests_to("POST /t1/oauth2/v2.0/token"), 2);
  EXPECT_EQ(count_headers(later, "Authorization"), 1u);
  EXPECT_EQ(cred->describe().find(emu.key()), std::string::npos);
}

TEST_F(CredClientSecret, WrongSecretIsAnAuthErrorNamingTheCodeNotTheSecret) {
  const std::string secret = "d3Jvbmctc2VjcmV0LXZhbHVlLTEyMzQ1Njc4OTA=";
  Error e = failure(*client_secret_credential("t1", "app-1", secret, source(), http));
  EXPECT_EQ(e.kind, ErrorKind::Auth);
  EXPECT_TRUE(contains(e.message, "invalid_client")) << e.message;
  EXPECT_FALSE(contains(e.message, secret));
}

TEST(CredClientSecretPolicy, PlainHttpAuthorityIsRefusedUnlessLoopback) {
  TokenSource s;
  s.authority = "http://login.example.com";
  Error e = failure(*client_secret_credential("t1", "app-1", "s3cr3t-value-123", s, nullptr));
  EXPECT_EQ(e.kind, ErrorKind::Usage);
  EXPECT_FALSE(contains(e.message, "s3cr3t-value-123"));
}

using CredManagedIdentity = EmulatorFixture;

TEST_F(CredManagedIdentity, ImdsTokenIsAcceptedAndCached) {
  for (std::optional<std::string> client :
       {std::optional<std::string>(), std::optional<std::string>("mi-1")}) {
    auto cred = managed_identity_credential(client, source(), http);
    EXPECT_EQ(send(*cred, get("/pools?api-version=2025-06-01")), 200);
    EXPECT_EQ(send(*cred, get("/jobs?api-version=2025-06-01")), 200);
  }
  EXPECT_EQ(requests_to("GET /metadata/identity/oauth2/token"), 2);  // one per credential
  EXPECT_EQ(managed_identity_credential("mi-1", source(), http)->describe(),
            "managed identity (client id mi-1)");
}

struct CredAzCli : ::testing::Test {
  fs::path dir;
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "ty-az-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir = templ;
  }
  void TearDown() override { fs::remove_all(dir); }

  // Writes an executable `az` that logs its calls and arguments and then runs `body` in `dir`.
  std::string fake_az(const std::string& body) {
    fs::path az = dir / "az";
    std::ofstream(az) << fmt::format(
        "#!/bin/sh\ncd '{}'\necho call >> calls\nprintf '%s\\n' \"$@\" > args\n{}\n", dir.string(),
        body);
    fs::permissions(az, fs::perms::owner_all);
    return az.string();
  }
  std::string print_json(const std::string& json) {
    return fake_az("cat <<'EOF'\n" + json + "\nEOF");
  }
  int calls() { return static_cast<int>(std::ranges::count(read("calls"), '\n')); }
  std::string read(const std::string& name) {
    std::ifstream in(dir / name);
    return {std::istreambuf_iterator<char>(in), {}};
  }
};

std::string posix(Timestamp t) {
  return std::to_string(std::chrono::floor<std::chrono::seconds>(t).time_since_epoch().count());
}

TEST_F(CredAzCli, RunsAzWithArgvAndCachesTheToken) {
  Timestamp now = wall_now();
  auto cred = azure_cli_credential(print_json(R"({"accessToken": "tok-1", "expires_on": )" +
                                              posix(now + 1h) + R"(, "tokenType": "Bearer"})"));
  HttpRequest req;
  ASSERT_TRUE(cred->authorize(req, now).ok());
  ASSERT_TRUE(cred->authorize(req, now + 50min).ok());
  EXPECT_EQ(header(req, "Authorization"), "Bearer tok-1");
  EXPECT_EQ(count_headers(req, "Authorization"), 1u);
  EXPECT_EQ(calls(), 1);
  EXPECT_EQ(read("args"),
            "account\nget-access-token\n--resource\nhttps://batch.core.windows.net/\n-o\njson\n");
  ASSERT_TRUE(cred->authorize(req, now + 56min).ok());  // under 5 minutes left: ask az again
  EXPECT_EQ(calls(), 2);
}

TEST_F(CredAzCli, ReadsTheOlderLocalTimeExpiresOn) {
  auto local = [](Timestamp t) {
    auto secs = std::chrono::system_clock::to_time_t(std::chrono::floor<std::chrono::seconds>(t));
    return fmt::format("{:%Y-%m-%d %H:%M:%S}.123456", fmt::localtime(secs));
  };
  Timestamp now = wall_now();
  auto fresh = azure_cli_credential(
      print_json(R"({"accessToken": "a", "expiresOn": ")" + local(now + 1h) + "\"}"));
  HttpRequest req;
  ASSERT_TRUE(fresh->authorize(req, now).ok());
  ASSERT_TRUE(fresh->authorize(req, now + 54min).ok());
  EXPECT_EQ(calls(), 1);
  ASSERT_TRUE(fresh->authorize(req, now + 56min).ok());
  EXPECT_EQ(calls(), 2);
}

TEST_F(CredAzCli, ConcurrentCallersShareOneRun) {
  auto cred =
      azure_cli_credential(fake_az("sleep 0.2; echo '{\"accessToken\": \"t\", \"expires_on\": \"" +
                                   posix(wall_now() + 1h) + "\"}'"));
  std::atomic<int> ok{0};
  {
    std::vector<std::jthread> threads;  // joined at the end of this block
    auto call = [&] {
      HttpRequest req;
      ok += cred->authorize(req, wall_now()).ok() ? 1 : 0;
    };
    for (int i = 0; i < 8; ++i) threads.emplace_back(call);
  }
  EXPECT_EQ(ok.load(), 8);
  EXPECT_EQ(calls(), 1);
}

TEST_F(CredAzCli, FailureCarriesStderrButNeverStdout) {
  Error e = failure(*azure_cli_credential(fake_az(
      "echo '{\"accessToken\": \"leaky-token-value\"}'\n"
      "printf 'WARNING: upgrade\\nERROR: Please run az login to setup account.\\n' >&2; exit 1")));
  EXPECT_EQ(e.kind, ErrorKind::Auth);
  EXPECT_TRUE(contains(e.message, "exit status 1") && contains(e.message, "az login")) << e.message;
  EXPECT_FALSE(contains(e.message, "leaky-token-value"));
}

TEST_F(CredAzCli, ReplyWithoutExpiryIsAnErrorWithoutTheToken) {
  Error e = failure(*azure_cli_credential(print_json(R"({"accessToken": "secret-token-xyz"})")));
  EXPECT_FALSE(contains(e.message, "secret-token-xyz")) << e.message;
}

TEST_F(CredAzCli, MissingAzIsAnAuthErrorNamingThePath) {
  std::string az = (dir / "nowhere" / "az").string();
  Error e = failure(*azure_cli_credential(az));
  EXPECT_EQ(e.kind, ErrorKind::Auth);
  EXPECT_TRUE(contains(e.message, az)) << e.message;
}

// A process that is gone, or a zombie some other parent has yet to reap.
bool gone(const std::string& pid_text) {
  pid_t pid = std::stoi(pid_text);
  if (::kill(pid, 0) != 0) return errno == ESRCH;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  return line.find(") Z ") != std::string::npos;
}

TEST_F(CredAzCli, TimeoutKillsAzAndWhatItStartedAndReapsIt) {
  auto cred = azure_cli_credential(fake_az("echo $$ > pid\nsleep 30 &\necho $! > grandchild\nwait"),
                                   kBatchResource, 500ms);
  auto start = std::chrono::steady_clock::now();
  Error e = failure(*cred);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_TRUE(contains(e.message, "took longer than 500 ms")) << e.message;
  pid_t child = std::stoi(read("pid"));
  EXPECT_TRUE(::kill(child, 0) == -1 && errno == ESRCH);  // killed and reaped: not even a zombie
  std::this_thread::sleep_for(100ms);
  EXPECT_TRUE(gone(read("grandchild")));
}

}  // namespace
}  // namespace trainyard::azure::credentials_test
