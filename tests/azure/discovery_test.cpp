// Account discovery through the management plane: against the emulator's ARM endpoints with a
// client-secret token, against an in-process cpp-httplib ARM for paging, 403 subscriptions and
// hostile answers, and the on-disk cache.
#include "azure/discovery.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "azure/batch_client.hpp"
#include "emulator_process.hpp"

namespace trainyard::azure::discovery_test {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
namespace fs = std::filesystem;

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

AuthConfig service_principal(const std::string& authority) {
  AuthConfig a;
  a.kind = AuthKind::ServicePrincipal;
  a.tenant = "t1";
  a.client_id = "app-1";
  a.client_secret_env = "EMU_SECRET";
  a.tokens.authority = authority;
  return a;
}

// Counts the calls and sets a fixed bearer token: the fake ARM checks it.
class FixedToken final : public Credential {
 public:
  Result<void> authorize(HttpRequest& req, Timestamp) override {
    ++calls;
    req.headers.emplace_back("Authorization", "Bearer arm-token");
    return ok_result();
  }
  std::string describe() const override { return "fixed token"; }
  int calls = 0;
};

// --- against the emulator ----------------------------------------------------------------------

class DiscoveryEmulator : public ::testing::Test {
 protected:
  DiscoveryOptions options() {
    DiscoveryOptions o;
    o.management_endpoint = emu.endpoint();
    // The emulator lists accounts per subscription but has no subscription list of its own.
    o.subscriptions = {"sub-1"};
    o.account_auth = service_principal(emu.endpoint());
    return o;
  }
  std::unique_ptr<Credential> management_token() {
    TokenSource s{emu.endpoint(), emu.endpoint() + "/metadata/identity/oauth2/token",
                  kManagementResource};
    return client_secret_credential("t1", "app-1", emu.key(), s, http);
  }
  // Requests whose operation mentions `part`, from the emulator's counters.
  int requests_mentioning(const std::string& part) {
    HttpRequest req;
    req.url = emu.endpoint() + "/__trainyard/counters?api-version=2025-06-01";
    auto signer = shared_key_credential(emu.account(), emu.key());
    EXPECT_TRUE(signer
                    ->authorize(req, std::chrono::time_point_cast<Duration>(
                                         std::chrono::system_clock::now()))
                    .ok());
    auto resp = http->send(req);
    if (!resp.ok() || resp->status != 200) return -1;
    int n = 0;
    const json counters = json::parse(resp->body);
    for (const auto& [op, c] : counters.at("paths").items())
      if (contains(op, part)) n += c.value("requests", 0);
    return n;
  }

