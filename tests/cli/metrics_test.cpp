// `trainyard metrics`: the series of a real local run, as JSON and CSV.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace trainyard::clitest::metrics_test {
namespace {

using nlohmann::json;

// name/stream/attempt -> points as (step, value).
using Curves = std::map<std::string, std::vector<std::pair<double, double>>>;

Curves curves_of(const json& doc) {
  Curves out;
  for (const auto& s : doc["series"]) {
    auto key = s["name"].get<std::string>() + "/" + s["stream"].get<std::string>() + "/" +
               std::to_string(s["attempt"].get<int>());
    for (const auto& p : s["points"])
      out[key].emplace_back(p["step"].get<double>(), p["value"].get<double>());
  }
  return out;
}

// Keras-style epoch lines on stdout, tqdm on stderr, and a learning rate printed once first.
TEST_F(Cli, MetricsKeepsStreamsApartAsJsonAndCsv) {
  const std::string script =
      "echo 'lr=0.01'; echo 'Epoch 1/2'; echo '4/4 - loss: 0.5'; echo 'Epoch 2/2'; "
      "echo '4/4 - loss: 0.25'; printf ' 50%%|#  | 1/2 [loss=0.9]\\r100%%|## | 2/2 [loss=0.8]\\n' "
      ">&2";
  auto ref = submit({"--id", "keras"}, {"sh", "-c", script});
  ASSERT_EQ(ty({"wait", ref}).code, 0);
  auto r = ty({"metrics", ref, "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto doc = json::parse(r.out);
  EXPECT_EQ(doc.value("tableStream", ""), "stdout");
  EXPECT_EQ(curves_of(doc), (Curves{{"loss/stdout/0", {{1, 0.5}, {2, 0.25}}},
                                    {"loss/stderr/0", {{1, 0.9}, {2, 0.8}}}}));
  ASSERT_EQ(doc["parameters"].size(), 1u);
  EXPECT_EQ(doc["parameters"][0].value("name", ""), "lr");
  EXPECT_EQ(doc["parameters"][0].value("value", ""), "0.01");

  auto csv = ty({"metrics", ref, "--csv"});
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_EQ(csv.out,
            "name,stream,attempt,step,value\n"
            "loss,stdout,0,1,0.5\nloss,stdout,0,2,0.25\n"
            "loss,stderr,0,1,0.9\nloss,stderr,0,2,0.8\n");
}

// A retry is a new attempt: its points start over in a series of their own.
TEST_F(Cli, MetricsKeepsAttemptsApart) {
  const std::string script =
      "if [ \"$AZ_BATCH_TASK_RETRY_COUNT\" = 0 ]; then echo 'step=1 loss=1.5'; "
      "echo 'step=2 loss=0.0006'; exit 3; fi; echo 'step=1 loss=1.47'; echo 'step=2 loss=1.2'";
  auto ref = submit({"--id", "preempted", "--retries", "1"}, {"sh", "-c", script});
  ASSERT_EQ(ty({"wait", ref}).code, 0);
  auto r = ty({"metrics", ref, "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(curves_of(json::parse(r.out)), (Curves{{"loss/stdout/0", {{1, 1.5}, {2, 0.0006}}},
                                                   {"loss/stdout/1", {{1, 1.47}, {2, 1.2}}}}));
}

// Counts its runs in a file of its working directory; run n prints loss n.5 then n.25 and fails
// until its third run.
const std::string kCountingLoss =
    "n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; "
    "echo \"step=1 loss=$n.5\"; echo \"step=2 loss=$n.25\"; [ $n -ge 3 ] || exit 3";

// Reactivating a failed run starts its next attempt: run 1 (attempt 0) printed 1.5, 1.25 and
// failed; run 2 (attempt 1) printed 2.5, 2.25.
TEST_F(Cli, MetricsOfAReactivatedRunAreItsNextAttempt) {
  fs::create_directories(root() + "/wd");
  auto ref = submit({"--id", "again", "--workdir", root() + "/wd"}, {"sh", "-c", kCountingLoss});
  ASSERT_EQ(ty({"wait", ref}).code, 3);
  ASSERT_EQ(ty({"task", "reactivate", ref}).code, 0);
  ASSERT_EQ(ty({"wait", ref}).code, 3);
  auto r = ty({"metrics", ref, "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(curves_of(json::parse(r.out)), (Curves{{"loss/stdout/0", {{1, 1.5}, {2, 1.25}}},
                                                   {"loss/stdout/1", {{1, 2.5}, {2, 2.25}}}}));
}

// An automatic retry and then a reactivation each start exactly one attempt, and the kept logs
// are named by the same numbers as the metrics: runs 1 and 2 (attempts 0 and 1) fail, --retries 1
// gives up, the reactivated run 3 (attempt 2) succeeds.
TEST_F(Cli, RetriesAndReactivationsEachStartOneAttempt) {
  fs::create_directories(root() + "/wd");
  auto ref = submit({"--id", "twice", "--retries", "1", "--workdir", root() + "/wd"},
                    {"sh", "-c", kCountingLoss});
  ASSERT_EQ(ty({"wait", ref}).code, 3);
  auto r = ty({"task", "reactivate", ref});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("attempt 2"), std::string::npos) << r.out;
  ASSERT_EQ(ty({"wait", ref}).code, 0);
  auto m = ty({"metrics", ref, "--json"});
  ASSERT_EQ(m.code, 0) << m.err;
  EXPECT_EQ(curves_of(json::parse(m.out)), (Curves{{"loss/stdout/0", {{1, 1.5}, {2, 1.25}}},
                                                   {"loss/stdout/1", {{1, 2.5}, {2, 2.25}}},
                                                   {"loss/stdout/2", {{1, 3.5}, {2, 3.25}}}}));
  const auto dir = data() + "/runs/default/twice/";
  EXPECT_EQ(read_file(dir + "stdout.attempt-0.txt"), "step=1 loss=1.5\nstep=2 loss=1.25\n");
  EXPECT_EQ(read_file(dir + "stdout.attempt-1.txt"), "step=1 loss=2.5\nstep=2 loss=2.25\n");
  EXPECT_FALSE(fs::exists(dir + "stdout.attempt-2.txt"));
  EXPECT_EQ(ty({"logs", ref}).out, "step=1 loss=3.5\nstep=2 loss=3.25\n");
}

