#include "themes/theme.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

namespace trainyard {
namespace {

std::filesystem::path files_dir() {
  return std::filesystem::path(TRAINYARD_SOURCE_DIR) / "themes/files";
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(Roles, NamesAndLettersAreUniqueAndRoundTrip) {
  std::set<std::string_view> names;
  std::set<char> letters;
  for (std::size_t i = 0; i < kRoleCount; ++i) {
    auto role = static_cast<Role>(i);
    EXPECT_TRUE(names.insert(role_name(role)).second) << role_name(role);
    EXPECT_TRUE(letters.insert(role_letter(role)).second) << role_name(role);
    EXPECT_EQ(role_from_name(role_name(role)), role);
  }
  EXPECT_FALSE(role_from_name("nope").has_value());
}

TEST(Themes, ShippedFilesLoad) {
  for (const char* name : {"dark", "light", "mono"}) {
    auto theme = load_theme(name, files_dir());
    ASSERT_TRUE(theme.ok()) << theme.error().message;
    EXPECT_EQ(theme->name(), name);
  }
}

TEST(Themes, DefaultDirIsTheSourceFolder) {
  EXPECT_EQ(std::filesystem::canonical(themes_dir()), std::filesystem::canonical(files_dir()));
}

TEST(Themes, DarkFileMatchesCompiledDefault) {
  auto dark = load_theme_file(files_dir() / "dark.json");
  ASSERT_TRUE(dark.ok()) << dark.error().message;
  EXPECT_EQ(*dark, default_theme());
  EXPECT_EQ(read_file(files_dir() / "dark.json"), theme_to_json(default_theme()));
}

TEST(Themes, MonoFileMatchesCompiledMono) {
  auto mono = load_theme_file(files_dir() / "mono.json");
  ASSERT_TRUE(mono.ok()) << mono.error().message;
  EXPECT_EQ(*mono, mono_theme());
  for (std::size_t i = 0; i < kRoleCount; ++i) {
    const Style& s = mono->style(static_cast<Role>(i));
    EXPECT_TRUE(s.fg.is_default() && s.bg.is_default()) << role_name(static_cast<Role>(i));
  }
}

TEST(Themes, JsonRoundTrips) {
  auto light = load_theme("light", files_dir());
  ASSERT_TRUE(light.ok()) << light.error().message;
  auto again = parse_theme(theme_to_json(*light), "light.json");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(*again, *light);
}

TEST(Themes, SelectionIsVisibleInEveryTheme) {
  for (const char* name : {"dark", "light", "mono"}) {
    auto theme = load_theme(name, files_dir());
    ASSERT_TRUE(theme.ok());
    for (auto depth : {ColorDepth::Mono, ColorDepth::Ansi8, ColorDepth::Ansi256}) {
      auto t = downgrade_theme(*theme, depth);
      EXPECT_NE(t.style(Role::RowSelected), t.style(Role::Row)) << name << " " << int(depth);
    }
  }
}

TEST(Themes, OmittedRolesKeepDefaults) {
  auto t = parse_theme(R"({"name": "mine", "roles": {"row": {"fg": "#ff8000", "bold": true}}})",
                       "mine.json");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->name(), "mine");
  EXPECT_EQ(t->style(Role::Row).fg, Color::rgb(255, 128, 0));
  EXPECT_TRUE(t->style(Role::Row).bold);
  EXPECT_EQ(t->style(Role::Header), default_theme().style(Role::Header));
}

TEST(ThemeErrors, SyntaxErrorNamesFileLineAndColumn) {
  auto t = parse_theme("{\n  \"name\": \"x\",\n  \"roles\": {,}\n}\n", "/tmp/broken.json");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().kind, ErrorKind::Parse);
  EXPECT_EQ(t.error().message.rfind("/tmp/broken.json:3:13: ", 0), 0u) << t.error().message;
  EXPECT_EQ(t.error().message.find('\n'), std::string::npos);
}

TEST(ThemeErrors, TruncatedFile) {
  auto t = parse_theme("{\"roles\": {", "cut.json");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message.rfind("cut.json:1:", 0), 0u) << t.error().message;
}

TEST(ThemeErrors, BadColourNamesJsonPath) {
  auto t = parse_theme(R"({"roles": {"row_selected": {"fg": "purplish"}}})", "bad.json");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message.rfind("bad.json: /roles/row_selected/fg: bad colour \"purplish\"", 0),
            0u)
      << t.error().message;
}

