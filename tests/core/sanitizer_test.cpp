#include "core/sanitizer.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace trainyard::sanitizer_test {
namespace {

std::vector<std::string> texts(std::string_view input, SanitizerOptions options = {}) {
  std::vector<std::string> out;
  for (const auto& line : sanitize_lines(input, options)) out.push_back(line.text);
  return out;
}

std::string one(std::string_view input) {
  auto lines = sanitize_lines(input);
  EXPECT_EQ(lines.size(), 1u) << input;
  return lines.empty() ? std::string() : lines[0].text;
}

// No byte that a terminal would act on: C0, DEL, C1 (raw or encoded), ESC.
bool inert(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x20 || b == 0x7F) return false;
    if (b == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0) return false;
  }
  return true;
}

TEST(Sanitizer, PlainLines) {
  EXPECT_EQ(texts("a\nb\n"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(texts("a\n\nb"), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(texts("héllo 世界\n"), (std::vector<std::string>{"héllo 世界"}));
}

TEST(Sanitizer, CarriageReturnOverwritesLikeATerminal) {
  EXPECT_EQ(one("10%\r20%\r100%\n"), "100%");
  EXPECT_EQ(one("abcdef\rXY\n"), "XYcdef");
  EXPECT_EQ(texts("line\r\nnext\r\n"), (std::vector<std::string>{"line", "next"}));
  EXPECT_EQ(one("abc\b\bX\n"), "aXc");
  EXPECT_EQ(one("\b\bab\n"), "ab");
  EXPECT_EQ(one("long progress\r\x1b[Kdone\n"), "done");
}

TEST(Sanitizer, TqdmAndKerasProgressBarsShowLastState) {
  std::string tqdm;
  for (int i = 0; i <= 100; i += 10)
    tqdm += "\r" + std::to_string(i) + "%|####| " + std::to_string(i) + "/100";
  EXPECT_EQ(one(tqdm + "\n"), "100%|####| 100/100");
  std::string keras =
      " 1/10 [>....] - ETA: 3s - loss: 0.9\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08"
      "\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08"
      "\x08\x08\x08"
      "10/10 [=====] - 1s 2ms/step - loss: 0.2\n";
  EXPECT_EQ(one(keras), "10/10 [=====] - 1s 2ms/step - loss: 0.2");
}

TEST(Sanitizer, TabsExpandToEightColumns) {
  EXPECT_EQ(one("a\tb\n"), "a       b");
  EXPECT_EQ(one("12345678\tb\n"), "12345678        b");
  EXPECT_EQ(one("abcdefghij\r\tX\n"), "abcdefghXj");
}

// Found by fuzz_sanitizer: a tab whose stop lies past the length cap padded forever (each pad
// split the line and restarted at column 0), so one log line could hang the viewer.
TEST(Sanitizer, TabPastTheLengthCapEndsTheLine) {
  SanitizerOptions options;
  options.max_line_chars = 10;
  auto lines = texts("xxxxxxxxx\tyy\n", options);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "xxxxxxxxx \u2026");  // split at the cap, marked as continued
  EXPECT_EQ(lines[1], " yy");               // the tab's last pad opened the continuation
  auto many = texts(std::string(200, '\t') + "end\n", options);
  EXPECT_LE(many.size(), 200u);
  EXPECT_EQ(many.back(), " end");
}

TEST(Sanitizer, HostileOscSequences) {
  EXPECT_EQ(one("a\x1b]0;pwned title\x07"
                "b\n"),
            "a^[]0;pwned titleb");
  EXPECT_EQ(one("\x1b]2;t\x1b\\x\n"), "^[]2;tx");
  EXPECT_EQ(one("\x1b]52;c;ZWNobyBoaQ==\x07\n"), "^[]52;c;ZWNobyBoaQ==");
  EXPECT_EQ(one("\x1b]8;;http://evil/\x1b\\click\x1b]8;;\x1b\\\n"),
            "^[]8;;http://evil/click^[]8;;");
  EXPECT_EQ(one("\x1b]0;t\xc2\x9cz\n"), "^[]0;t.z");          // 8-bit ST encoded as U+009C
  EXPECT_EQ(one("\x1b]0;t\x9cz\n"), "^[]0;tz");               // raw 8-bit ST
  EXPECT_EQ(one("\x1b]0;\xe2\x9c\x9c\x07z\n"), "^[]0;...z");  // 0x9C inside a UTF-8 char is not ST
}

TEST(Sanitizer, UnterminatedStringEndsAtNewlineOrCap) {
  EXPECT_EQ(texts("\x1b]0;never ends\nnext line\n"),
            (std::vector<std::string>{"^[]0;never ends", "next line"}));
  SanitizerOptions options;
  options.max_string_bytes = 40;
  auto lines = texts("\x1bP" + std::string(100, 'q') + "\n", options);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "^[P" + std::string(32, 'q') + "\u2026" + std::string(60, 'q'));
}

TEST(Sanitizer, CursorMovementAndClearsAreShownInert) {
  EXPECT_EQ(one("\x1b[2J\x1b[3J\x1b[1;1Hfake\n"), "^[[2J^[[3J^[[1;1Hfake");
  EXPECT_EQ(one("\x1b[?1049h\x1b[1A\x1b[>0q\n"), "^[[?1049h^[[1A^[[>0q");
  EXPECT_EQ(one("\x1bPq#0;2;0;0;0\x1b\\\n"), "^[Pq#0;2;0;0;0");
  EXPECT_EQ(one("\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\\n"), "^[_apc^[^pm^[Xsos");
  EXPECT_EQ(one("\x1b"
                "7\x1b(B\x1b G Q\x1b"
                "c\n"),
            "^[7^[(B^[ G Q^[c");
  EXPECT_EQ(one("a\x1b\n"), "a^[");
  EXPECT_EQ(one("\x1b\x1b[31mred\n"), "^[red");
}

TEST(Sanitizer, ControlCharactersBecomeCarets) {
  EXPECT_EQ(one(std::string("a\0b\x07\x0b\x0c\x7f\x1f", 8) + "\n"), "a^@b^G^K^L^?^_");
}

TEST(Sanitizer, C1AndFormatCharactersBecomeCodePoints) {
  EXPECT_EQ(one("\xc2\x9b"
                "2J\xc2\x85\n"),
            "<U+009B>2J<U+0085>");
  EXPECT_EQ(one("\x9b"
                "2J\n"),
            "\xEF\xBF\xBD"
            "2J");
  EXPECT_EQ(one("admin\xe2\x80\xae"
                "txt.exe\n"),
            "admin<U+202E>txt.exe");
  EXPECT_EQ(one("a\xe2\x81\xa6"
                "b\xe2\x80\x8b"
                "c\xef\xbb\xbf"
                "d\xe2\x80\xa8"
                "e\xd8\x9c\n"),
            "a<U+2066>b<U+200B>c<U+FEFF>d<U+2028>e<U+061C>");
}

TEST(Sanitizer, EveryInvisibleFormatCharacterBecomesACodePoint) {
  // Invisible operators, a tag letter (text hidden from the reader), Mongolian vowel separator,
  // soft hyphen, interlinear annotation, deprecated format controls and a Hangul filler.
  EXPECT_EQ(one("a\xe2\x81\xa2"
                "b\xf3\xa0\x81\x81"
                "c\xe1\xa0\x8e"
                "d\xc2\xad"
                "e\xef\xbf\xb9"
                "f\xe2\x81\xaa"
                "g\xe3\x85\xa4\n"),
            "a<U+2062>b<U+E0041>c<U+180E>d<U+00AD>e<U+FFF9>f<U+206A>g<U+3164>");
  // Visible neighbours stay as they are: combining marks, variation selectors, braille.
  EXPECT_EQ(one("e\xcc\x81\xe2\x9d\xa4\xef\xb8\x8f\xe2\xa0\x80\n"),
            "e\xcc\x81\xe2\x9d\xa4\xef\xb8\x8f\xe2\xa0\x80");
}

TEST(IsInertText, TrueOnlyWhenSanitizeTextWouldChangeNothing) {
  for (std::string_view s : {"", "pool-1", "日本語 ok", "e\xcc\x81", "a <U+202E> b"}) {
    EXPECT_TRUE(is_inert_text(s)) << s;
    EXPECT_EQ(sanitize_text(s), s);
  }
  for (std::string_view s : {"a\tb", "a\nb", "\x1b[8m", "a\x07", "\x7f", "\xc2\x9b", "\x9b",
                             "\xe2\x80\xae", "\xe2\x80\x8b", "\xff", "\xed\xa0\x80", "\xe2\x82"}) {
    EXPECT_FALSE(is_inert_text(s)) << s;
    EXPECT_NE(sanitize_text(s), s);
  }
}

TEST(Sanitizer, InvalidUtf8BecomesReplacementCharacters) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(one("\xc0\xaf\n"), r + r);                  // overlong '/'
  EXPECT_EQ(one("\xe0\x80\xaf\n"), r + r + r);          // overlong, 3 bytes
  EXPECT_EQ(one("\xed\xa0\x80\n"), r + r + r);          // surrogate U+D800
  EXPECT_EQ(one("\xf4\x90\x80\x80\n"), r + r + r + r);  // > U+10FFFF
  EXPECT_EQ(one("\xe2\x82x\n"), r + "x");               // truncated sequence
  EXPECT_EQ(one("\xff\xfe"
                "a\n"),
            r + r + "a");
  EXPECT_EQ(one("\xe2\x82"), r);  // truncated at the end
}

