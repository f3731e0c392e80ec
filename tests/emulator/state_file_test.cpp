// `--state`'s files: the snapshot reader's field checks, and the writer the snapshot and the
// journal share.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "durable_file.hpp"
#include "state_fields.hpp"

namespace trainyard::emu::state_file_test {
namespace {

std::string failure_of(const nlohmann::json& doc, const std::function<void(const Fields&)>& read) {
  try {
    read(Fields(doc, "pools[2]"));
  } catch (const StateFieldError& e) {
    return e.what();
  }
  return "";
}

TEST(StateFields, WholeNumbersOnlyAndInRange) {
  const auto doc = nlohmann::json::parse(
      R"({"a": 1.5, "b": 1e30, "c": -1, "d": 4294967296, "e": "7", "f": 7, "g": -9223372036854775808})");
  auto as_int = [](const char* key) { return [key](const Fields& f) { f.whole<int>(key); }; };
  EXPECT_EQ(failure_of(doc, as_int("a")),
            "pools[2].a: 1.5 is not a whole number from -2147483648 to 2147483647");
  EXPECT_EQ(failure_of(doc, as_int("b")),
            "pools[2].b: 1e+30 is not a whole number from -2147483648 to 2147483647");
  EXPECT_EQ(failure_of(doc, as_int("d")),
            "pools[2].d: 4294967296 is not a whole number from -2147483648 to 2147483647");
  EXPECT_EQ(failure_of(doc, as_int("e")),
            "pools[2].e: \"7\" is not a whole number from -2147483648 to 2147483647");
  EXPECT_EQ(failure_of(doc, [](const Fields& f) { f.whole<uint64_t>("c"); }),
            "pools[2].c: -1 is not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(failure_of(doc, as_int("missing")), "pools[2].missing: missing");
  EXPECT_EQ(Fields(doc, "").whole<int>("f"), 7);
  EXPECT_EQ(Fields(doc, "").whole<int>("c"), -1);
  EXPECT_EQ(Fields(doc, "").whole<int64_t>("g"), INT64_MIN);
  EXPECT_EQ(Fields(doc, "").whole<int64_t>("d"), 4294967296);
}

TEST(StateFields, StatesAndTypesNameThePlace) {
  const auto doc =
      nlohmann::json::parse(R"({"state": 4, "name": 3, "list": [{"x": 1}, {"x": 0.5}]})");
  enum class Three : uint8_t { A, B, C };
  EXPECT_EQ(failure_of(doc, [](const Fields& f) { f.choice("state", Three::C); }),
            "pools[2].state: 4 is not a state from 0 to 2");
  EXPECT_EQ(failure_of(doc, [](const Fields& f) { f.get<std::string>("name"); })
                .rfind("pools[2].name: ", 0),
            0u);
  EXPECT_EQ(
      failure_of(
          doc, [](const Fields& f) { f.each("list", [](const Fields& i) { i.whole<int>("x"); }); }),
      "pools[2].list[1].x: 0.5 is not a whole number from -2147483648 to 2147483647");
}

TEST(ReplaceFile, OwnerOnlyEvenOverAStaleWorldReadableTemporary) {
  std::string dir = (std::filesystem::temp_directory_path() / "trainyard-replace-XXXXXX").string();
  ASSERT_TRUE(::mkdtemp(dir.data()));
  const std::string path = dir + "/state.json";
  { std::ofstream(path + ".tmp") << "stale"; }
  ASSERT_EQ(::chmod((path + ".tmp").c_str(), 0644), 0);
  const int fd = replace_file(path, "{\"a\":1}");
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(write_all(fd, "\n"));  // open for appending
  ::close(fd);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  EXPECT_EQ(text.str(), "{\"a\":1}\n");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  EXPECT_EQ(replace_file(dir + "/missing/state.json", "x"), -1);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace trainyard::emu::state_file_test
