// What a Batch account costs, as the TUI shows it: each job's cost so far and projected (the
// Jobs pane's COST and PROJECTED), the account's totals against its budget, the burn rate, the
// waste (idle dedicated nodes, finished jobs still active), the budget alert, and the warning
// on quitting while idle dedicated nodes bill. Every figure is worked out by hand below.
#include <gtest/gtest.h>

#include "account_costs.hpp"
#include "store/price_cache.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_costs_test {
namespace {

using apptest::kFixtureNow;
constexpr TermSize kWide{200, 40};
constexpr const char* kAccount = "contoso";  // westeurope (the fixture's endpoint)

Timestamp at(int s) {
  return Timestamp(std::chrono::seconds(1'709'287'200 + s));  // 2024-03-01T10:00:00Z + s
}

// Prices (westeurope, an hour): NC24ads_A100_v4 dedicated 3.673, Spot 0.7346; D4s_v3
// dedicated 0.192.
//
// Pool gpu (NC24ads, 4 slots a node): 2 dedicated (d-1 running, d-2 idle), 2 Spot of which
// s-2 is preempted. Burn: 2 × 3.673 + 1 × 0.7346 = 8.0806. Pool cpu (D4s): 1 dedicated, idle:
// 0.192. The account burns 8.2726 an hour, of which idle dedicated 3.673 + 0.192 = 3.865.
//
// Job train on gpu (now 14:00):
//   t1 done   10:00-11:00 on d-1, 1 slot:  1 h × 3.673 × 1/4 = 0.91825
//   t2 done   10:00-10:30 on s-1, 2 slots: 0.5 h × 0.7346 × 2/4 = 0.18365
//   t3 running since 12:00 on d-1, 4 slots: 2 h × 3.673 × 4/4 = 7.346
//   t4 queued.
//   So far 8.4479; 2 of 4 finished: projected 8.4479 / 2 × 4 = 16.8958.
// Job done on cpu: its 2 tasks completed (no start time: nothing billed), the job still active.
class TuiCosts : public apptest::TuiScreen {
 protected:
  Store& store() { return *fixture_.ctx().store; }

  void open_batch(TermSize size, const std::string& view) {
    term_ = std::make_unique<HeadlessTerminal>(size);
    TuiOptions o;
    o.view = view;
    o.account = kAccount;
    tui_ = std::make_unique<Tui>(fixture_.ctx(), *term_, o);
    tui_->settle();
    tui_->draw();
  }

  void cache_prices() {
    std::vector<VmPrice> gpu = {
        {"Standard_NC24ads_A100_v4", "westeurope", PriceKind::Dedicated, 3.673, "USD", at(0)},
        {"Standard_NC24ads_A100_v4", "westeurope", PriceKind::Spot, 0.7346, "USD", at(0)}};
    ASSERT_TRUE(store_prices(store(), "Standard_NC24ads_A100_v4", "westeurope", gpu, at(0)));
    std::vector<VmPrice> cpu = {
        {"Standard_D4s_v3", "westeurope", PriceKind::Dedicated, 0.192, "USD", at(0)}};
    ASSERT_TRUE(store_prices(store(), "Standard_D4s_v3", "westeurope", cpu, at(0)));
  }

  void add_pool(const std::string& id, const std::string& size, int dedicated, int spot) {
    Pool p;
    p.account = kAccount;
    p.id = id;
    p.vm_size = size;
    p.current_dedicated_nodes = p.target_dedicated_nodes = dedicated;
    p.current_low_priority_nodes = p.target_low_priority_nodes = spot;
    p.task_slots_per_node = 4;
    ASSERT_TRUE(store().upsert_pool(p));
  }
  void add_node(const std::string& pool, const std::string& id, bool dedicated, NodeState s) {
    Node n;
    n.account = kAccount;
    n.pool_id = pool;
    n.id = id;
    n.is_dedicated = dedicated;
    n.state = s;
    ASSERT_TRUE(store().upsert_node(n));
  }
  void add_job(const std::string& id, const std::string& pool) {
    Job j;
    j.account = kAccount;
    j.id = id;
    j.pool_id = pool;
    j.creation_time = at(0);
    ASSERT_TRUE(store().upsert_job(j));
  }
  void add_task(const std::string& job, const std::string& id, TaskState s,
                std::optional<int> start, std::optional<int> end, const std::string& node,
                int slots) {
    Task t;
    t.account = kAccount;
    t.job_id = job;
    t.id = id;
    t.state = s;
    t.required_slots = slots;
    t.creation_time = t.state_transition_time = at(0);
    if (start) t.execution_info.start_time = at(*start);
    if (end) t.execution_info.end_time = at(*end);
    if (s == TaskState::Completed) t.execution_info.result = TaskResult::Success;
    if (!node.empty()) t.node_info = TaskNodeInfo{"gpu", node, ""};
    ASSERT_TRUE(store().upsert_task(t));
  }

  void seed() {
    cache_prices();
    add_pool("gpu", "Standard_NC24ads_A100_v4", 2, 2);
    add_node("gpu", "d-1", true, NodeState::Running);
    add_node("gpu", "d-2", true, NodeState::Idle);
    add_node("gpu", "s-1", false, NodeState::Running);
    add_node("gpu", "s-2", false, NodeState::Preempted);
    add_pool("cpu", "Standard_D4s_v3", 1, 0);
    add_node("cpu", "c-1", true, NodeState::Idle);
    add_job("train", "gpu");
    add_task("train", "t1", TaskState::Completed, 0, 3600, "d-1", 1);
    add_task("train", "t2", TaskState::Completed, 0, 1800, "s-1", 2);
    add_task("train", "t3", TaskState::Running, 7200, std::nullopt, "d-1", 4);
    add_task("train", "t4", TaskState::Active, std::nullopt, std::nullopt, "", 1);
    add_job("done", "cpu");
    add_task("done", "d1", TaskState::Completed, std::nullopt, std::nullopt, "", 1);
    add_task("done", "d2", TaskState::Completed, std::nullopt, std::nullopt, "", 1);
  }
};

TEST_F(TuiCosts, TheAccountsFiguresAreWorkedOutFromTheCache) {
  seed();
  auto c = account_costs(store(), fixture_.ctx().settings, kAccount, kFixtureNow);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->currency, "USD");
  EXPECT_EQ(c->region, "westeurope");
  ASSERT_TRUE(c->jobs.count("train"));
  const auto& train = c->jobs.at("train");
  ASSERT_TRUE(train.so_far && train.projected) << train.why;
  EXPECT_NEAR(*train.so_far, 8.4479, 1e-9);
  EXPECT_NEAR(*train.projected, 16.8958, 1e-9);
  ASSERT_TRUE(c->so_far && c->projected && c->hourly);
  EXPECT_NEAR(*c->so_far, 8.4479, 1e-9);
  EXPECT_NEAR(*c->projected, 16.8958, 1e-9);
  EXPECT_EQ(c->unprojected, 0);
  EXPECT_NEAR(*c->hourly, 8.2726, 1e-9);
  EXPECT_EQ(c->idle_nodes(), 2);
  EXPECT_NEAR(c->idle_hourly(), 3.865, 1e-9);
  EXPECT_EQ(c->finished_active, std::vector<std::string>{"done"});
}

TEST_F(TuiCosts, ABudgetAlertsOncePerCrossing) {
  seed();
  AccountCosts c;
  c.account = kAccount;
  c.currency = "USD";
  c.projected = 16.8958;
  c.jobs["train"].projected = 16.8958;
  Budget b{15.0, {{"train", 20.0}}};
  std::set<std::string> crossed;
  auto first = budget_alerts(c, b, crossed);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].kind, AlertKind::BudgetCrossed);
  EXPECT_EQ(first[0].text,
            "budget: contoso projected 16.8958 USD, over its 15.0000 USD budget (113%)");
  EXPECT_TRUE(budget_alerts(c, b, crossed).empty());  // still over: told once
  c.jobs["train"].projected = 21.0;
  auto job = budget_alerts(c, b, crossed);
  ASSERT_EQ(job.size(), 1u);
  EXPECT_EQ(job[0].job, "train");
  EXPECT_EQ(job[0].text,
            "budget: job train projected 21.0000 USD, over its 20.0000 USD budget (105%)");
  c.projected = 14.0;  // back under, then over again: a new crossing
  EXPECT_TRUE(budget_alerts(c, b, crossed).empty());
  c.projected = 15.5;
  EXPECT_EQ(budget_alerts(c, b, crossed).size(), 1u);
}

