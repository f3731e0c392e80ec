// The sweep view ranks runs as `trainyard sweep` and `rm --keep-best` do (ranks_before): the
// seeded lr-grid's g3 failed (exit 1), so it is never best and ranks after every run that
// succeeded. Values by hand from tui_fixture.cpp's curves, loss = e^(-decay·i) + floor over the
// points i = 0..n-1 (g2's last point 0.12 higher):
//   g0 final e^(-0.55)+0.60 = 1.177 (its best too); g1 final e^(-2.75)+0.20 = 0.2639 (best too);
//   g2 final e^(-1.65)+0.15+0.12 = 0.4621, best e^(-1.5)+0.15 = 0.3731;
//   g3 final e^(-1.6)+0.90 = 1.102, its greatest value e^0+0.90 = 1.9.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "tui_screen.hpp"

namespace trainyard::apptest::tui_sweep_ranking_test {
namespace {

class SweepRanking : public TuiScreen {
 protected:
  // The runs of the table, top to bottom.
  std::vector<std::string> rows() {
    std::string s = screen();
    auto table = s.find(" ID");
    std::vector<std::pair<size_t, std::string>> at;
    for (const char* id : {"g0", "g1", "g2", "g3"}) {
      auto p = s.find(std::string(" ") + id + " ", table);
      if (p != std::string::npos) at.emplace_back(p, id);
    }
    std::sort(at.begin(), at.end());
    std::vector<std::string> out;
    for (auto& [p, id] : at) out.push_back(id);
    return out;
  }
};

TEST_F(SweepRanking, ARunThatFailedRanksLastAndIsNeverBest) {
  open({80, 24}, "tasks", "lr-grid");
  keys("w");
  EXPECT_NE(line_with("best by ").find("best by final loss ↓ min · g1 0.2639"), std::string::npos)
      << screen();
  EXPECT_EQ(rows(), (std::vector<std::string>{"g1", "g2", "g0", "g3"})) << screen();
  auto g3 = line_with(" g3 ");
  EXPECT_TRUE(std::regex_search(g3, std::regex(" g3 +failed +1 "))) << g3;
  auto g1 = line_with("★ g1");
  EXPECT_TRUE(std::regex_search(g1, std::regex("★ g1 +completed +0 "))) << g1;
}

TEST_F(SweepRanking, BRanksByEachRunsBestValue) {
  open({80, 24}, "tasks", "lr-grid");
  keys("w b");
  EXPECT_NE(line_with("best by ").find("best by best loss ↓ min · g1 0.2639"), std::string::npos)
      << screen();
  EXPECT_EQ(rows(), (std::vector<std::string>{"g1", "g2", "g0", "g3"})) << screen();
  keys("b");
  EXPECT_NE(line_with("best by ").find("best by final loss"), std::string::npos) << screen();
}

// Greatest is best: g3 printed the greatest loss (1.9) but failed; g0 ends greatest (1.177).
TEST_F(SweepRanking, FlippedDirectionStillPassesOverTheFailedRun) {
  open({80, 24}, "tasks", "lr-grid");
  keys("w M");
  EXPECT_NE(line_with("best by ").find("best by final loss ↑ max · g0 1.177"), std::string::npos)
      << screen();
  EXPECT_EQ(rows(), (std::vector<std::string>{"g0", "g2", "g1", "g3"})) << screen();
}

}  // namespace
}  // namespace trainyard::apptest::tui_sweep_ranking_test