TEST(Sanitizer, OutputIsAlwaysInert) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::string junk(300, '\0');
    for (char& c : junk) c = static_cast<char>(rng() & 0xFF);
    for (const auto& line : sanitize_lines(junk)) EXPECT_TRUE(inert(line.text));
    EXPECT_TRUE(inert(sanitize_text(junk)));
  }
}

TEST(Sanitizer, SgrBecomesSpans) {
  auto lines =
      sanitize_lines("ok \x1b[1;31mred\x1b[0m plain \x1b[38;5;208mo\x1b[48:2::0:0:255mb\x1b[m\n");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].text, "ok red plain ob");
  ASSERT_EQ(lines[0].spans.size(), 3u);
  EXPECT_EQ(lines[0].spans[0].begin, 3u);
  EXPECT_EQ(lines[0].spans[0].end, 6u);
  EXPECT_TRUE(lines[0].spans[0].style.bold);
  EXPECT_EQ(lines[0].spans[0].style.fg, 1);
  EXPECT_EQ(lines[0].spans[1].style.fg, 208);
  EXPECT_EQ(lines[0].spans[2].style.fg, 208);
  EXPECT_EQ(lines[0].spans[2].style.bg, 21);
}

TEST(Sanitizer, PlaceholdersAreMarked) {
  auto lines = sanitize_lines("a\x1b[2Jb\n");
  ASSERT_EQ(lines.size(), 1u);
  ASSERT_EQ(lines[0].spans.size(), 1u);
  EXPECT_EQ(lines[0].spans[0], (Span{1, 6, TextStyle{}, true}));
  EXPECT_TRUE(sanitize_lines("plain\n")[0].spans.empty());
}