  azuretest::EmulatorProcess emu{{"--identity"}};  // token endpoint and management plane
  std::shared_ptr<HttpClient> http = std::make_shared<HttpClient>();
};

TEST_F(DiscoveryEmulator, ListsTheAccountThroughAClientSecretTokenAndItWorks) {
  auto token = management_token();
  auto found = discover_accounts(*http, *token, options());
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_EQ(found->accounts.size(), 1u);
  const auto& d = found->accounts[0];
  EXPECT_EQ(d.config.name, emu.account());
  EXPECT_EQ(d.config.endpoint, emu.endpoint());  // the emulator's scheme, on loopback
  EXPECT_EQ(d.config.origin, AccountOrigin::Discovery);
  EXPECT_TRUE(d.config.emulator);
  EXPECT_EQ(d.subscription, "sub-1");
  EXPECT_EQ(d.resource_group, "trainyard-emulator");
  EXPECT_EQ(d.config.auth.kind, AuthKind::ServicePrincipal);
  EXPECT_EQ(d.config.auth.tokens.resource, kBatchResource);
  EXPECT_TRUE(d.config.auth.key.empty());
  EXPECT_EQ(requests_mentioning("listKeys"), 0);  // keys only when asked
  // The emulator's account properties: 500 dedicated and 500 Spot cores, 100 pools, 300 jobs.
  ASSERT_TRUE(d.quotas.has_value());
  EXPECT_EQ(*d.quotas, (AccountQuotas{500, 500, 100, 300}));

  // The discovered account authenticates with a Batch-scoped token of the same kind.
  auto cred = make_credential(d.config, {{"EMU_SECRET", emu.key()}}, http);
  ASSERT_TRUE(cred.ok()) << cred.error().message;
  SystemClock clock;
  BatchClient client({d.config.name, d.config.endpoint}, http, std::move(*cred), clock);
  auto pools = client.pools();
  EXPECT_TRUE(pools.ok()) << pools.error().message;
}

TEST_F(DiscoveryEmulator, KeysAreFetchedOnlyWhenAskedAndNeverCached) {
  auto token = management_token();
  auto o = options();
  o.fetch_keys = true;
  auto found = discover_accounts(*http, *token, o);
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_EQ(found->accounts.size(), 1u);
  EXPECT_EQ(found->accounts[0].config.auth.kind, AuthKind::SharedKey);
  EXPECT_EQ(found->accounts[0].config.auth.key, emu.key());
  EXPECT_EQ(requests_mentioning("listKeys"), 1);

  fs::path dir = fs::temp_directory_path() / ("ty-disc-keys-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  ASSERT_TRUE(save_discovery_cache(discovery_cache_path(dir), found->accounts).ok());
  EXPECT_FALSE(contains(read_all(discovery_cache_path(dir)), emu.key()));
  fs::remove_all(dir);
}

TEST_F(DiscoveryEmulator, WithoutATokenTheErrorNamesTheUrlAndStatus) {
  FixedToken bogus;  // a token the emulator never issued
  auto found = discover_accounts(*http, bogus, options());
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.error().kind, ErrorKind::Auth);
  EXPECT_TRUE(contains(found.error().message, "HTTP 401")) << found.error().message;
  EXPECT_TRUE(contains(found.error().message, emu.endpoint() + "/subscriptions/sub-1/providers/"))
      << found.error().message;
  EXPECT_FALSE(contains(found.error().message, "api-version")) << "the query is redacted";
}

// --- against an in-process ARM -----------------------------------------------------------------

class FakeArm : public ::testing::Test {
 protected:
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

