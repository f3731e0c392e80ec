// The runs the Compare pane shows, read from a store seeded by hand: parameters under the union
// of names, final = the last point, best = the least (loss) or greatest (acc) value.
#include "compare_runs.hpp"

#include <gtest/gtest.h>

namespace trainyard::compare_runs_test {
namespace {

class CompareRuns : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = Store::open(":memory:");
    ASSERT_TRUE(opened) << opened.error().message;
    store_ = std::move(opened.value());
    ASSERT_TRUE(store_->upsert_account({"emu", AccountKind::Emulator, "http://127.0.0.1:1"}));
    add_run(kLocalAccount, "jobA", "a1", {{"lr", "0.1"}}, {0.9, 0.5, 0.7}, {0.2, 0.6, 0.5});
    add_run(kLocalAccount, "jobB", "b1", {{"batch", "64"}}, {0.8, 0.6, 0.4, 0.45}, {});
    add_run("emu", "jobA", "a1", {{"lr", "0.01"}}, {1.0, 0.3}, {0.1, 0.7});
  }

  void add_run(const std::string& account, const std::string& job, const std::string& id,
               const std::vector<NameValue>& params, const std::vector<double>& loss,
               const std::vector<double>& acc) {
    Job j;
    j.account = account;
    j.id = job;
    ASSERT_TRUE(store_->upsert_job(j));
    Task t;
    t.account = account;
    t.job_id = job;
    t.id = id;
    t.state = TaskState::Completed;
    ASSERT_TRUE(store_->upsert_task(t));
    ASSERT_TRUE(store_->set_task_parameters(account, job, id, params));
    std::vector<MetricPoint> pts;
    for (size_t i = 0; i < loss.size(); ++i) pts.push_back({"loss", double(i), loss[i], {}});
    for (size_t i = 0; i < acc.size(); ++i) pts.push_back({"acc", double(i), acc[i], {}});
    ASSERT_TRUE(store_->add_metric_points(account, job, id, pts));
  }

  std::unique_ptr<Store> store_;
  Settings settings_;
};

const RunRef kA{kLocalAccount, "jobA", "a1"};
const RunRef kB{kLocalAccount, "jobB", "b1"};
const RunRef kEmu{"emu", "jobA", "a1"};
const RunRef kGone{kLocalAccount, "jobA", "gone"};

TEST_F(CompareRuns, FinalIsTheLastPointAndBestTheLeastLoss) {
  CompareSet set{{kA, kB, kEmu}, std::nullopt};
  auto t = read_compare_table(*store_, settings_, set);
  EXPECT_EQ(t.metric.name, "loss");
  EXPECT_TRUE(t.metric.lower_is_better);
  ASSERT_EQ(t.rows.size(), 3u);
  ASSERT_TRUE(t.rows[0].run && t.rows[1].run && t.rows[2].run);
  EXPECT_DOUBLE_EQ(*t.rows[0].run->final_value, 0.7);
  EXPECT_DOUBLE_EQ(*t.rows[0].run->best_value, 0.5);
  EXPECT_DOUBLE_EQ(*t.rows[1].run->final_value, 0.45);
  EXPECT_DOUBLE_EQ(*t.rows[1].run->best_value, 0.4);
  EXPECT_DOUBLE_EQ(*t.rows[2].run->final_value, 0.3);
  EXPECT_DOUBLE_EQ(*t.rows[2].run->best_value, 0.3);
  EXPECT_EQ(t.rows[1].curve, (std::vector<double>{0.8, 0.6, 0.4, 0.45}));
  EXPECT_EQ(t.rows[2].ref.account, "emu");  // same job and task ids, another account
}

TEST_F(CompareRuns, ParametersLineUpUnderTheUnionOfNames) {
  CompareSet set{{kA, kB, kEmu}, std::nullopt};
  auto t = read_compare_table(*store_, settings_, set);
  EXPECT_EQ(t.param_names, (std::vector<std::string>{"lr", "batch"}));
  EXPECT_EQ(t.rows[0].run->params, (std::vector<std::string>{"0.1", ""}));
  EXPECT_EQ(t.rows[1].run->params, (std::vector<std::string>{"", "64"}));
  EXPECT_EQ(t.rows[2].run->params, (std::vector<std::string>{"0.01", ""}));
}

TEST_F(CompareRuns, AMetricWhereHigherIsBetterTakesTheGreatestAsBest) {
  CompareSet set{{kA, kEmu}, SweepMetric{"acc", false}};
  auto t = read_compare_table(*store_, settings_, set);
  EXPECT_DOUBLE_EQ(*t.rows[0].run->best_value, 0.6);
  EXPECT_DOUBLE_EQ(*t.rows[0].run->final_value, 0.5);
  EXPECT_DOUBLE_EQ(*t.rows[1].run->best_value, 0.7);
  EXPECT_DOUBLE_EQ(*t.rows[1].run->final_value, 0.7);
}

TEST_F(CompareRuns, ARunNoLongerStoredStaysAsAMissingRow) {
  CompareSet set{{kGone, kA}, std::nullopt};
  auto t = read_compare_table(*store_, settings_, set);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_FALSE(t.rows[0].run);
  EXPECT_DOUBLE_EQ(*t.rows[1].run->best_value, 0.5);
}

TEST_F(CompareRuns, MetricsCycleInOrderOfFirstAppearanceWithTheirDirection) {
  CompareSet set{{kA, kB}, std::nullopt};
  auto t = read_compare_table(*store_, settings_, set);
  EXPECT_EQ(t.metric_names, (std::vector<std::string>{"loss", "acc"}));
  auto next = next_compare_metric(t.metric_names, "loss");
  EXPECT_EQ(next.name, "acc");
  EXPECT_FALSE(next.lower_is_better);
  EXPECT_EQ(next_compare_metric(t.metric_names, "acc").name, "loss");
}

TEST(CompareSetTest, ToggleAddsThenRemoves) {
  CompareSet set;
  EXPECT_TRUE(toggle_compare(set, kA));
  EXPECT_TRUE(toggle_compare(set, kEmu));
  EXPECT_FALSE(toggle_compare(set, kA));
  ASSERT_EQ(set.runs.size(), 1u);
  EXPECT_EQ(set.runs[0], kEmu);
}

TEST(CompareSetTest, LabelsAreAsShortAsTellsTheRunsApart) {
  EXPECT_EQ(compare_label({kA, kGone}, kA), "a1");
  EXPECT_EQ(compare_label({kA, kB}, kA), "jobA/a1");
  EXPECT_EQ(compare_label({kA, kEmu}, kEmu), "emu/jobA/a1");
}

}  // namespace
}  // namespace trainyard::compare_runs_test
