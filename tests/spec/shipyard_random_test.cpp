// Shipyard `random` task factories end to end: the generated commands must be the text Shipyard
// produced, i.e. `command.format(rfunc())` after `random.seed(seed)` in the Python here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shipyard_python.hpp"
#include "spec/shipyard.hpp"

namespace trainyard::spec::shipyard_random_test {
namespace {

using testing::have_python;
using testing::lines_of;
using testing::run_python;

// A YAML factory body and the Python call Shipyard made for it.
struct Dist {
  std::string yaml;
  std::string python;
};

const std::vector<Dist>& dists() {
  static const std::vector<Dist> all{
      {"integer: {start: 0, stop: 100, step: 7}", "random.randrange(0, 100, 7)"},
      {"distribution: {uniform: {a: 1e-5, b: 0.1}}", "random.uniform(1e-5, 0.1)"},
      {"distribution: {triangular: {low: 0, high: 1}}", "random.triangular(0, 1, None)"},
      {"distribution: {triangular: {low: 0.5, high: 4, mode: 1}}", "random.triangular(0.5, 4, 1)"},
      {"distribution: {beta: {alpha: 0.3, beta: 2}}", "random.betavariate(0.3, 2)"},
      {"distribution: {exponential: {lambda: 3}}", "random.expovariate(3)"},
      {"distribution: {gamma: {alpha: 2.5, beta: 1e3}}", "random.gammavariate(2.5, 1e3)"},
      {"distribution: {gamma: {alpha: 0.2, beta: 1}}", "random.gammavariate(0.2, 1)"},
      {"distribution: {gauss: {mu: 0, sigma: 1e-8}}", "random.gauss(0, 1e-8)"},
      {"distribution: {lognormal: {mu: -7, sigma: 3}}", "random.lognormvariate(-7, 3)"},
      {"distribution: {pareto: {alpha: 0.7}}", "random.paretovariate(0.7)"},
      {"distribution: {weibull: {alpha: 2, beta: 0.3}}", "random.weibullvariate(2, 0.3)"},
  };
  return all;
}

constexpr int kGenerate = 12;
const std::vector<int> kSeeds{0, 1, 7, 42, 1234, 99999, 2147483647};
const std::string kCommand = "train --lr {0} --again={0!s} --w {0:>12}";

std::string yaml_for(const Dist& d) {
  std::string y = "job_specifications:\n- id: r\n  tasks:\n";
  for (int seed : kSeeds) {
    y += "  - command: '" + kCommand + "'\n    task_factory:\n      random:\n";
    y += "        seed: " + std::to_string(seed) +
         "\n        generate: " + std::to_string(kGenerate) + "\n        " + d.yaml + "\n";
  }
  // No seed: Shipyard's module-global generator continues from the previous factory.
  y += "  - command: '" + kCommand + "'\n    task_factory:\n      random:\n        generate: 5\n";
  return y + "        " + d.yaml + "\n";
}

std::string python_for(const Dist& d) {
  std::string py = "import random\nf = lambda: " + d.python + "\nc = '" + kCommand + "'\n";
  py += "for s in [";
  for (int seed : kSeeds) py += std::to_string(seed) + ",";
  py += "]:\n  random.seed(s)\n  for _ in range(" + std::to_string(kGenerate) +
        "): print(c.format(f()))\n";
  return py + "for _ in range(5): print(c.format(f()))\n";
}

TEST(ShipyardRandomTest, CommandsMatchShipyardForEveryDistribution) {
  if (!have_python()) GTEST_SKIP() << "/usr/bin/python3 absent";
  std::size_t matched = 0;
  for (const Dist& d : dists()) {
    auto jobs = parse_shipyard_jobs(yaml_for(d), "jobs.yaml", {});
    ASSERT_TRUE(jobs.ok()) << jobs.error().message;
    auto expected = run_python(python_for(d));
    ASSERT_TRUE(expected.has_value()) << d.python;
    const auto want = lines_of(*expected);
    const auto& tasks = jobs->at(0).tasks;
    ASSERT_EQ(tasks.size(), want.size()) << d.python;
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(tasks[i].commandLine, want[i]) << d.python << " task " << i;
      matched += tasks[i].commandLine == want[i] ? 1 : 0;
    }
  }
  std::printf("[ matched  ] %zu commands, %zu factories x %zu seeds\n", matched, dists().size(),
              kSeeds.size());
}

TEST(ShipyardRandomTest, ParametersRecordTheValueText) {
  auto jobs = parse_shipyard_jobs(
      "job_specifications:\n- id: r\n  tasks:\n  - command: run {}\n    task_factory:\n"
      "      random:\n        seed: 0\n        generate: 1\n"
      "        distribution: {uniform: {a: 0, b: 1}}\n",
      "jobs.yaml", {});
  ASSERT_TRUE(jobs.ok()) << jobs.error().message;
  const auto& t = jobs->at(0).tasks.at(0);
  EXPECT_EQ(t.commandLine, "run 0.8444218515250481");
  ASSERT_EQ(t.parameters.size(), 1u);
  EXPECT_EQ(t.parameters[0].second, "0.8444218515250481");
}

}  // namespace
}  // namespace trainyard::spec::shipyard_random_test