TEST_F(TuiCosts, TheJobsPaneShowsCostsWasteAndTheBudget) {
  seed();
  fixture_.ctx().settings.budgets[kAccount] = Budget{15.0, {}};
  open_batch(kWide, "jobs");
  EXPECT_NE(line_with("cost   so far 8.4479 USD · projected 16.8958 USD · budget 15.0000 USD "
                      "EXCEEDED · burn 8.2726 USD/h · westeurope prices of 2024-03-01"),
            "")
      << screen();
  EXPECT_NE(line_with("waste  2 idle dedicated node(s) billing 3.8650 USD/h (cpu, gpu) · 1 job(s) "
                      "done but still active, held against the job quota (t terminates): done"),
            "")
      << screen();
  EXPECT_NE(line_with("COST"), "") << screen();
  auto train = line_with("train");
  EXPECT_NE(train.find("8.45"), std::string::npos) << screen();
  EXPECT_NE(
      screen().find("budget: contoso projected 16.8958 USD, over its 15.0000 USD budget (113%)"),
      std::string::npos)
      << screen();
  keys("W");  // wide: the projection per job
  EXPECT_NE(line_with("train").find("16.90"), std::string::npos) << screen();
}

// A small terminal keeps a table of at least 6 rows (header and five jobs): 7 rows inside the
// pane leave room for one cost line, 6 for none.
TEST_F(TuiCosts, ASmallTerminalKeepsTheJobsAndDropsTheCostLinesFirst) {
  seed();
  open_batch({100, 12}, "jobs");  // 12 rows: crumbs, 2 borders, hints, status: 7 inside
  EXPECT_NE(line_with("cost   so far 8.4479 USD"), "") << screen();
  EXPECT_EQ(line_with("waste"), "") << screen();
  EXPECT_NE(line_with("train"), "") << screen();
  open_batch({100, 11}, "jobs");
  EXPECT_EQ(line_with("cost   so far"), "") << screen();
  EXPECT_NE(line_with("done"), "") << screen();
}