  void SetUp() override {
    server_.set_tcp_nodelay(true);
    server_.Get(".*", [this](const httplib::Request& req, httplib::Response& res) {
      std::string auth = req.get_header_value("Authorization");
      if (auth != "Bearer arm-token") {
        res.status = 401;
        return;
      }
      ++requests_;
      auto it = routes_.find(
          req.path + (req.has_param("page") ? "#" + req.get_param_value("page") : std::string()));
      if (it == routes_.end()) {
        res.status = 404;
        res.set_content(R"({"error":{"code":"NotFound","message":"no route"}})",
                        "application/json");
        return;
      }
      it->second(req, res);
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (auto until = std::chrono::steady_clock::now() + 5s;
         !server_.is_running() && std::chrono::steady_clock::now() < until;)
      std::this_thread::sleep_for(1ms);
    ASSERT_TRUE(server_.is_running());
  }
  void TearDown() override {
    http_.reset();  // closes its kept-alive connection, so stop() need not wait it out
    server_.stop();
    thread_.join();
  }

  std::string base() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Answers `path` (page N when `page` is set: `?page=N` in a nextLink) with `body`.
  void route(const std::string& path, json body, int status = 200, const std::string& page = "") {
    routes_[path + (page.empty() ? "" : "#" + page)] = [body, status](const httplib::Request&,
                                                                      httplib::Response& res) {
      res.status = status;
      res.set_content(body.dump(), "application/json");
    };
  }
  static std::string accounts_path(const std::string& sub) {
    return "/subscriptions/" + sub + "/providers/Microsoft.Batch/batchAccounts";
  }
  static json account(const std::string& sub, const std::string& name,
                      const std::string& endpoint) {
    return {{"id", "/subscriptions/" + sub + "/resourceGroups/rg-" + name +
                       "/providers/Microsoft.Batch/batchAccounts/" + name},
            {"name", name},
            {"location", "westeurope"},
            {"properties", {{"accountEndpoint", endpoint}}}};
  }
  DiscoveryOptions options() {
    DiscoveryOptions o;
    o.management_endpoint = base();
    o.retry.max_retries = 0;
    return o;
  }

  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::map<std::string, Handler> routes_;  // complete before the server starts serving them
  std::atomic<int> requests_{0};
  std::unique_ptr<HttpClient> http_ = std::make_unique<HttpClient>();
  FixedToken token_;
};

TEST_F(FakeArm, PagesSubscriptionsAndAccountsAndSkipsA403Subscription) {
  route("/subscriptions", {{"value", {{{"subscriptionId", "sub-a"}}}},
                           {"nextLink", base() + "/subscriptions?api-version=2022-12-01&page=2"}});
  route("/subscriptions",
        {{"value", {{{"subscriptionId", "sub-b"}}, {{"subscriptionId", "sub-c"}}}}}, 200, "2");
  route(accounts_path("sub-a"),
        {{"value", {account("sub-a", "alpha", "alpha.westeurope.batch.azure.com")}},
         {"nextLink", base() + accounts_path("sub-a") + "?api-version=2024-07-01&page=2"}});
  route(accounts_path("sub-a"),
        {{"value", {account("sub-a", "beta", "127.0.0.1:" + std::to_string(port_))}}}, 200, "2");
  route(accounts_path("sub-b"),
        {{"error", {{"code", "AuthorizationFailed"}, {"message", "no read access"}}}}, 403);
  route(accounts_path("sub-c"),
        {{"value", {account("sub-c", "gamma", "gamma.eastus.batch.azure.com")}}});

  auto found = discover_accounts(*http_, token_, options());
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_EQ(found->accounts.size(), 3u);
  EXPECT_EQ(found->accounts[0].config.name, "alpha");
  EXPECT_EQ(found->accounts[0].config.endpoint, "https://alpha.westeurope.batch.azure.com");
  EXPECT_FALSE(found->accounts[0].config.emulator);
  EXPECT_EQ(found->accounts[0].resource_group, "rg-alpha");
  EXPECT_EQ(found->accounts[0].location, "westeurope");
  EXPECT_EQ(found->accounts[0].config.region, "westeurope");  // what prices are looked up by
  EXPECT_EQ(found->accounts[1].config.name, "beta");
  EXPECT_EQ(found->accounts[1].config.endpoint, base());  // loopback: the management scheme
  EXPECT_EQ(found->accounts[2].config.name, "gamma");
  EXPECT_EQ(found->accounts[2].subscription, "sub-c");
  ASSERT_EQ(found->notes.size(), 1u);
  EXPECT_TRUE(contains(found->notes[0], "sub-b")) << found->notes[0];
  EXPECT_TRUE(contains(found->notes[0], "HTTP 403")) << found->notes[0];
  EXPECT_EQ(requests_.load(), 6);
}

TEST_F(FakeArm, AnAccountsAutoStorageIsItsStorageAccountsName) {
  auto linked = account("s1", "linked", "linked.westeurope.batch.azure.com");
  linked["properties"]["autoStorage"] = {{"storageAccountId",
                                          "/subscriptions/s1/resourceGroups/rg/providers/"
                                          "Microsoft.Storage/storageAccounts/mlteamdata"},
                                         {"authenticationMode", "StorageKeys"}};
  auto odd = account("s1", "odd", "odd.westeurope.batch.azure.com");
  odd["properties"]["autoStorage"] = {
      {"storageAccountId",
       "/subscriptions/s1/providers/Microsoft.Storage/storageAccounts/Bad_Name"}};
  route(accounts_path("s1"), {{"value", {linked, odd, account("s1", "none", "n.x.com")}}});
  auto o = options();
  o.subscriptions = {"s1"};
  auto found = discover_accounts(*http_, token_, o);
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_EQ(found->accounts.size(), 3u);
  EXPECT_EQ(found->accounts[0].config.auto_storage, "mlteamdata");
  EXPECT_EQ(found->accounts[1].config.auto_storage, "") << "not a storage account name";
  EXPECT_EQ(found->accounts[2].config.auto_storage, "");
}

TEST_F(FakeArm, AnAccountWithANonLoopbackHttpEndpointIsSkippedWithANote) {
  json accounts = json::array({account("s1", "plain", "http://plain.example.com"),
                               account("s1", "bad", "evil.example.com/\x1b[2J"),
                               account("s1", "good", "good.x.com")});
  route(accounts_path("s1"), {{"value", accounts}});
  auto o = options();
  o.subscriptions = {"s1"};
  auto found = discover_accounts(*http_, token_, o);
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_EQ(found->accounts.size(), 1u);
  EXPECT_EQ(found->accounts[0].config.name, "good");
  ASSERT_EQ(found->notes.size(), 2u);
  EXPECT_TRUE(contains(found->notes[0], "plain http is allowed only on loopback"))
      << found->notes[0];
  EXPECT_FALSE(contains(found->notes[1], "\x1b")) << "remote text is neutralised";
}

TEST_F(FakeArm, ANonLoopbackHttpManagementEndpointIsRefusedBeforeAnyRequest) {
  auto o = options();
  o.management_endpoint = "http://management.example.com";
  auto found = discover_accounts(*http_, token_, o);
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.error().kind, ErrorKind::Usage);
  EXPECT_TRUE(contains(found.error().message, "management.example.com")) << found.error().message;
  EXPECT_EQ(token_.calls, 0);
}

TEST_F(FakeArm, ANextLinkToAnotherHostIsNotFollowed) {
  route("/subscriptions", {{"value", json::array()},
                           {"nextLink", "https://elsewhere.example.com/subscriptions?page=2"}});
  auto found = discover_accounts(*http_, token_, options());
  ASSERT_FALSE(found.ok());
  EXPECT_TRUE(contains(found.error().message, "elsewhere.example.com")) << found.error().message;
  EXPECT_EQ(token_.calls, 1);  // the token never went there
}

TEST_F(FakeArm, AFailingSubscriptionListNamesTheUrlStatusAndCode) {
  route("/subscriptions",
        {{"error", {{"code", "InternalServerError"}, {"message", "try later\nsecond line"}}}}, 500);
  auto found = discover_accounts(*http_, token_, options());
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.error().kind, ErrorKind::Http);
  EXPECT_EQ(found.error().message,
            "GET " + base() + "/subscriptions: HTTP 500 InternalServerError: try later");
}

// --- cache and config --------------------------------------------------------------------------

class DiscoveryCache : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "ty-discovery-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir = tmpl;
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
};

