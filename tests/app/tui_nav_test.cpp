// Navigation and the user's keys: history, jumps, the all-accounts panes, the account colour
// band, rebound keys and plugins.
#include <gtest/gtest.h>

#include <cstdlib>

#include "key_config.hpp"
#include "tui_history.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_nav_test {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;

constexpr TermSize kWide{200, 60};

const Binding* bound(const std::vector<Binding>& bs, Context c, const std::string& chord) {
  for (const auto& b : bs)
    if (b.context == c && b.chord == chord) return &b;
  return nullptr;
}

TEST(KeyConfig, RebindingAnActionMovesItInEveryContextThatBindsIt) {
  auto bs = bindings_with(default_bindings(), {{"stop", "K"}});
  // stop is `s` in Tasks, Logs and Detail by default.
  for (Context c : {Context::Tasks, Context::Logs, Context::Detail}) {
    ASSERT_NE(bound(bs, c, "K"), nullptr);
    EXPECT_EQ(bound(bs, c, "K")->action, Action::Stop);
    EXPECT_EQ(bound(bs, c, "s"), nullptr);
  }
  EXPECT_EQ(bs.size(), default_bindings().size());
}

TEST(KeyConfig, AnActionWithTwoKeysKeepsOnlyTheUsersAndShadowsTheOldOwner) {
  // down is j and Down in Lists; up is k there. Down on `k` leaves up without `k`.
  auto bs = bindings_with(default_bindings(), {{"down", "k"}});
  ASSERT_NE(bound(bs, Context::Table, "k"), nullptr);
  EXPECT_EQ(bound(bs, Context::Table, "k")->action, Action::Down);
  EXPECT_EQ(bound(bs, Context::Table, "j"), nullptr);
  EXPECT_EQ(bound(bs, Context::Table, "Down"), nullptr);
  ASSERT_NE(bound(bs, Context::Table, "Up"), nullptr);  // up keeps its other key
  // Lists keep one of down's two keys and lose up's k: two fewer; Compare, Logs, the JSON view
  // and the column chooser bind j, Down and k the same way: two fewer in each.
  EXPECT_EQ(bs.size(), default_bindings().size() - 2 - 2 - 2 - 2 - 2);
}

TEST(KeyConfig, KeyNamesAreSpelledAsTheHelpSpellsThem) {
  auto bs = bindings_with(default_bindings(), {{"stop", "PageDown"}});
  EXPECT_NE(bound(bs, Context::Tasks, "NPage"), nullptr);
}

TEST(KeyConfig, UnknownActionOrKeyIsOneLineNamingFileAndKey) {
  auto a = check_key_overrides({{"stpo", "K"}}, "/c/config.json");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message.rfind("/c/config.json: /keys/stpo: unknown action", 0), 0u);
  auto b = check_key_overrides({{"stop", "Ctrl-Q"}}, "/c/config.json");
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().message.rfind("/c/config.json: /keys/stop: 'Ctrl-Q' is not a key name", 0),
            0u);
}

// `"stop": "j"` alone would leave no key to move down: refused at load, unless `down` moves too.
TEST(KeyConfig, AKeyThatShadowsNavigationIsRefusedUnlessItsActionMoves) {
  auto a = check_key_overrides({{"stop", "j"}}, "/c/config.json");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message,
            "/c/config.json: /keys/stop: 'j' is the key of down: move down too (\"down\": "
            "\"KEY\") or choose another key");
  for (const char* key : {"k", "g", "G", "Enter", "Escape", "q", "/", ":"})
    EXPECT_FALSE(check_key_overrides({{"stop", key}}, "c.json")) << key;
  EXPECT_TRUE(check_key_overrides({{"stop", "j"}, {"down", "J"}}, "c.json"));
  EXPECT_TRUE(check_key_overrides({{"down", "j"}}, "c.json"));
  EXPECT_TRUE(check_key_overrides({{"stop", "K"}}, "c.json"));
}

TEST(KeyConfig, EveryActionHasOneName) {
  for (const auto& b : default_bindings()) {
    auto id = action_id(b.action);
    ASSERT_FALSE(id.empty()) << b.description;
    EXPECT_EQ(action_by_id(id), b.action) << id;
  }
}

TEST(SettingsUi, KeysAndPluginsAreRead) {
  auto s = parse_settings(
      R"({"keys": {"stop": "K"}, "plugins": [{"name": "gpu-top", "key": "H",
          "panes": ["tasks"], "command": "nvidia-smi", "timeoutSeconds": 5}]})",
      "cfg.json");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->keys.at("stop"), "K");
  ASSERT_EQ(s->plugins.size(), 1u);
  EXPECT_EQ(s->plugins[0].name, "gpu-top");
  EXPECT_EQ(s->plugins[0].panes, std::vector<std::string>{"tasks"});
  EXPECT_EQ(s->plugins[0].timeout_seconds, 5);
}

