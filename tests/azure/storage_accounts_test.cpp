// Storage accounts: connection strings (Azure, Azurite, SAS-only, malformed), the `az storage`
// environment variables, config.json's storageAccounts and autoStorage, and the credentials they
// become. No message may quote a key or a SAS.
#include "azure/storage_accounts.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include <nlohmann/json.hpp>

#include "azure/accounts.hpp"

namespace trainyard::azure::storage_accounts_test {
namespace {

using nlohmann::json;
using Env = std::map<std::string, std::string>;

constexpr const char* kKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";  // bytes 0..31
// A key-shaped secret that must never reach a message.
constexpr const char* kSecret = "U0VDUkVUU0VDUkVUU0VDUkVU";

bool mentions(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(ConnectionString, AzureAccountWithEndpointSuffix) {
  auto c = parse_connection_string(std::string("DefaultEndpointsProtocol=https;AccountName=myacct;"
                                               "AccountKey=") +
                                   kKey + ";EndpointSuffix=core.chinacloudapi.cn");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->account_name, "myacct");
  EXPECT_EQ(c->blob_endpoint, "https://myacct.blob.core.chinacloudapi.cn");
  EXPECT_EQ(c->account_key, kKey);
  EXPECT_EQ(c->sas_token, "");
}

TEST(ConnectionString, DefaultsToHttpsAndCoreWindowsNet) {
  auto c = parse_connection_string(std::string("AccountName=myacct;AccountKey=") + kKey + ";");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->blob_endpoint, "https://myacct.blob.core.windows.net");
}

// The connection string Azurite's documentation gives, and its shorthand.
TEST(ConnectionString, Azurite) {
  auto c = parse_connection_string(
      "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
      "AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
      "K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->blob_endpoint, "http://127.0.0.1:10000/devstoreaccount1");
  auto dev = parse_connection_string("UseDevelopmentStorage=true");
  ASSERT_TRUE(dev.ok()) << dev.error().message;
  EXPECT_EQ(dev->account_name, "devstoreaccount1");
  EXPECT_EQ(dev->blob_endpoint, "http://127.0.0.1:10000/devstoreaccount1");
  EXPECT_EQ(dev->account_key,
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/"
            "KBHBeksoGMGw==");
}

TEST(ConnectionString, SasOnlyWithBlobEndpoint) {
  auto c = parse_connection_string(
      "BlobEndpoint=https://myacct.blob.core.windows.net/;"
      "SharedAccessSignature=sv=2021-08-06&ss=b&srt=co&sp=rl&sig=abc%3D");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->blob_endpoint, "https://myacct.blob.core.windows.net");
  EXPECT_EQ(c->sas_token, "sv=2021-08-06&ss=b&srt=co&sp=rl&sig=abc%3D");
  EXPECT_EQ(c->account_key, "");
}

TEST(ConnectionString, KeysAreCaseInsensitiveAndOtherServicesIgnored) {
  auto c = parse_connection_string(std::string("accountname=myacct;ACCOUNTKEY=") + kKey +
                                   ";QueueEndpoint=https://myacct.queue.core.windows.net");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->account_name, "myacct");
  EXPECT_EQ(c->account_key, kKey);
}

TEST(ConnectionString, MalformedInputIsRefusedWithoutQuotingSecrets) {
  const std::string key = kSecret;
  struct Case {
    std::string text;
    const char* expected;
  } cases[] = {
      {"", "connection string: empty"},
      {";;", "connection string: empty"},
      {"AccountName=myacct;" + key, "connection string: part 2 is not Key=Value"},
      {"=x", "part 1 is not Key=Value"},
      {"AccountName=a1;AccountName=a2;AccountKey=" + key, "AccountName is given twice"},
      {"DefaultEndpointsProtocol=ftp;AccountName=myacct;AccountKey=" + key,
       "DefaultEndpointsProtocol must be https or http"},
      {"AccountName=myacct", "needs AccountKey or SharedAccessSignature"},
      {"AccountKey=" + key, "needs AccountName or BlobEndpoint"},
      {"BlobEndpoint=https://x.example;AccountKey=" + key, "AccountKey needs AccountName"},
      {"AccountName=myacct;AccountKey=" + key + "*!", "AccountKey is not valid base64"},
      {"UseDevelopmentStorage=yes", "UseDevelopmentStorage must be true or false"},
      {"UseDevelopmentStorage=true;AccountKey=" + key, "takes no other account settings"},
      {"UseDevelopmentStorage=true;DevelopmentStorageProxyUri=http://127.0.0.1",
       "takes no other account settings"},
      {"BlobEndpoint=ftp://host/x;SharedAccessSignature=sig=" + key, "only https"},
  };
  for (const auto& c : cases) {
    auto r = parse_connection_string(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().kind, ErrorKind::Usage);
    EXPECT_TRUE(mentions(r.error().message, c.expected)) << r.error().message;
    EXPECT_FALSE(mentions(r.error().message, key)) << r.error().message;
  }
}

