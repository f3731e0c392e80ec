// `:grep` patterns and files: plain text ignores ASCII case, /regex/ is as written, and lines
// are matched as the log pane shows them (sanitized), with 0-based line numbers.
#include "log_grep.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace trainyard::log_grep_test {
namespace {

namespace fs = std::filesystem;

TEST(GrepPattern, PlainTextIgnoresAsciiCase) {
  auto p = parse_grep_pattern("Loss");
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->regex);
  EXPECT_TRUE(grep_matches(*p, "epoch 1 loss=0.9"));
  EXPECT_FALSE(grep_matches(*p, "epoch 1 acc=0.9"));
  EXPECT_EQ(grep_match_text(*p, "epoch 1 loss=0.9"), "Loss");
}

TEST(GrepPattern, SlashesMakeARegex) {
  auto p = parse_grep_pattern("/loss=0\\.[0-4]/");
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->regex);
  EXPECT_TRUE(grep_matches(*p, "step 3 loss=0.31"));
  EXPECT_FALSE(grep_matches(*p, "step 1 loss=0.91"));
  EXPECT_EQ(grep_match_text(*p, "step 3 loss=0.31 ok"), "loss=0.3");
}

TEST(GrepPattern, EmptyOrBadPatternsAreUsageErrors) {
  EXPECT_EQ(parse_grep_pattern("").error().kind, ErrorKind::Usage);
  auto bad = parse_grep_pattern("/(unclosed/");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::Usage);
  EXPECT_NE(bad.error().message.find("/(unclosed/"), std::string::npos);
  // One slash is plain text.
  EXPECT_TRUE(grep_matches(*parse_grep_pattern("/"), "a/b"));
}

TEST(GrepFile, FindsLinesAsTheScreenShowsThem) {
  auto dir = fs::temp_directory_path() / ("trainyard-grep-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // Line 2 has a colour code inside the word: on screen it reads `error`, so it matches.
  std::ofstream(dir / "stdout.txt", std::ios::binary)
      << "start\nERROR one\ner\x1b[31mror\x1b[0m two\nfine\nerror three\n";
  auto p = parse_grep_pattern("error");
  auto hits = grep_file((dir / "stdout.txt").string(), *p, 10);
  ASSERT_TRUE(hits) << hits.error().message;
  ASSERT_EQ(hits->size(), 3u);
  EXPECT_EQ((*hits)[0].line, 1u);
  EXPECT_EQ((*hits)[1].line, 2u);
  EXPECT_EQ((*hits)[1].text, "error two");
  EXPECT_EQ((*hits)[2].line, 4u);
  auto capped = grep_file((dir / "stdout.txt").string(), *p, 2);
  EXPECT_EQ(capped->size(), 2u);
  EXPECT_FALSE(grep_file((dir / "missing.txt").string(), *p, 10));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace trainyard::log_grep_test