TEST(SettingsUi, BadSettingsNameFileAndPlace) {
  auto e = [](const std::string& text) {
    auto s = parse_settings(text, "cfg.json");
    return s ? std::string("ok") : s.error().message;
  };
  EXPECT_EQ(e(R"({"keys": {"stop": 3}})"), "cfg.json: /keys/stop: expected a key name");
  EXPECT_EQ(e(R"({"plugins": [{"name": "x", "key": "H", "panes": ["tsks"], "command": "c"}]})")
                .rfind("cfg.json: /plugins/0/panes/0: expected one of accounts", 0),
            0u);
  EXPECT_EQ(
      e(R"({"plugins": [{"name": "x", "key": "Hyper", "panes": ["tasks"], "command": "c"}]})"),
      "cfg.json: /plugins/0/key: 'Hyper' is not a key name");
  EXPECT_EQ(e(R"({"plugins": [{"name": "x", "key": "H", "panes": ["tasks"]}]})"),
            "cfg.json: /plugins/0/command: expected a non-empty string");
  EXPECT_EQ(e(R"({"accounts": [{"name": "prod", "endpoint": "https://p.batch.azure.com",
                   "auth": {"keyEnv": "K"}, "color": "rd"}]})"),
            "cfg.json: /accounts/0/color: unknown colour 'rd' (expected red, green, yellow, "
            "blue, magenta or cyan)");
}

Frame at(View v, std::string job = "") {
  Frame f = make_frame(v, "local");
  f.job = std::move(job);
  return f;
}

TEST(NavHistory, BackAndForwardAsABrowserDoes) {
  NavHistory h;
  std::vector<Frame> a{at(View::Jobs)}, b{at(View::Jobs), at(View::Tasks, "x")}, c{at(View::Pools)};
  record_move(h, a, b);
  record_move(h, b, c);
  auto now = c;
  ASSERT_TRUE(history_back(h, now));
  EXPECT_TRUE(same_place(now, b));
  ASSERT_TRUE(history_back(h, now));
  EXPECT_TRUE(same_place(now, a));
  EXPECT_FALSE(history_back(h, now));
  ASSERT_TRUE(history_forward(h, now));
  EXPECT_TRUE(same_place(now, b));
  // A new move drops what lay ahead.
  record_move(h, now, a);
  EXPECT_FALSE(history_forward(h, now));
  EXPECT_EQ(h.back.size(), 2u);  // a, then b
}

TEST(NavHistory, TheSamePlaceIsNoMove) {
  NavHistory h;
  std::vector<Frame> a{at(View::Jobs)}, moved = a;
  moved.back().cursor.selected = 3;
  record_move(h, a, moved);
  EXPECT_TRUE(h.back.empty());
}

std::string row_text(const HeadlessTerminal& t, int y) {
  std::istringstream in(t.last_frame().to_text());
  std::string line;
  for (int i = 0; i <= y && std::getline(in, line); ++i) {
  }
  return line;
}

class TuiNav : public TuiScreen {
 protected:
  std::string crumbs() const { return row_text(*term_, 0); }
  std::string status() const { return row_text(*term_, term_->size().height - 1); }
  void add_contoso_job() {
    Job j;
    j.account = "contoso";
    j.id = "nightly-eval";
    j.pool_id = "gpu-a100";
    j.creation_time = j.state_transition_time = apptest::kFixtureNow - std::chrono::hours(2);
    j.metadata.push_back({"submittedBy", "alice@contoso"});
    ASSERT_TRUE(fixture_.ctx().store->upsert_job(j));
    Pool p;
    p.account = "contoso";
    p.id = "gpu-a100";
    p.vm_size = "standard_nd96asr_v4";
    p.current_dedicated_nodes = 2;
    p.target_dedicated_nodes = 4;
    ASSERT_TRUE(fixture_.ctx().store->upsert_pool(p));
    azure::AccountConfig prod;
    prod.name = "contoso";
    prod.endpoint = "https://contoso.westeurope.batch.azure.com";
    prod.color = "red";
    fixture_.ctx().settings.accounts.push_back(prod);
  }
};