TEST_F(TuiCosts, WithoutCachedPricesTheCostLineSaysHowToGetThem) {
  add_pool("gpu", "Standard_NC24ads_A100_v4", 1, 0);
  add_job("train", "gpu");
  open_batch(kWide, "jobs");
  EXPECT_NE(line_with("cost   unknown (job train) no prices cached for "
                      "Standard_NC24ads_A100_v4 in westeurope ('trainyard prices --vm-size "
                      "Standard_NC24ads_A100_v4 --region westeurope' fetches them)"),
            "")
      << screen();
  EXPECT_NE(line_with("4h").find("never         -"), std::string::npos) << screen();
}

TEST_F(TuiCosts, QuittingWhileIdleDedicatedNodesBillSaysSoFirst) {
  seed();
  open_batch(kWide, "jobs");
  keys("q");
  EXPECT_FALSE(tui_->done());
  EXPECT_NE(line_with("Still billing: contoso: 2 idle dedicated node(s) billing"), "") << screen();
  EXPECT_NE(line_with("3.8650 USD/h (cpu, gpu). Quit anyway?"), "") << screen();
  EXPECT_EQ(tui_->parting_note(),
            "still billing: contoso: 2 idle dedicated node(s) billing 3.8650 USD/h (cpu, gpu)");
  keys("Enter");  // No is the default
  EXPECT_FALSE(tui_->done());
  keys("q y");
  EXPECT_TRUE(tui_->done());
}

// An endpoint that names no region (an emulator's) has no prices, yet its idle dedicated nodes
// still bill: quitting asks first all the same, and says the price is not known.
TEST_F(TuiCosts, QuittingAsksAboutIdleNodesEvenWithoutPrices) {
  ASSERT_TRUE(store().upsert_account({kAccount, AccountKind::Batch, "http://127.0.0.1:9/contoso"}));
  add_pool("cpu", "Standard_D4s_v3", 2, 0);
  add_node("cpu", "c-1", true, NodeState::Idle);
  add_node("cpu", "c-2", true, NodeState::Idle);
  auto c = account_costs(store(), fixture_.ctx().settings, kAccount, kFixtureNow);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->why.empty());
  EXPECT_EQ(c->idle_nodes(), 2);
  open_batch(kWide, "jobs");
  keys("q");
  EXPECT_FALSE(tui_->done());
  EXPECT_NE(line_with("Still billing: contoso: 2 idle dedicated node(s),"), "") << screen();
  EXPECT_NE(line_with("billing at a price not known (cpu). Quit anyway?"), "") << screen();
  keys("y");
  EXPECT_TRUE(tui_->done());
}

}  // namespace
}  // namespace trainyard::tui_costs_test