TEST(ConnectionString, PlainHttpOnlyToLoopback) {
  for (const char* host : {"127.0.0.1:10000", "localhost:10000", "[::1]:10000", "127.0.0.1"}) {
    auto ok = parse_connection_string(std::string("AccountName=devstoreaccount1;AccountKey=") +
                                      kKey + ";BlobEndpoint=http://" + host + "/devstoreaccount1");
    EXPECT_TRUE(ok.ok()) << host << ": " << ok.error().message;
  }
  for (std::string text : {std::string("AccountName=x1y;AccountKey=") + kSecret +
                               ";BlobEndpoint=http://10.0.0.5:10000/x1y",
                           std::string("DefaultEndpointsProtocol=http;AccountName=x1y;"
                                       "AccountKey=") +
                               kSecret}) {
    auto r = parse_connection_string(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_TRUE(mentions(r.error().message, "plain http is allowed only on loopback"))
        << r.error().message;
    EXPECT_FALSE(mentions(r.error().message, kSecret)) << r.error().message;
  }
}

TEST(StorageEnvironment, NothingSetIsNoAccount) {
  auto c = connection_from_environment(Env{{"AZURE_BATCH_ACCOUNT", "b"}});
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(*c);
  EXPECT_FALSE(storage_account_from_environment(Env{}));
}

TEST(StorageEnvironment, AccountAndKey) {
  auto c = connection_from_environment(
      Env{{"AZURE_STORAGE_ACCOUNT", "myacct"}, {"AZURE_STORAGE_KEY", kKey}});
  ASSERT_TRUE(c.ok() && *c) << (c.ok() ? "none" : c.error().message);
  EXPECT_EQ((*c)->account_name, "myacct");
  EXPECT_EQ((*c)->blob_endpoint, "https://myacct.blob.core.windows.net");
  EXPECT_EQ((*c)->account_key, kKey);
}

// As `az storage`: the connection string's AccountName wins over AZURE_STORAGE_ACCOUNT, and
// AZURE_STORAGE_KEY fills in a key the connection string lacks.
TEST(StorageEnvironment, ConnectionStringFirstThenTheOtherVariables) {
  auto c = connection_from_environment(
      Env{{"AZURE_STORAGE_CONNECTION_STRING",
           "AccountName=devstoreaccount1;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1"},
          {"AZURE_STORAGE_ACCOUNT", "other"},
          {"AZURE_STORAGE_KEY", kKey}});
  ASSERT_TRUE(c.ok() && *c) << (c.ok() ? "none" : c.error().message);
  EXPECT_EQ((*c)->account_name, "devstoreaccount1");
  EXPECT_EQ((*c)->blob_endpoint, "http://127.0.0.1:10000/devstoreaccount1");
  EXPECT_EQ((*c)->account_key, kKey);
}

TEST(StorageEnvironment, SasTokenAndLogin) {
  auto sas = connection_from_environment(
      Env{{"AZURE_STORAGE_ACCOUNT", "myacct"}, {"AZURE_STORAGE_SAS_TOKEN", "?sv=1&sig=x"}});
  ASSERT_TRUE(sas.ok() && *sas);
  EXPECT_EQ((*sas)->sas_token, "sv=1&sig=x");
  auto login = connection_from_environment(Env{{"AZURE_STORAGE_ACCOUNT", "myacct"},
                                               {"AZURE_STORAGE_KEY", kKey},
                                               {"AZURE_STORAGE_AUTH_MODE", "login"}});
  ASSERT_TRUE(login.ok() && *login);
  EXPECT_TRUE((*login)->login);
  EXPECT_EQ((*login)->account_key, "");  // login ignores keys, as `az` does
  auto no_account = connection_from_environment(Env{{"AZURE_STORAGE_AUTH_MODE", "login"}});
  ASSERT_FALSE(no_account.ok());
  EXPECT_TRUE(mentions(no_account.error().message, "needs AZURE_STORAGE_ACCOUNT"));
}

TEST(StorageEnvironment, ErrorsNeverQuoteTheKey) {
  auto r = connection_from_environment(
      Env{{"AZURE_STORAGE_ACCOUNT", "myacct"}, {"AZURE_STORAGE_KEY", std::string(kSecret) + "!"}});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(mentions(r.error().message, "AccountKey is not valid base64")) << r.error().message;
  EXPECT_FALSE(mentions(r.error().message, kSecret));
  auto no_key = connection_from_environment(Env{{"AZURE_STORAGE_ACCOUNT", "myacct"}});
  ASSERT_FALSE(no_key.ok());
  EXPECT_TRUE(mentions(no_key.error().message, "needs AccountKey or SharedAccessSignature"));
}

Result<std::vector<StorageAccountConfig>> parse(const char* text) {
  return parse_storage_accounts(json::parse(text), "config.json");
}

TEST(StorageAccountsConfig, ParsesEachSource) {
  auto r = parse(R"([
    {"name": "data", "accountName": "mystore", "auth": {"keyEnv": "MYSTORE_KEY"}},
    {"name": "tok", "accountName": "tokstore", "endpoint": "https://tokstore.blob.core.windows.net/",
     "auth": {"type": "azureCli"}},
    {"name": "azurite", "connectionString": "UseDevelopmentStorage=true"},
    {"name": "vault", "connectionStringCommand": "pass show storage"},
    {"name": "env", "connectionStringEnv": "MY_CONNECTION"}
  ])");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 5u);
  EXPECT_EQ((*r)[0].endpoint, "https://mystore.blob.core.windows.net");
  EXPECT_EQ((*r)[0].auth.key_env, "MYSTORE_KEY");
  EXPECT_EQ((*r)[1].endpoint, "https://tokstore.blob.core.windows.net");
  EXPECT_EQ((*r)[1].auth.kind, AuthKind::AzureCli);
  EXPECT_EQ((*r)[1].auth.tokens.resource, "https://storage.azure.com/");
  EXPECT_EQ((*r)[2].connection_string, "UseDevelopmentStorage=true");
  EXPECT_EQ((*r)[3].connection_string_command, "pass show storage");
  EXPECT_EQ((*r)[4].connection_string_env, "MY_CONNECTION");
  EXPECT_FALSE(holds_inline_secret(*r));
}

