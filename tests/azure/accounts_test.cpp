// Accounts from config.json and the environment, and how they become credentials.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "azure/accounts.hpp"

namespace trainyard::azure::accounts_test {
namespace {

using nlohmann::json;

TEST(Accounts, ParsesEveryAuthKind) {
  auto accounts = parse_accounts(json::parse(R"([
    {"name": "prod", "endpoint": "https://prod.westeurope.batch.azure.com/", "auth": {"keyEnv": "PROD_KEY"}},
    {"name": "sp", "endpoint": "https://sp.eastus.batch.azure.com", "readonly": true,
     "auth": {"type": "servicePrincipal", "tenantId": "t", "clientId": "c", "clientSecretCommand": "pass show sp"}},
    {"name": "mi", "endpoint": "https://mi.eastus.batch.azure.com", "auth": {"type": "managedIdentity"}},
    {"name": "emu", "kind": "emulator", "endpoint": "http://127.0.0.1:8080", "auth": {"type": "azureCli"}}
  ])"),
                                 "config.json");
  ASSERT_TRUE(accounts.ok()) << accounts.error().message;
  ASSERT_EQ(accounts->size(), 4u);
  EXPECT_EQ((*accounts)[0].endpoint, "https://prod.westeurope.batch.azure.com");
  EXPECT_EQ((*accounts)[0].auth.key_env, "PROD_KEY");
  EXPECT_TRUE((*accounts)[1].readonly);
  EXPECT_EQ((*accounts)[1].auth.kind, AuthKind::ServicePrincipal);
  EXPECT_EQ((*accounts)[2].auth.kind, AuthKind::ManagedIdentity);
  EXPECT_TRUE((*accounts)[3].emulator);
  EXPECT_FALSE(holds_inline_secret(*accounts));
}

TEST(Accounts, ErrorsNameTheFileAndPointer) {
  struct Case {
    const char* json;
    const char* expected;
  } cases[] = {
      {R"({"name":"a"})", "config.json: /accounts: expected an array"},
      {R"([{"endpoint":"https://x","auth":{"keyEnv":"K"}}])",
       "config.json: /accounts/0/name: required"},
      {R"([{"name":"local","endpoint":"https://x","auth":{"keyEnv":"K"}}])",
       "/accounts/0/name: 'local' is the built-in"},
      {R"([{"name":"a","endpoint":"http://example.com","auth":{"keyEnv":"K"}}])",
       "/accounts/0/endpoint: "},
      {R"([{"name":"a","endpoint":"https://x","auth":{"type":"magic"}}])",
       "/accounts/0/auth/type: expected"},
      {R"([{"name":"a","endpoint":"https://x","auth":{}}])", "needs key, keyEnv or keyCommand"},
      {R"([{"name":"a","endpoint":"https://x","auth":{"keyEnv":5}}])",
       "/accounts/0/auth/keyEnv: expected a string"},
      {R"([{"name":"a","endpoint":"https://x","auth":{"keyEnv":"K"},"colour":"red","extra":1}])",
       "/accounts/0/extra: unknown key"},
      {R"([{"name":"a","endpoint":"https://x","auth":{"keyEnv":"K"}},{"name":"a","endpoint":"https://y","auth":{"keyEnv":"K"}}])",
       "/accounts/1/name: 'a' is defined twice"},
      {R"([{"name":"a","endpoint":"https://x","auth":{"keyEnv":"K"},"region":7}])",
       "config.json: /accounts/0/region: expected a string"},
      {R"([{"name":"a","endpoint":"https://x","auth":{"keyEnv":"K"},"region":"West Europe"}])",
       "config.json: /accounts/0/region: expected a region name such as westeurope"},
  };
  for (const auto& c : cases) {
    auto r = parse_accounts(json::parse(c.json), "config.json");
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_NE(r.error().message.find(c.expected), std::string::npos) << r.error().message;
  }
}

AccountConfig account_at(const std::string& endpoint, const std::string& region = "") {
  AccountConfig a;
  a.name = "acct";
  a.endpoint = endpoint;
  a.region = region;
  return a;
}

TEST(Accounts, RegionComesFromConfigElseTheEndpointsHost) {
  auto parsed = parse_accounts(json::parse(R"([
    {"name": "a", "endpoint": "http://127.0.0.1:8080", "region": "northeurope", "auth": {"keyEnv": "K"}}
  ])"),
                               "config.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ((*parsed)[0].region, "northeurope");
  EXPECT_EQ(account_region((*parsed)[0]).value(), "northeurope");
  // `region` wins over the host's.
  EXPECT_EQ(account_region(account_at("https://acct.westeurope.batch.azure.com", "eastus")).value(),
            "eastus");
  EXPECT_EQ(account_region(account_at("https://acct.westeurope.batch.azure.com")).value(),
            "westeurope");
  EXPECT_EQ(account_region(account_at("https://Acct.EastUS2.batch.azure.com:443")).value(),
            "eastus2");
  EXPECT_EQ(account_region(account_at("https://acct.chinanorth.batch.chinacloudapi.cn")).value(),
            "chinanorth");
}

TEST(Accounts, NoRegionIsAnErrorSayingToSetIt) {
  for (const char* endpoint : {"http://127.0.0.1:8080", "https://batch.example.com",
                               "https://acct.westeurope.example.com"}) {
    auto r = account_region(account_at(endpoint));
    ASSERT_FALSE(r.ok()) << endpoint;
    EXPECT_NE(r.error().message.find("account 'acct'"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("set \"region\""), std::string::npos) << r.error().message;
  }
}

TEST(Accounts, InlineKeyIsReported) {
  auto r = parse_accounts(
      json::parse(R"([{"name":"a","endpoint":"https://x","auth":{"key":"c2VjcmV0"}}])"), "c");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(holds_inline_secret(*r));
}

TEST(Accounts, EnvironmentAccountNeedsAllThree) {
  std::map<std::string, std::string> env{{"AZURE_BATCH_ACCOUNT", "acct"},
                                         {"AZURE_BATCH_ENDPOINT", "acct.westus.batch.azure.com"}};
  EXPECT_FALSE(account_from_environment(env));
  env["AZURE_BATCH_ACCESS_KEY"] = "a2V5";
  auto a = account_from_environment(env);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->name, "acct");
  EXPECT_EQ(a->endpoint, "https://acct.westus.batch.azure.com");
  EXPECT_EQ(a->auth.key_env, "AZURE_BATCH_ACCESS_KEY");
  EXPECT_TRUE(a->auth.key.empty());  // the key stays in the environment
}

TEST(Accounts, ConfigWinsAClashWithAMessage) {
  AccountConfig cfg;
  cfg.name = "acct";
  cfg.endpoint = "https://a";
  AccountConfig env = cfg;
  env.endpoint = "https://b";
  env.origin = AccountOrigin::Environment;
  AccountConfig other = env;
  other.name = "other";
  std::vector<std::string> notes;
  auto merged = merge_accounts({cfg}, {env, other}, notes);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].endpoint, "https://a");
  EXPECT_EQ(merged[1].name, "other");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("from the environment is ignored"), std::string::npos);
}

TEST(Accounts, SecretsComeFromEnvOrCommandAndNeverAppearInErrors) {
  AccountConfig a;
  a.name = "acct";
  a.endpoint = "https://acct.x.batch.azure.com";
  a.auth.key_env = "MY_KEY";
  auto missing = make_credential(a, {}, nullptr);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("$MY_KEY is not set"), std::string::npos);
  auto from_env = make_credential(a, {{"MY_KEY", "c2VjcmV0LWtleQ=="}}, nullptr);
  ASSERT_TRUE(from_env.ok()) << from_env.error().message;
  EXPECT_EQ((*from_env)->describe().find("c2VjcmV0"), std::string::npos);
  a.auth.key_env.clear();
  a.auth.key_command = "printf 'c2VjcmV0LWtleQ==\\n'";
  EXPECT_TRUE(make_credential(a, {}, nullptr).ok());
  a.auth.key_command = "echo c2VjcmV0LWtleQ==; exit 3";
  auto failed = make_credential(a, {}, nullptr);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().message.find("exit status 3"), std::string::npos);
  EXPECT_EQ(failed.error().message.find("c2VjcmV0"), std::string::npos);
}

TEST(Accounts, AFailedKeyCommandQuotesItsStderrAndNeverItsStdout) {
  AccountConfig a;
  a.name = "acct";
  a.endpoint = "https://acct.x.batch.azure.com";
  a.auth.key_command = "echo c2VjcmV0LWtleQ==; echo 'vault: permission denied' >&2; exit 2";
  auto failed = make_credential(a, {}, nullptr);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().message,
            "account acct: keyCommand failed (exit status 2): vault: permission denied");
}

}  // namespace
}  // namespace trainyard::azure::accounts_test