TEST_F(DiscoveryCache, IsWrittenPrivatelyAtomicallyAndReadBack) {
  DiscoveredAccount d;
  d.config.name = "alpha";
  d.config.endpoint = "https://alpha.westeurope.batch.azure.com";
  d.config.auth.kind = AuthKind::SharedKey;
  d.config.auth.key = "c2VjcmV0LWtleQ==";
  d.subscription = "sub-a";
  d.resource_group = "rg";
  d.location = "westeurope";
  d.quotas = AccountQuotas{48, 24, 10, 30};
  d.config.auto_storage = "mlteamdata";
  DiscoveredAccount bare = d;
  bare.config.name = "beta";
  bare.quotas.reset();
  bare.config.auto_storage.clear();
  const std::string path = discovery_cache_path(dir.string());
  std::ofstream(path) << "old";
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                            fs::perms::others_read);
  ASSERT_TRUE(save_discovery_cache(path, {d, bare}).ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1)
      << "no temporary file left";
  const std::string text = read_all(path);
  EXPECT_FALSE(contains(text, "c2VjcmV0LWtleQ==")) << text;
  EXPECT_FALSE(contains(text, "auth")) << text;

  auto loaded = load_discovery_cache(path, service_principal("https://login.example.com"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  ASSERT_EQ(loaded->size(), 2u);
  EXPECT_EQ((*loaded)[0].quotas, (std::optional<AccountQuotas>(AccountQuotas{48, 24, 10, 30})));
  EXPECT_FALSE((*loaded)[1].quotas.has_value());
  const auto& a = (*loaded)[0];
  EXPECT_EQ(a.config.name, "alpha");
  EXPECT_EQ(a.config.endpoint, d.config.endpoint);
  EXPECT_EQ(a.config.origin, AccountOrigin::Discovery);
  EXPECT_EQ(a.config.auth.kind, AuthKind::ServicePrincipal);
  EXPECT_EQ(a.config.auth.tokens.resource, kBatchResource);
  EXPECT_EQ(a.subscription, "sub-a");
  EXPECT_EQ(a.resource_group, "rg");
  EXPECT_EQ(a.location, "westeurope");
  EXPECT_EQ(a.config.region, "westeurope");
  EXPECT_EQ(a.config.auto_storage, "mlteamdata");
  EXPECT_EQ((*loaded)[1].config.auto_storage, "");
}

TEST_F(DiscoveryCache, MissingIsEmptyAndMalformedNamesTheFile) {
  const std::string path = discovery_cache_path(dir.string());
  auto none = load_discovery_cache(path, {});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  for (const char* bad : {"{", R"({"version": 1, "accounts": [{"name": "x", "endpoint":
                                   "http://example.com"}]})",
                          R"({"version": "1", "accounts": []})"}) {
    std::ofstream(path) << bad;
    auto r = load_discovery_cache(path, {});
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().kind, ErrorKind::Parse);
    EXPECT_TRUE(contains(r.error().message, path)) << r.error().message;
  }
}

