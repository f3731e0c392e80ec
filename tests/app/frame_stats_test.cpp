// The TUI's frame statistics (TRAINYARD_FRAME_STATS, read by bench/fault_soak.py).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "frame_stats.hpp"

namespace trainyard::frame_stats_test {
namespace {

using std::chrono::milliseconds;

TEST(FrameStats, MaxAndPercentilesOfTheFrames) {
  FrameStats s;
  EXPECT_EQ(s.to_json(), R"({"frames": 0, "max_ms": 0.00, "p50_ms": 0.00, "p99_ms": 0.00})");
  for (int i = 1; i <= 100; ++i) s.add(milliseconds(i));
  EXPECT_EQ(s.to_json(), R"({"frames": 100, "max_ms": 100.00, "p50_ms": 50.00, "p99_ms": 99.00})");
}

TEST(FrameStats, WrittenOnlyWhenAsked) {
  std::string path = testing::TempDir() + "frame-stats.json";
  std::remove(path.c_str());
  FrameStats s;
  s.add(milliseconds(3));
  unsetenv("TRAINYARD_FRAME_STATS");
  s.write_if_asked();
  EXPECT_FALSE(std::ifstream(path).good());
  setenv("TRAINYARD_FRAME_STATS", path.c_str(), 1);
  s.write_if_asked();
  unsetenv("TRAINYARD_FRAME_STATS");
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  EXPECT_EQ(text.str(), s.to_json() + "\n");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace trainyard::frame_stats_test