TEST(Sanitizer, LongLinesAreSplitWithAMarker) {
  SanitizerOptions options;
  options.max_line_chars = 10;
  auto lines = sanitize_lines(std::string(25, 'x') + "\n", options);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].text, std::string(10, 'x') + "\u2026");
  EXPECT_TRUE(lines[0].split);
  EXPECT_TRUE(lines[1].split);
  EXPECT_EQ(lines[2].text, std::string(5, 'x'));
  EXPECT_FALSE(lines[2].split);
}

TEST(Sanitizer, PendingLineShowsProgress) {
  Sanitizer s;
  s.feed("epoch 1\nstep 10%\rstep 50%");
  EXPECT_EQ(s.take_lines().size(), 1u);
  ASSERT_TRUE(s.pending_line().has_value());
  EXPECT_EQ(s.pending_line()->text, "step 50%");
  s.feed("\n");
  EXPECT_FALSE(s.pending_line().has_value());
  EXPECT_EQ(s.take_lines()[0].text, "step 50%");
}

std::string hostile_corpus() {
  std::string s =
      "plain line\n10%\r50%\r100%\r\n\x1b[1;32mgreen\x1b[0m \x1b]0;title\x07 \x1b]8;;u\x1b\\l\n";
  s += "\x1b[2J\x1b[?25l\x1bP+q\x1b\\ \xc2\x9b\x9b\xe2\x80\xae rtl \xf0\x9f\x98\x80 emoji 世界\n";
  s += "\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82 tab\there\b\bX \x1b]52;c;abc "
       "\x1b(B\x1b\x1b[m\n";
  s += "\x1b]0;unterminated \xe2\x9c\x9c\x9c after\nlast\x1b";
  return s;
}