TEST(DiscoveryAuth, TakesTheAccountsAuthObjectForTokenKindsOnly) {
  auto sp = parse_discovery_auth({{"type", "servicePrincipal"},
                                  {"tenantId", "t"},
                                  {"clientId", "c"},
                                  {"clientSecretEnv", "S"},
                                  {"authority", "http://127.0.0.1:1"}},
                                 "config.json");
  ASSERT_TRUE(sp.ok()) << sp.error().message;
  EXPECT_EQ(sp->kind, AuthKind::ServicePrincipal);
  EXPECT_EQ(sp->tokens.authority, "http://127.0.0.1:1");
  EXPECT_EQ(management_account(*sp).auth.tokens.resource, kManagementResource);

  auto shared = parse_discovery_auth({{"type", "sharedKey"}, {"keyEnv", "K"}}, "config.json");
  ASSERT_FALSE(shared.ok());
  EXPECT_TRUE(contains(shared.error().message, "config.json: /discovery/auth/type"))
      << shared.error().message;
  auto incomplete = parse_discovery_auth({{"type", "servicePrincipal"}}, "config.json");
  ASSERT_FALSE(incomplete.ok());
  EXPECT_TRUE(contains(incomplete.error().message, "/discovery/auth:"))
      << incomplete.error().message;
  auto unknown = parse_discovery_auth({{"type", "azureCli"}, {"colour", "red"}}, "config.json");
  ASSERT_FALSE(unknown.ok());
  EXPECT_TRUE(contains(unknown.error().message, "/discovery/auth/colour"))
      << unknown.error().message;
}

}  // namespace
}  // namespace trainyard::azure::discovery_test