// A run that prints fast and exits: every line is read, the last value is the last line's.
TEST_F(Cli, MetricsOfAFastRunAreComplete) {
  const std::string script =
      "awk 'BEGIN { for (i = 1; i <= 200000; i++) "
      "printf \"loss=%d | a line of a run that prints quickly and a lot\\n\", i }'";
  auto ref = submit({"--id", "fast"}, {"sh", "-c", script});
  ASSERT_EQ(ty({"wait", ref}, 240s).code, 0);
  auto r = ty({"metrics", ref, "--csv"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto rows = lines_of(r.out);
  ASSERT_EQ(rows.size(), 200001u);
  EXPECT_EQ(rows[1], "loss,stdout,0,1,1");
  EXPECT_EQ(rows.back(), "loss,stdout,0,200000,200000");
}

// loss 1, nan, 0.5, nan: MIN 0.5 and MAX 1 are of the numbers; the two NaNs are counted apart.
TEST_F(Cli, MetricsTableSkipsNanInMinAndMaxAndCountsIt) {
  auto ref = submit({"--id", "diverged"},
                    {"sh", "-c",
                     "echo 'step=1 loss=1'; echo 'step=2 loss=nan'; echo 'step=3 loss=0.5'; "
                     "echo 'step=4 loss=nan'"});
  ASSERT_EQ(ty({"wait", ref}).code, 0);
  auto r = ty({"metrics", ref});
  ASSERT_EQ(r.code, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_GE(lines.size(), 2u) << r.out;
  EXPECT_TRUE(std::regex_search(
      lines[0], std::regex("^NAME +STREAM +ATTEMPT +POINTS +FIRST +LAST +MIN +MAX +NAN$")))
      << lines[0];
  EXPECT_TRUE(std::regex_search(lines[1], std::regex("^loss +stdout\\* +0 +4 +1 +nan +0.5 +1 +2$")))
      << lines[1];
}

TEST_F(Cli, MetricsOfAnUnknownTaskIsAnError) {
  auto r = ty({"metrics", "nojob/notask"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("nojob/notask"), std::string::npos) << r.err;
  EXPECT_EQ(ty({"metrics", "a/b", "--json", "--csv"}).code, 2);
}

}  // namespace
}  // namespace trainyard::clitest::metrics_test