TEST(StorageAccountsConfig, ErrorsNameTheFileAndPointer) {
  struct Case {
    const char* json;
    const char* expected;
  } cases[] = {
      {R"({"name":"a"})", "config.json: /storageAccounts: expected an array"},
      {R"([{"accountName":"abc","auth":{"keyEnv":"K"}}])",
       "config.json: /storageAccounts/0/name: required"},
      {R"([{"name":"a","auth":{"keyEnv":"K"}}])",
       "config.json: /storageAccounts/0/accountName: required"},
      {R"([{"name":"a","accountName":"My_Store","auth":{"keyEnv":"K"}}])",
       "/storageAccounts/0/accountName: expected 3 to 24 lowercase letters and digits"},
      {R"([{"name":"a","accountName":"abc","endpoint":"http://abc.example.com","auth":{"keyEnv":"K"}}])",
       "/storageAccounts/0/endpoint: http://abc.example.com: plain http is allowed only on "
       "loopback"},
      {R"([{"name":"a","accountName":"abc"}])", "/storageAccounts/0/auth: required"},
      {R"([{"name":"a","accountName":"abc","auth":{}}])",
       "/storageAccounts/0/auth: a sharedKey account needs key, keyEnv or keyCommand"},
      {R"([{"name":"a","accountName":"abc","auth":{"keyEnv":"K"},"sas":"x"}])",
       "/storageAccounts/0/sas: unknown key"},
      {R"([{"name":"a","connectionStringEnv":"A","connectionStringCommand":"b"}])",
       "/storageAccounts/0: give one of connectionString, connectionStringEnv or "
       "connectionStringCommand"},
      {R"([{"name":"a","connectionStringEnv":"A","accountName":"abc"}])",
       "/storageAccounts/0/accountName: the connection string gives it"},
      {R"([{"name":"a","connectionString":"AccountName=abc"}])",
       "/storageAccounts/0/connectionString: connection string: needs AccountKey or "
       "SharedAccessSignature"},
      {R"([{"name":"a","connectionStringEnv":5}])",
       "/storageAccounts/0/connectionStringEnv: expected a string"},
      {R"([{"name":"a","connectionStringEnv":"A"},{"name":"a","connectionStringEnv":"B"}])",
       "/storageAccounts/1/name: 'a' is defined twice"},
  };
  for (const auto& c : cases) {
    auto r = parse(c.json);
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_TRUE(mentions(r.error().message, c.expected)) << r.error().message;
  }
}