TEST(Sanitizer, OutputDoesNotDependOnHowInputIsSplit) {
  const std::string input = hostile_corpus();
  for (bool motion : {true, false}) {
    SanitizerOptions options;
    options.terminal_motion = motion;
    options.max_line_chars = 16;
    const auto whole = sanitize_lines(input, options);
    for (unsigned seed = 0; seed < 300; ++seed) {
      std::mt19937 rng(seed);
      Sanitizer s(options);
      std::vector<SanitizedLine> got;
      for (size_t pos = 0; pos < input.size();) {
        size_t n = std::min<size_t>(input.size() - pos, rng() % 7);
        s.feed(std::string_view(input).substr(pos, n));
        pos += n;
        for (auto& l : s.take_lines()) got.push_back(std::move(l));
      }
      s.finish();
      for (auto& l : s.take_lines()) got.push_back(std::move(l));
      ASSERT_EQ(got, whole) << "seed " << seed;
    }
  }
}

TEST(Sanitizer, ResetForgetsState) {
  Sanitizer s;
  s.feed("\x1b]0;half");
  s.reset();
  s.feed("ok\n");
  EXPECT_EQ(s.take_lines()[0].text, "ok");
}

TEST(SanitizeText, OneLineForNamesAndMessages) {
  EXPECT_EQ(sanitize_text("pool-1"), "pool-1");
  EXPECT_EQ(sanitize_text("good\rbad"), "good^Mbad");
  EXPECT_EQ(sanitize_text("a\b"), "a^H");
  EXPECT_EQ(sanitize_text("HTTP 409\r\nConflict\n"), "HTTP 409 \u23CE Conflict");
  EXPECT_EQ(sanitize_text("\x1b[31mred\x1b[0m"), "red");
  EXPECT_EQ(sanitize_text("x\x1b]0;t\x07"), "x^[]0;t");
}

TEST(DisplayWidth, UsesWcwidthSemantics) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("世界"), 4u);
  EXPECT_EQ(display_width("\xf0\x9f\x98\x80"), 2u);  // emoji
  EXPECT_EQ(display_width("e\xcc\x81"), 1u);         // e + combining acute
  EXPECT_EQ(display_width("\xff"), 1u);
  EXPECT_EQ(display_width("日本語abc"), 9u);
  EXPECT_EQ(codepoint_width(U'Ａ'), 2);
  EXPECT_EQ(codepoint_width(0x0301), 0);
}

}  // namespace
}  // namespace trainyard::sanitizer_test
