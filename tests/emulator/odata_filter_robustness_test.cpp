// The $filter parser on hostile input: random bytes and token soup never crash, and a filter that
// parses evaluates against any values.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "emulator/odata_filter.hpp"

namespace trainyard::emu::odata_filter_robustness_test {
namespace {

// One value of each kind a lookup can give (the time is 2020-01-01T00:00:00Z).
std::vector<FilterValue> sample_values() {
  return {FilterValue{},
          FilterValue{std::string("active")},
          FilterValue{std::string("")},
          FilterValue{int64_t{0}},
          FilterValue{int64_t{-7}},
          FilterValue{true},
          FilterValue{from_micros(1577836800000000)}};
}

void parse_and_run(const std::string& text, ListKind list, std::mt19937& rng) {
  auto f = Filter::parse(text, list);
  if (!f.ok()) {
    EXPECT_FALSE(f.error().message.empty());
    return;
  }
  auto values = sample_values();
  PropertyLookup get = [&](std::string_view) { return values[rng() % values.size()]; };
  (void)f->matches(get);
}

TEST(OdataFilterRobustness, RandomBytesNeverCrash) {
  std::mt19937 rng(12345);
  for (int i = 0; i < 3000; ++i) {
    std::string text(rng() % 64, '\0');
    for (char& c : text) c = static_cast<char>(rng() % 256);
    parse_and_run(text, static_cast<ListKind>(rng() % 10), rng);
  }
}

TEST(OdataFilterRobustness, RandomTokenSoupNeverCrashes) {
  const std::vector<std::string> pieces = {"(",
                                           ")",
                                           ",",
                                           " ",
                                           "and",
                                           "or",
                                           "not",
                                           "eq",
                                           "ne",
                                           "gt",
                                           "ge",
                                           "lt",
                                           "le",
                                           "startswith",
                                           "true",
                                           "false",
                                           "'x'",
                                           "'it''s'",
                                           "''",
                                           "'",
                                           "datetime'2020-01-01T00:00:00Z'",
                                           "'2020-01-01T00:00:00Z'",
                                           "datetime'",
                                           "-",
                                           "-5",
                                           "0",
                                           "99999999999999999999",
                                           "id",
                                           "state",
                                           "name",
                                           "executionInfo/exitCode",
                                           "creationTime",
                                           "enableAutoScale",
                                           "poolId",
                                           "osType",
                                           "startTaskInfo/exitCode",
                                           "/",
                                           "\xff",
                                           "\t"};
  std::mt19937 rng(777);
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    for (int n = static_cast<int>(rng() % 24); n > 0; --n) {
      text += pieces[rng() % pieces.size()];
      if (rng() % 2) text += ' ';
    }
    parse_and_run(text, static_cast<ListKind>(rng() % 10), rng);
  }
}

}  // namespace
}  // namespace trainyard::emu::odata_filter_robustness_test