TEST(StorageAccountsConfig, InlineSecretsAreReportedButNeverQuoted) {
  auto bad = parse_storage_accounts(
      json::array({{{"name", "a"},
                    {"connectionString", std::string("AccountName=abc;AccountKey=") + kSecret +
                                             ";BlobEndpoint=http://192.0.2.1/abc"}}}),
      "config.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(mentions(bad.error().message, "config.json: /storageAccounts/0/connectionString:"));
  EXPECT_FALSE(mentions(bad.error().message, kSecret)) << bad.error().message;
  auto keyed = parse_storage_accounts(
      json::array({{{"name", "a"}, {"accountName", "abc"}, {"auth", {{"key", kKey}}}}}), "c");
  ASSERT_TRUE(keyed.ok()) << keyed.error().message;
  EXPECT_TRUE(holds_inline_secret(*keyed));
  auto connection = parse_storage_accounts(
      json::array({{{"name", "a"},
                    {"connectionString", std::string("AccountName=abc;AccountKey=") + kKey}}}),
      "c");
  ASSERT_TRUE(connection.ok()) << connection.error().message;
  EXPECT_TRUE(holds_inline_secret(*connection));
}

TEST(AutoStorage, NamesOneOfTheStorageAccounts) {
  auto batch = parse_accounts(json::parse(R"([
    {"name": "plain", "endpoint": "https://p.westeurope.batch.azure.com", "auth": {"keyEnv": "K"}},
    {"name": "prod", "endpoint": "https://prod.westeurope.batch.azure.com", "auth": {"keyEnv": "K"},
     "autoStorage": "data"}
  ])"),
                              "config.json");
  ASSERT_TRUE(batch.ok()) << batch.error().message;
  EXPECT_EQ((*batch)[1].auto_storage, "data");
  auto storage = parse(R"([{"name": "data", "accountName": "mystore", "auth": {"keyEnv": "S"}}])");
  ASSERT_TRUE(storage.ok());
  EXPECT_TRUE(check_auto_storage(*batch, *storage, "config.json").ok());
  auto missing = check_auto_storage(*batch, {}, "config.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "config.json: /accounts/1/autoStorage: no storage account named 'data' in "
            "storageAccounts");
  auto not_string = parse_accounts(
      json::parse(R"([{"name":"p","endpoint":"https://p","auth":{"keyEnv":"K"},"autoStorage":1}])"),
      "config.json");
  ASSERT_FALSE(not_string.ok());
  EXPECT_TRUE(mentions(not_string.error().message, "/accounts/0/autoStorage: expected a string"));
}

Timestamp some_time() {
  return Timestamp(std::chrono::sys_days(std::chrono::year(2026) / 11 / 27));
}

TEST(ResolveStorageAccount, KeyFromTheEnvironmentSignsWithStorageSharedKey) {
  auto storage = parse(R"([{"name": "data", "accountName": "mystore", "auth": {"keyEnv": "S"}}])");
  ASSERT_TRUE(storage.ok());
  auto t = resolve_storage_account(storage->front(), Env{{"S", kKey}}, nullptr);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->blob_endpoint, "https://mystore.blob.core.windows.net");
  HttpRequest req;
  req.url = t->blob_endpoint + "/c?restype=container";
  ASSERT_TRUE(t->credential->authorize(req, some_time()).ok());
  EXPECT_TRUE(find_header(req.headers, "Authorization").starts_with("SharedKey mystore:"));
  EXPECT_FALSE(find_header(req.headers, "x-ms-date").empty());
  auto unset = resolve_storage_account(storage->front(), Env{}, nullptr);
  ASSERT_FALSE(unset.ok());
  EXPECT_TRUE(mentions(unset.error().message, "$S is not set")) << unset.error().message;
}

TEST(ResolveStorageAccount, ConnectionStringFromACommand) {
  StorageAccountConfig a;
  a.name = "vault";
  a.connection_string_command = "printf 'UseDevelopmentStorage=true'";
  auto t = resolve_storage_account(a, Env{}, nullptr);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->account_name, "devstoreaccount1");
  EXPECT_EQ(t->blob_endpoint, "http://127.0.0.1:10000/devstoreaccount1");
  a.connection_string_command = std::string("printf 'AccountName=abc;AccountKey=") + kSecret + "!'";
  auto bad = resolve_storage_account(a, Env{}, nullptr);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(mentions(bad.error().message, "storage account vault: connection string: AccountKey"))
      << bad.error().message;
  EXPECT_FALSE(mentions(bad.error().message, kSecret));
}

TEST(ResolveStorageAccount, TheEnvironmentsSasGoesInTheQuery) {
  Env env{
      {"AZURE_STORAGE_CONNECTION_STRING",
       "BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;SharedAccessSignature=sv=1&sig=x"}};
  auto a = storage_account_from_environment(env);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->origin, AccountOrigin::Environment);
  auto t = resolve_storage_account(*a, env, nullptr);
  ASSERT_TRUE(t.ok()) << t.error().message;
  HttpRequest req;
  req.url = t->blob_endpoint + "/c/b";
  ASSERT_TRUE(t->credential->authorize(req, some_time()).ok());
  EXPECT_EQ(req.url, "http://127.0.0.1:10000/devstoreaccount1/c/b?sv=1&sig=x");
}

}  // namespace
}  // namespace trainyard::azure::storage_accounts_test
