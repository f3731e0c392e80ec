#include "spec/source_map.hpp"

#include <gtest/gtest.h>

namespace trainyard::spec::source_map_test {
namespace {

TEST(SpecError, OneLineWithFileLineColumnAndField) {
  Error e = spec_error("a.json", {3, 7}, "/tasks/0/id", "expected\na string");
  EXPECT_EQ(e.kind, ErrorKind::Parse);
  EXPECT_EQ(e.message, "a.json:3:7: /tasks/0/id: expected a string");
  EXPECT_EQ(spec_error("a.json", {1, 1}, "", "x").message, "a.json:1:1: /: x");
}

TEST(SpecError, PointerTokensAreEscaped) {
  EXPECT_EQ(pointer_join("/a", "b/c~d"), "/a/b~1c~0d");
  EXPECT_EQ(pointer_join("/a", std::size_t{4}), "/a/4");
  EXPECT_EQ(spec_place("f.json", {2, 3}, "/x"), "f.json:2:3 /x");
}

TEST(SpecError, OffsetsBecomeLinesAndColumns) {
  auto p = pos_at_offset("ab\ncd\nef", 4);
  EXPECT_EQ(p.line, 2);
  EXPECT_EQ(p.col, 2);
}

TEST(SourceMap, IndexesValuesByPointer) {
  const char* text = "{\n  \"a\": [1,\n    {\"b\\/c\": \"x\"}],\n  \"d\": null\n}";
  auto map = index_json("f.json", text);
  ASSERT_TRUE(map.ok()) << map.error().message;
  EXPECT_EQ(map->pos("").line, 1);
  EXPECT_EQ(map->pos("/a").line, 2);
  EXPECT_EQ(map->pos("/a").col, 8);
  EXPECT_EQ(map->pos("/a/1/b~1c").line, 3);
  EXPECT_EQ(map->pos("/a/1/b~1c").col, 14);
  EXPECT_EQ(map->pos("/d").line, 4);
  // A missing field is placed at its nearest ancestor.
  EXPECT_EQ(map->pos("/a/1/missing").col, 5);
  EXPECT_EQ(map->place("/a/0"), "f.json:2:9 /a/0");
}

TEST(SourceMap, DuplicateKeysAreErrors) {
  auto map = index_json("f.json", "{\"a\": 1,\n \"a\": 2}");
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.error().message, "f.json:2:2: /a: duplicate key; each field may appear once");
}

TEST(SourceMap, UnicodeEscapesInKeys) {
  auto map = index_json("f.json", R"({"\u00e9\ud83d\ude00": 1})");
  ASSERT_TRUE(map.ok());
  EXPECT_EQ(map->pos("/\xC3\xA9\xF0\x9F\x98\x80").col, 24);
}

}  // namespace
}  // namespace trainyard::spec::source_map_test