TEST_F(TuiNav, HistoryGoesBackAndForwardBeyondTheCrumbs) {
  open(kNormal, "jobs");
  keys("g Enter");  // resnet-sweep's tasks
  EXPECT_EQ(crumbs().rfind("local › jobs › resnet-sweep", 0), 0u) << crumbs();
  command("pools");
  EXPECT_EQ(crumbs().rfind("local › pools", 0), 0u) << crumbs();
  keys("[");
  EXPECT_EQ(crumbs().rfind("local › jobs › resnet-sweep", 0), 0u) << crumbs();
  keys("[");
  EXPECT_EQ(crumbs().rfind("local › jobs", 0), 0u) << crumbs();
  EXPECT_EQ(crumbs().find("resnet"), std::string::npos) << crumbs();
  keys("] ]");
  EXPECT_EQ(crumbs().rfind("local › pools", 0), 0u) << crumbs();
  keys("]");
  EXPECT_NE(status().find("history: nothing after this"), std::string::npos) << status();
  keys("Escape");  // Escape still pops the crumbs: from local › pools to the Accounts pane
  EXPECT_EQ(crumbs().rfind("local", 0), 0u) << crumbs();
  EXPECT_EQ(crumbs().find("pools"), std::string::npos) << crumbs();
}

// `:j` Tab Tab…: each command and long alias that starts with `j` in turn, round the list.
TEST_F(TuiNav, TabCyclesTheCommandsThatFit) {
  open(kNormal, "jobs");
  keys(":");
  type("j");
  keys("Tab");
  EXPECT_NE(line_with("[job] jobs"), "") << screen();
  keys("Tab");
  EXPECT_NE(line_with("job [jobs]"), "") << screen();
  keys("Tab");
  EXPECT_NE(line_with("[job] jobs"), "") << screen();
  keys("BTab");
  EXPECT_NE(line_with("job [jobs]"), "") << screen();
  keys("Enter");
  EXPECT_EQ(crumbs().rfind("local › jobs", 0), 0u) << crumbs();
}

TEST_F(TuiNav, JumpCommandsOpenWhatTheyName) {
  open(kNormal, "jobs");
  command("job bert-finetune");
  EXPECT_EQ(crumbs().rfind("local › jobs › bert-finetune", 0), 0u) << crumbs();
  command("task resnet-sweep/lr-0010");
  EXPECT_NE(crumbs().find("resnet-sweep"), std::string::npos) << crumbs();
  EXPECT_NE(crumbs().find("lr-0010"), std::string::npos) << crumbs();
  command("pool local");
  EXPECT_EQ(crumbs().rfind("local › pools › local", 0), 0u) << crumbs();
}

TEST_F(TuiNav, AnUnknownIdSaysSoInOneLineAndStays) {
  open(kNormal, "jobs");
  command("job nope");
  EXPECT_NE(status().find("no job 'nope' in account local"), std::string::npos) << status();
  EXPECT_EQ(crumbs().rfind("local › jobs", 0), 0u);
  command("task resnet-sweep/9999");
  EXPECT_NE(status().find("no task 'resnet-sweep/9999' in account local"), std::string::npos);
  command("task resnet-sweep");
  EXPECT_NE(status().find("':task resnet-sweep': expected JOB/TASK"), std::string::npos);
  command("pool gpu");
  EXPECT_NE(status().find("no pool 'gpu' in account local"), std::string::npos);
  command("gpus now");
  EXPECT_NE(status().find("':gpus' takes no argument"), std::string::npos);
}

TEST_F(TuiNav, AllJobsListsEveryAccountWithWhoSubmitted) {
  add_contoso_job();
  open(kNormal, "jobs");
  command("alljobs");
  expect("all_jobs_80x24");
  open(kWide, "jobs");
  command("alljobs");
  expect("all_jobs_200x60");
}

TEST_F(TuiNav, AllPools) {
  add_contoso_job();
  open(kNormal, "jobs");
  command("allpools");
  expect("all_pools_80x24");
}

// Issue recipe: the hint bar said `<q> back` on :alljobs, but q and Esc did nothing.
TEST_F(TuiNav, TheAllAccountsPanesLeaveWithEscAndQ) {
  add_contoso_job();
  open(kNormal, "jobs");
  command("alljobs");
  ASSERT_NE(screen().find("SUBMITTED BY"), std::string::npos) << screen();
  keys("q");
  EXPECT_EQ(crumbs().rfind("local › jobs", 0), 0u) << crumbs();
  EXPECT_EQ(screen().find("SUBMITTED BY"), std::string::npos) << screen();
  command("allpools");
  ASSERT_NE(screen().find("ACCOUNT"), std::string::npos) << screen();
  keys("Escape");
  EXPECT_EQ(crumbs().rfind("local › jobs", 0), 0u) << crumbs();
}

