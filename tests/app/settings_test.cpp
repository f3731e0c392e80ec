// config.json: defaults, every key, and one-line errors that name the file and the place.
#include "app/settings.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace trainyard {
namespace {

TEST(Settings, MissingFileGivesDefaults) {
  auto s = load_settings("/nonexistent/trainyard/config.json");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->theme, "dark");
  EXPECT_EQ(s->cpu_slots, 0);
  EXPECT_TRUE(s->metric_patterns.empty());
}

TEST(Settings, ReadsEveryKey) {
  auto s = parse_settings(R"j({"version": 1, "theme": "light", "local": {"cpuSlots": 3},
      "metrics": {"patterns": [{"name": "bleu", "regex": "BLEU = ([0-9.]+)"}],
                  "main": {"sweep": "bleu"}}})j",
                          "cfg.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->theme, "light");
  EXPECT_EQ(s->cpu_slots, 3);
  ASSERT_EQ(s->metric_patterns.size(), 1u);
  EXPECT_EQ(s->metric_patterns[0].name, "bleu");
  EXPECT_EQ(s->main_metric.at("sweep"), "bleu");
}

void expect_error(const std::string& text, const std::string& fragment) {
  auto s = parse_settings(text, "cfg.json");
  ASSERT_FALSE(s.ok()) << text;
  EXPECT_EQ(s.error().kind, ErrorKind::Parse);
  EXPECT_NE(s.error().message.find("cfg.json"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find(fragment), std::string::npos) << s.error().message;
  EXPECT_EQ(s.error().message.find('\n'), std::string::npos) << "one line";
  EXPECT_EQ(s.error().message.find('\x1b'), std::string::npos) << "no escape reaches a terminal";
}

TEST(Settings, ErrorsNameTheFileAndPlace) {
  expect_error("{\"theme\": ", "cfg.json:1:11: syntax error");
  // A syntax error quotes the file; what it quotes stays on one inert line.
  expect_error("{\"theme\": \"dark\"\n\x1b]0;pwned\x07 }", "cfg.json:2:1: syntax error");
  expect_error(R"j({"themes": "dark"})j", "/themes");
  expect_error(R"j({"version": 9})j", "/version");
  expect_error(R"j({"local": {"cpuSlots": 0}})j", "/local/cpuSlots");
  expect_error(R"j({"local": {"cpuSlots": "two"}})j", "/local/cpuSlots");
  expect_error(R"j({"metrics": {"patterns": [{"name": "x", "regex": "([0-9"}]}})j",
               "/metrics/patterns/0/regex");
  expect_error(R"j({"metrics": {"patterns": [{"name": "x", "regex": "no group"}]}})j",
               "capture group");
  expect_error(R"j({"metrics": {"main": {"job": 3}}})j", "/metrics/main/job");
  expect_error(R"j([1, 2])j", "expected an object");
}

}  // namespace
}  // namespace trainyard

namespace trainyard {
namespace {

TEST(Settings, PollPaceAndBudget) {
  auto s = parse_settings(
      R"j({"poll": {"focusSeconds": 2, "backgroundSeconds": 60, "requestsPerSecond": 0.5}})j",
      "c.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->poll.focus_seconds, 2);
  EXPECT_EQ(s->poll.background_seconds, 60);
  EXPECT_EQ(s->poll.requests_per_second, 0.5);
  EXPECT_EQ(parse_settings("{}", "c.json")->poll.focus_seconds, 1.5);
}

TEST(Settings, PollMistakesNameThePlace) {
  auto fast = parse_settings(R"j({"poll": {"focusSeconds": 0.01}})j", "c.json");
  ASSERT_FALSE(fast.ok());
  EXPECT_NE(fast.error().message.find("/poll/focusSeconds"), std::string::npos)
      << fast.error().message;
  auto typo = parse_settings(R"j({"poll": {"focus": 1}})j", "c.json");
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.error().message.find("/poll/focus"), std::string::npos);
}

}  // namespace
}  // namespace trainyard

namespace trainyard {
namespace {

TEST(Settings, AccountBudgets) {
  auto s = parse_settings(
      R"j({"accounts": [{"name": "prod", "endpoint": "https://prod.eastus.batch.azure.com",
                          "auth": {"type": "azureCli"},
                          "budget": {"total": 2000, "jobs": {"sweep": 500.5}}}]})j",
      "c.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->accounts.size(), 1u);
  ASSERT_TRUE(s->budgets.count("prod"));
  EXPECT_EQ(s->budgets.at("prod").total, 2000.0);
  EXPECT_EQ(s->budgets.at("prod").jobs.at("sweep"), 500.5);
}

TEST(Settings, BudgetMistakesNameThePlace) {
  auto with = [](const std::string& budget) {
    return parse_settings(R"j({"accounts": [{"name": "prod", "endpoint":
        "https://prod.eastus.batch.azure.com", "auth": {"type": "azureCli"}, "budget": )j" +
                              budget + "}]}",
                          "c.json");
  };
  auto zero = with(R"j({"jobs": {"train": 0}})j");
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().message,
            "c.json: /accounts/0/budget/jobs/train: expected a positive amount in the prices' "
            "currency");
  auto typo = with(R"j({"totl": 5})j");
  ASSERT_FALSE(typo.ok());
  EXPECT_EQ(typo.error().message, "c.json: /accounts/0/budget/totl: unknown setting (total, jobs)");
  auto text = with(R"j("500")j");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().message, "c.json: /accounts/0/budget: expected an object (total, jobs)");
}

