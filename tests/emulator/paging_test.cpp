// The one rule every emulator list pages by.
#include "paging.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace trainyard::emu::paging_test {
namespace {

using Entries = std::map<std::string, int>;

// Writes the ids of one page of `entries` (those `keep` accepts) after `after`.
PageEnd page_of(
    const Entries& entries, int max_results, const std::string& after, std::string& body,
    bool (*keep)(int) = [](int) { return true; }) {
  ListQuery q;
  q.max_results = max_results;
  q.after = after;
  return fill_map_page(
      body, q, entries, [&](const auto& e) { return keep(e.second); },
      [](const auto& e, std::string& out) { out += e.first; });
}

TEST(Paging, ExactlyMaxResultsLeftIsTheLastPage) {
  std::string body;
  auto page = page_of({{"a", 1}, {"b", 2}, {"c", 3}}, 3, "", body);
  EXPECT_EQ(body, "a,b,c");
  EXPECT_FALSE(page.more);
  EXPECT_EQ(page.last_id, "c");
}

TEST(Paging, OneMoreThanMaxResultsNamesANextPage) {
  std::string body;
  auto page = page_of({{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}}, 3, "", body);
  EXPECT_EQ(body, "a,b,c");
  EXPECT_TRUE(page.more);
  EXPECT_EQ(page.last_id, "c");
  std::string next;
  auto rest = page_of({{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}}, 3, page.last_id, next);
  EXPECT_EQ(next, "d");
  EXPECT_FALSE(rest.more);
}

TEST(Paging, EntriesTheFilterDropsDoNotMakeANextPage) {
  std::string body;
  auto odd = [](int v) { return v % 2 == 1; };
  auto page = page_of({{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}}, 2, "", body, odd);
  EXPECT_EQ(body, "a,c");
  EXPECT_FALSE(page.more);
  std::string first;
  page = page_of({{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}, {"e", 5}}, 2, "", first, odd);
  EXPECT_EQ(first, "a,c");
  EXPECT_TRUE(page.more);
}

TEST(Paging, AnEmptyListAndAResumePointPastTheEnd) {
  std::string body;
  auto page = page_of({}, 3, "", body);
  EXPECT_EQ(body, "");
  EXPECT_FALSE(page.more);
  page = page_of({{"a", 1}}, 3, "z", body);
  EXPECT_EQ(body, "");
  EXPECT_FALSE(page.more);
}

}  // namespace
}  // namespace trainyard::emu::paging_test