// As in k9s: Esc clears a filter first, and leaves the pane only when there is none.
TEST_F(TuiNav, EscapeClearsTheFilterBeforeLeaving) {
  open(kNormal, "jobs");
  keys("g Enter");  // resnet-sweep's tasks
  keys("/");
  type("lr-0010");
  keys("Enter");
  ASSERT_EQ(screen().find("lr-0030"), std::string::npos) << screen();
  keys("Escape");
  EXPECT_EQ(crumbs().rfind("local › jobs › resnet-sweep", 0), 0u) << crumbs();
  EXPECT_NE(screen().find("lr-0030"), std::string::npos) << screen();
  EXPECT_NE(status().find("filter cleared"), std::string::npos) << status();
  keys("Escape");
  EXPECT_EQ(crumbs().find("resnet-sweep"), std::string::npos) << crumbs();
}

TEST_F(TuiNav, AnAccountsColourBandsItsPanes) {
  add_contoso_job();
  open(kNormal, "jobs");
  command("alljobs");
  keys("/");
  type("nightly");
  keys("Enter Enter");  // contoso's nightly-eval: a pane of the red account
  expect("band_contoso_80x24");
  EXPECT_EQ(crumbs().rfind("contoso › jobs › nightly-eval", 0), 0u) << crumbs();
  auto roles = term_->last_frame().to_role_map();
  EXPECT_EQ(roles.substr(79, 1), "Q");  // the top line ends in band_red
  open(kWide, "jobs");
  command("alljobs");
  keys("/");
  type("nightly");
  keys("Enter Enter");
  expect("band_contoso_200x60");
}

TEST_F(TuiNav, TheHelpShowsAReboundKeyAndScrolls) {
  fixture_.ctx().settings.keys = {{"stop", "K"}};
  open(kNormal, "jobs");
  keys("?");
  expect("help_rebound_80x24");
  keys("G");
  expect("help_rebound_end_80x24");
  open(kWide, "jobs");
  keys("?");
  expect("help_rebound_200x60");
}

TEST_F(TuiNav, ARenoundKeyActsAndTheOldOneDoesNot) {
  fixture_.ctx().settings.keys = {{"stop", "K"}};
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0010");
  keys("s");
  EXPECT_NE(status().find("s does nothing here"), std::string::npos) << status();
  keys("K");
  EXPECT_NE(term_->last_frame().to_text().find("Stop task"), std::string::npos);
  keys("Escape");  // never confirm: the running task's "supervisor" is this test process
}

TEST_F(TuiNav, APluginRunsWithTheRowInItsEnvironmentAndNoSecret) {
  ::setenv("AZURE_BATCH_ACCESS_KEY", "sekrit-key", 1);
  PluginSettings p;
  p.name = "show-row";
  p.key = "H";
  p.panes = {"tasks"};
  p.command =
      "echo \"$ACCOUNT $JOB $TASK state=$COL_STATE\"; echo \"secrets=$(env | grep -c sekrit)\"; "
      "printf 'a\\033]0;t\\007b\\n'";
  fixture_.ctx().settings.plugins = {p};
  open(kNormal, "tasks", "resnet-sweep");
  select_task("lr-0010");
  keys("H");
  ::unsetenv("AZURE_BATCH_ACCESS_KEY");
  auto text = term_->last_frame().to_text();
  EXPECT_NE(text.find("local resnet-sweep lr-0010 state=running"), std::string::npos) << text;
  EXPECT_NE(text.find("show-row · exit 0"), std::string::npos) << text;
  EXPECT_NE(text.find("secrets=0"), std::string::npos) << text;
  EXPECT_EQ(text.find("\033"), std::string::npos);
  expect("plugin_80x24");
  keys("Escape");
  EXPECT_EQ(crumbs().rfind("local › jobs › resnet-sweep", 0), 0u) << crumbs();
  keys("H");
  open(kWide, "tasks", "resnet-sweep");
  select_task("lr-0010");
  keys("H");
  expect("plugin_200x60");
}

TEST_F(TuiNav, APluginKeyWorksOnlyOnItsPanes) {
  PluginSettings p{"x", "H", {"tasks"}, "echo hi", 5};
  fixture_.ctx().settings.plugins = {p};
  open(kNormal, "jobs");
  keys("H");
  EXPECT_NE(status().find("H does nothing here"), std::string::npos) << status();
}

}  // namespace
}  // namespace trainyard::tui_nav_test