TEST(Settings, SecretVariableNamesAreEveryConfiguredSecretSource) {
  auto s = parse_settings(R"j({"accounts": [
      {"name": "a", "endpoint": "https://a.batch.azure.com", "auth": {"keyEnv": "A_KEY"}},
      {"name": "b", "endpoint": "https://b.batch.azure.com",
       "auth": {"type": "servicePrincipal", "tenantId": "t", "clientId": "c",
                "clientSecretEnv": "B_SECRET"}},
      {"name": "c", "endpoint": "https://c.batch.azure.com", "auth": {"keyEnv": "A_KEY"}},
      {"name": "d", "endpoint": "https://d.batch.azure.com", "auth": {"keyCommand": "pass d"}}],
    "discovery": {"auth": {"type": "servicePrincipal", "tenantId": "t", "clientId": "c",
                           "clientSecretEnv": "DISCOVERY_SECRET"}}})j",
                          "cfg.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(secret_variable_names(*s),
            (std::vector<std::string>{"A_KEY", "B_SECRET", "DISCOVERY_SECRET"}));
  EXPECT_TRUE(secret_variable_names(Settings{}).empty());
}

}  // namespace
}  // namespace trainyard

namespace trainyard {
namespace {

constexpr const char* kStorage = R"j({
  "accounts": [{"name": "prod", "endpoint": "https://prod.westeurope.batch.azure.com",
                "auth": {"keyEnv": "PROD_KEY"}, "autoStorage": "data"}],
  "storageAccounts": [
    {"name": "data", "accountName": "mystore", "auth": {"keyEnv": "MYSTORE_KEY"}},
    {"name": "azurite", "connectionString": "UseDevelopmentStorage=true"},
    {"name": "vault", "connectionStringEnv": "VAULT_CONNECTION"}]})j";

TEST(Settings, StorageAccountsAndAutoStorage) {
  auto s = parse_settings(kStorage, "cfg.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->storage_accounts.size(), 3u);
  EXPECT_EQ(s->storage_accounts[0].endpoint, "https://mystore.blob.core.windows.net");
  EXPECT_EQ(s->accounts[0].auto_storage, "data");
  EXPECT_EQ(secret_variable_names(*s),
            (std::vector<std::string>{"PROD_KEY", "MYSTORE_KEY", "VAULT_CONNECTION"}));
}

TEST(Settings, StorageMistakesNameThePlace) {
  expect_error(R"j({"storageAccounts": {}})j", "cfg.json: /storageAccounts: expected an array");
  expect_error(R"j({"storageAccounts": [{"name": "d", "accountName": "x"}]})j",
               "cfg.json: /storageAccounts/0/accountName: expected 3 to 24");
  expect_error(R"j({"accounts": [{"name": "p", "endpoint": "https://p.batch.azure.com",
                                  "auth": {"keyEnv": "K"}, "autoStorage": "nope"}]})j",
               "cfg.json: /accounts/0/autoStorage: no storage account named 'nope'");
}

// As for a Batch key: a storage key or connection string inline needs a private file.
TEST(Settings, InlineStorageSecretsNeedAPrivateFile) {
  namespace fs = std::filesystem;
  const fs::path path = fs::temp_directory_path() / ("ty-storage-" + std::to_string(::getpid()));
  auto load_with = [&](const std::string& text, mode_t mode) {
    std::ofstream(path) << text;
    ::chmod(path.c_str(), mode);
    return load_settings(path.string());
  };
  const std::string keyed = R"j({"storageAccounts": [{"name": "d", "accountName": "mystore",
      "auth": {"key": "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="}}]})j";
  auto open = load_with(keyed, 0644);
  ASSERT_FALSE(open.ok());
  EXPECT_NE(open.error().message.find("chmod 600"), std::string::npos) << open.error().message;
  EXPECT_EQ(open.error().message.find("AAECAwQF"), std::string::npos);
  EXPECT_TRUE(load_with(keyed, 0600).ok());
  // Azurite's key is published: no secret to guard.
  EXPECT_TRUE(load_with(kStorage, 0644).ok());
  fs::remove(path);
}

TEST(Settings, PricesEndpointAndDiscount) {
  auto s = parse_settings(
      R"j({"prices": {"endpoint": "http://127.0.0.1:9999", "discount": 0.75}})j", "cfg.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->prices.endpoint, "http://127.0.0.1:9999");
  EXPECT_EQ(s->prices.discount, 0.75);
  auto defaults = parse_settings("{}", "cfg.json");
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->prices.endpoint, "https://prices.azure.com");
  EXPECT_EQ(defaults->prices.discount, 1.0);
  expect_error(R"j({"prices": {"discount": 1.5}})j", "cfg.json: /prices/discount: expected");
  expect_error(R"j({"prices": []})j", "cfg.json: /prices: expected an object");
}

}  // namespace
}  // namespace trainyard