TEST(ThemeErrors, UnknownRoleAndKeysAndTypes) {
  auto role = parse_theme(R"({"roles": {"rows": {}}})", "a.json");
  ASSERT_FALSE(role.ok());
  EXPECT_EQ(role.error().message, "a.json: /roles/rows: unknown role");
  auto key = parse_theme(R"({"roles": {"row": {"blink": true}}})", "a.json");
  ASSERT_FALSE(key.ok());
  EXPECT_EQ(key.error().message.rfind("a.json: /roles/row/blink: unknown key", 0), 0u);
  auto flag = parse_theme(R"({"roles": {"row": {"bold": "yes"}}})", "a.json");
  ASSERT_FALSE(flag.ok());
  EXPECT_EQ(flag.error().message, "a.json: /roles/row/bold: expected true or false, got \"yes\"");
  auto index = parse_theme(R"({"roles": {"row": {"bg": 256}}})", "a.json");
  ASSERT_FALSE(index.ok());
  EXPECT_EQ(index.error().message.rfind("a.json: /roles/row/bg: bad colour 256", 0), 0u);
  auto top = parse_theme(R"([1])", "a.json");
  ASSERT_FALSE(top.ok());
  EXPECT_EQ(top.error().message, "a.json: /: expected an object");
}

TEST(ThemeErrors, MissingFile) {
  auto t = load_theme("no-such-theme", files_dir());
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().kind, ErrorKind::Usage) << "an unknown name is the user's mistake";
  EXPECT_NE(t.error().message.find("unknown theme 'no-such-theme'"), std::string::npos);
  auto f = load_theme("/no/such/dir/theme.json", files_dir());
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().kind, ErrorKind::Io);
  EXPECT_NE(f.error().message.find("/no/such/dir/theme.json"), std::string::npos);
}

TEST(ThemeErrors, FileErrorsNameThePath) {
  auto dir = std::filesystem::temp_directory_path() / "trainyard_themes_test";
  std::filesystem::create_directories(dir);
  auto path = dir / "oops.json";
  std::ofstream(path) << "{\n  \"roles\": {\n    \"row\": {\"fg\": 12,}\n  }\n}\n";
  auto t = load_theme(path.string());
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message.rfind(path.string() + ":3:", 0), 0u) << t.error().message;
  std::filesystem::remove_all(dir);
}

TEST(Downgrade, MonoDropsColoursAndReversesBackgrounds) {
  Style s;
  s.fg = Color::indexed(231);
  s.bg = Color::indexed(25);
  s.bold = true;
  Style m = downgrade_style(s, ColorDepth::Mono);
  EXPECT_TRUE(m.fg.is_default());
  EXPECT_TRUE(m.bg.is_default());
  EXPECT_TRUE(m.bold);
  EXPECT_TRUE(m.reverse);
  Style plain;
  plain.fg = Color::indexed(75);
  EXPECT_FALSE(downgrade_style(plain, ColorDepth::Mono).reverse);
}

TEST(Downgrade, TrueColorKeepsEverything) {
  Style s;
  s.fg = Color::rgb(1, 2, 3);
  s.bg = Color::indexed(200);
  EXPECT_EQ(downgrade_style(s, ColorDepth::TrueColor), s);
}

}  // namespace
// An installed binary runs away from its source tree: the shipped names still resolve, to the
// same themes as the files.
TEST(ThemeShipped, NamesResolveWithoutTheThemesDirectory) {
  const std::filesystem::path nowhere = "/no/such/themes/dir";
  for (const char* name : {"dark", "light", "mono"}) {
    auto built_in = load_theme(name, nowhere);
    ASSERT_TRUE(built_in.ok()) << name << ": " << built_in.error().message;
    auto file = load_theme_file(files_dir() / (std::string(name) + ".json"));
    ASSERT_TRUE(file.ok()) << name;
    EXPECT_EQ(*built_in, *file) << name;
  }
  EXPECT_EQ(*load_theme("dark", nowhere), default_theme());
  auto unknown = load_theme("solarized", nowhere);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("dark, light, mono"), std::string::npos)
      << unknown.error().message;
}

}  // namespace trainyard
