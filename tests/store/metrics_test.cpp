// Metric series: streams and attempts apart, the tables' stream, downsampling, output parameters.
#include <cmath>

#include "fixtures.hpp"

namespace trainyard::testing::metrics_test {
namespace {

using StoreMetrics = StoreTest;

MetricPoint point(std::string name, double step, double value, std::string stream = "stdout",
                  int attempt = 0, bool epoch = false) {
  MetricPoint p{std::move(name), step, value, at_seconds(static_cast<int64_t>(step))};
  p.stream = std::move(stream);
  p.attempt = attempt;
  p.epoch = epoch;
  return p;
}

std::vector<double> values_of(const std::vector<MetricPoint>& pts) {
  std::vector<double> out;
  for (const auto& p : pts) out.push_back(p.value);
  return out;
}

TEST_F(StoreMetrics, StreamsAndAttemptsAreSeparateSeries) {
  ASSERT_TRUE(store_
                  ->add_metric_points(
                      "acct", "j", "t",
                      {point("loss", 1, 0.5, "stdout", 0, true), point("loss", 1, 0.9, "stderr"),
                       point("loss", 2, 0.4, "stdout", 0, true), point("loss", 2, 0.8, "stderr"),
                       point("loss", 1, 1.4, "stdout", 1, true)})
                  .ok());
  auto series = store_->metric_series("acct", "j", "t");
  ASSERT_TRUE(series.ok()) << series.error().message;
  ASSERT_EQ(series->size(), 3u);
  EXPECT_EQ((*series)[0].stream, "stdout");
  EXPECT_EQ((*series)[0].attempt, 0);
  EXPECT_EQ((*series)[0].points, 2);
  EXPECT_TRUE((*series)[0].has_epochs);
  EXPECT_EQ((*series)[1].stream, "stderr");
  EXPECT_FALSE((*series)[1].has_epochs);
  EXPECT_EQ((*series)[2].attempt, 1);
  auto out = store_->metric_points("acct", "j", "t", "loss", "stdout");
  EXPECT_EQ(values_of(*out), (std::vector<double>{0.5, 0.4, 1.4}));
  EXPECT_EQ((*out)[2].attempt, 1);
  EXPECT_EQ(values_of(*store_->metric_points("acct", "j", "t", "loss", "stderr")),
            (std::vector<double>{0.9, 0.8}));
  auto tail = store_->metric_tail("acct", "j", "t", "loss", "stdout", 0, 8);
  EXPECT_EQ(values_of(*tail), (std::vector<double>{0.5, 0.4}));
}

TEST_F(StoreMetrics, TheTablesStreamIsTheOneWithEpochsElseStdoutElseStderr) {
  EXPECT_EQ(table_stream({}), "");
  EXPECT_EQ(table_stream({{"loss", "stderr", 0, false, 3}}), "stderr");
  EXPECT_EQ(table_stream({{"loss", "stderr", 0, false, 3}, {"acc", "stdout", 0, false, 1}}),
            "stdout");
  EXPECT_EQ(table_stream({{"loss", "stdout", 0, false, 3}, {"loss", "stderr", 0, true, 1}}),
            "stderr");
  ASSERT_TRUE(store_
                  ->add_metric_points(
                      "acct", "j", "t",
                      {point("loss", 1, 0.9, "stderr"), point("acc", 1, 0.5, "stdout", 0, true),
                       point("loss", 1, 0.4, "stdout", 1, true)})
                  .ok());
  auto tm = store_->table_metrics("acct", "j", "t");
  ASSERT_TRUE(tm.ok()) << tm.error().message;
  EXPECT_EQ(tm->stream, "stdout");
  EXPECT_EQ(tm->attempt, 1);
  EXPECT_EQ(tm->names, (std::vector<std::string>{"acc", "loss"}));
}

TEST_F(StoreMetrics, NanIsKept) {
  ASSERT_TRUE(store_->add_metric_points("acct", "j", "t", {point("loss", 1, NAN)}).ok());
  auto pts = store_->metric_points("acct", "j", "t", "loss");
  ASSERT_EQ(pts->size(), 1u);
  EXPECT_TRUE(std::isnan((*pts)[0].value));
}

// Past the cap, each bucket of points keeps its lowest, highest and last value: 1001 rising
// values in buckets of 7 (ceil(1001 * 6 / 1000)) keep the first and last of each of the 143
// buckets; the bucket of the spike (points 498..504) keeps the spike too.
TEST_F(StoreMetrics, PastTheCapBucketsKeepMinMaxAndLast) {
  store_->set_metric_point_cap(1000);
  std::vector<MetricPoint> pts;
  for (int i = 0; i < 1001; ++i) pts.push_back(point("loss", i + 1, i == 500 ? 1e6 : i));
  ASSERT_TRUE(store_->add_metric_points("acct", "j", "t", pts).ok());
  auto kept = store_->metric_points("acct", "j", "t", "loss");
  ASSERT_TRUE(kept.ok()) << kept.error().message;
  ASSERT_EQ(kept->size(), 287u);
  EXPECT_EQ(kept->front().value, 0);
  EXPECT_EQ(kept->back().value, 1000);
  EXPECT_EQ(kept->back().step, 1001);
  EXPECT_EQ((*kept)[141].value, 496);  // the last of bucket 70 (490..496)
  EXPECT_EQ((*kept)[142].value, 497);  // bucket 71 (497..503): 497, the spike, 503
  EXPECT_EQ((*kept)[143].value, 1e6);
  EXPECT_EQ((*kept)[144].value, 503);
  EXPECT_EQ(store_->metric_series("acct", "j", "t")->front().points, 287);
  // The last value stays the last one printed after more points arrive.
  ASSERT_TRUE(store_->add_metric_points("acct", "j", "t", {point("loss", 1002, -1)}).ok());
  EXPECT_EQ(store_->metric_tail("acct", "j", "t", "loss", "stdout", 0, 1)->back().value, -1);
}

TEST_F(StoreMetrics, OutputParametersByFirstAppearance) {
  ASSERT_TRUE(store_->set_output_parameter("acct", "j", "t", {"lr", "0.01"}).ok());
  ASSERT_TRUE(store_->set_output_parameter("acct", "j", "t", {"batch", "64"}).ok());
  ASSERT_TRUE(store_->set_output_parameter("acct", "j", "t", {"lr", "0.02"}).ok());
  EXPECT_EQ(*store_->output_parameters("acct", "j", "t"),
            (std::vector<NameValue>{{"lr", "0.02"}, {"batch", "64"}}));
  ASSERT_TRUE(store_->remove_output_parameter("acct", "j", "t", "lr").ok());
  EXPECT_EQ(*store_->output_parameters("acct", "j", "t"),
            (std::vector<NameValue>{{"batch", "64"}}));
  ASSERT_TRUE(store_->delete_task("acct", "j", "t").ok());
  EXPECT_TRUE(store_->output_parameters("acct", "j", "t")->empty());
}

TEST_F(StoreMetrics, CurrentAttemptOfLocalAndBatchTasks) {
  LocalRun run;
  run.job = "j";
  run.task = "t";
  run.attempt = 2;
  ASSERT_TRUE(store_->upsert_local_run(run).ok());
  EXPECT_EQ(*store_->current_attempt(kLocalAccount, "j", "t"), 2);
  Task t = full_task("b");
  t.execution_info.retry_count = 1;
  t.execution_info.requeue_count = 2;
  ASSERT_TRUE(store_->upsert_task(t).ok());
  EXPECT_EQ(*store_->current_attempt("acct", "job1", "b"), 3);
  EXPECT_EQ(*store_->current_attempt("acct", "job1", "unknown"), 0);
}

}  // namespace
}  // namespace trainyard::testing::metrics_test
