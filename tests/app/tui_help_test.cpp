// The help at 80x24: every binding's description readable (wrapped, never cut), paged with
// Space, and G showing a full last page.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "key_config.hpp"
#include "keymap.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_help_test {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;

using TuiHelp = TuiScreen;

std::set<std::string> words_of(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.insert(w);
  return out;
}

TEST_F(TuiHelp, EveryDescriptionIsReadableAt80x24) {
  open(kNormal, "jobs");
  keys("?");
  std::string seen = screen();
  for (int i = 0; i < 60; ++i) {
    keys("Space");
    seen += screen();
  }
  const auto on_screen = words_of(seen);
  for (const auto& b : default_bindings())
    for (const auto& w : words_of(b.description))
      EXPECT_TRUE(on_screen.count(w)) << "'" << w << "' of '" << b.description << "'";
}

TEST_F(TuiHelp, BottomShowsAFullLastPage) {
  open(kNormal, "jobs");
  keys("? G");
  std::istringstream in(screen());
  std::vector<std::string> rows;
  for (std::string line; std::getline(in, line);) rows.push_back(line);
  // The help box's inside: between its top border and its bottom border, less a margin row each.
  size_t top = 0, bottom = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].find("Help") != std::string::npos && !top) top = i;
    if (top && i > top && rows[i].find("└") != std::string::npos &&
        rows[i].find("┘") != std::string::npos) {
      bottom = i;
      break;
    }
  }
  ASSERT_GT(bottom, top + 3) << screen();
  auto has_text = [&](size_t row) {
    return rows[row].find_first_not_of(" \u2502") != std::string::npos;
  };
  // The box is full: its first line and its last line both hold help (before, G scrolled until
  // only the last line was left at the top).
  EXPECT_TRUE(has_text(top + 2)) << screen();
  EXPECT_TRUE(has_text(bottom - 2)) << screen();
}

}  // namespace
}  // namespace trainyard::tui_help_test
