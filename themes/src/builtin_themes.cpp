// The compiled-in themes; themes/files/dark.json and mono.json hold the same content.
#include "themes/theme.hpp"

namespace trainyard {
namespace {

struct Entry {
  Role role;
  Style style;
};

enum Flag : unsigned { kBold = 1, kUnderline = 2, kReverse = 4, kDim = 8 };

// A style from palette indices (-1: terminal default) and Flag bits.
Style st(int fg, int bg, unsigned flags) {
  Style s;
  if (fg >= 0) s.fg = Color::indexed(static_cast<std::uint8_t>(fg));
  if (bg >= 0) s.bg = Color::indexed(static_cast<std::uint8_t>(bg));
  s.bold = (flags & kBold) != 0;
  s.underline = (flags & kUnderline) != 0;
  s.reverse = (flags & kReverse) != 0;
  s.dim = (flags & kDim) != 0;
  return s;
}

Theme make_theme(const char* name, std::initializer_list<Entry> entries) {
  Theme theme(name);
  for (const auto& e : entries) theme.set(e.role, e.style);
  return theme;
}

}  // namespace

Theme default_theme() {
  using R = Role;
  return make_theme("dark", {
                                {R::PaneTitleFocused, st(231, 25, kBold)},
                                {R::PaneTitleUnfocused, st(250, 237, 0)},
                                {R::Border, st(240, -1, 0)},
                                {R::BorderFocused, st(75, -1, 0)},
                                {R::Header, st(75, -1, kBold)},
                                {R::RowSelected, st(231, 25, kBold)},
                                {R::RowSelectedUnfocused, st(252, 238, 0)},
                                {R::StateActive, st(110, -1, 0)},
                                {R::StatePreparing, st(221, -1, 0)},
                                {R::StateRunning, st(81, -1, kBold)},
                                {R::StateSuccess, st(114, -1, 0)},
                                {R::StateFailure, st(203, -1, kBold)},
                                {R::StateDisabled, st(244, -1, 0)},
                                {R::StatusBar, st(252, 236, 0)},
                                {R::StatusError, st(231, 124, kBold)},
                                {R::StatusOk, st(114, 236, kBold)},
                                {R::StatusAge, st(245, 236, 0)},
                                {R::StatusStale, st(214, 236, kBold)},
                                {R::Crumb, st(110, -1, 0)},
                                {R::CrumbCurrent, st(231, -1, kBold)},
                                {R::CrumbSeparator, st(242, -1, 0)},
                                {R::KeyHint, st(75, -1, kBold)},
                                {R::KeyHintAction, st(250, -1, 0)},
                                {R::Dim, st(242, -1, 0)},
                                {R::Title, st(231, -1, kBold)},
                                {R::Scrollbar, st(238, -1, 0)},
                                {R::ScrollbarThumb, st(75, -1, 0)},
                                {R::ChartAxis, st(245, -1, 0)},
                                {R::ChartSeries1, st(81, -1, 0)},
                                {R::ChartSeries2, st(214, -1, 0)},
                                {R::ChartSeries3, st(114, -1, 0)},
                                {R::ChartSeries4, st(205, -1, 0)},
                                {R::ChartSeries5, st(141, -1, 0)},
                                {R::ChartSeries6, st(203, -1, 0)},
                                {R::Sparkline, st(81, -1, 0)},
                                {R::GaugeLow, st(114, -1, 0)},
                                {R::GaugeMid, st(221, -1, 0)},
                                {R::GaugeHigh, st(203, -1, 0)},
                                {R::GaugeEmpty, st(238, -1, 0)},
                                {R::LogPlaceholder, st(244, 236, 0)},
                                {R::LogMatch, st(16, 221, 0)},
                                {R::LogMatchCurrent, st(16, 208, kBold)},
                                {R::LogWarn, st(221, -1, 0)},
                                {R::LogError, st(203, -1, 0)},
                                {R::LogOk, st(114, -1, 0)},
                                {R::LogInfo, st(110, -1, 0)},
                                {R::LogEmphasis, st(-1, -1, kBold)},
                                {R::Dialog, st(252, 236, 0)},
                                {R::DialogTitle, st(231, 236, kBold)},
                                {R::Button, st(250, 238, 0)},
                                {R::ButtonFocused, st(231, 25, kBold)},
                                {R::Input, st(252, -1, 0)},
                                {R::InputFocused, st(231, 237, 0)},
                                {R::InputCursor, st(-1, -1, kReverse)},
                                {R::InputHint, st(242, -1, 0)},
                                {R::Label, st(250, -1, 0)},
                                {R::ValidationError, st(203, -1, kBold)},
                                {R::HelpGroup, st(214, -1, kBold)},
                                {R::BandRed, st(231, 124, kBold)},
                                {R::BandGreen, st(231, 28, kBold)},
                                {R::BandYellow, st(16, 178, kBold)},
                                {R::BandBlue, st(231, 25, kBold)},
                                {R::BandMagenta, st(231, 127, kBold)},
                                {R::BandCyan, st(16, 37, kBold)},
                            });
}

Theme mono_theme() {
  using R = Role;
  const Style rev = st(-1, -1, kReverse);
  const Style bold = st(-1, -1, kBold);
  return make_theme("mono", {
                                {R::PaneTitleFocused, st(-1, -1, kBold | kReverse)},
                                {R::PaneTitleUnfocused, st(-1, -1, kUnderline)},
                                {R::BorderFocused, bold},
                                {R::Header, st(-1, -1, kBold | kUnderline)},
                                {R::RowSelected, rev},
                                {R::RowSelectedUnfocused, st(-1, -1, kUnderline)},
                                {R::StateRunning, bold},
                                {R::StateFailure, st(-1, -1, kBold | kUnderline)},
                                {R::StateDisabled, st(-1, -1, kDim)},
                                {R::StatusBar, rev},
                                {R::StatusError, st(-1, -1, kBold | kReverse)},
                                {R::StatusOk, rev},
                                {R::StatusAge, rev},
                                {R::StatusStale, st(-1, -1, kBold | kReverse)},
                                {R::CrumbCurrent, bold},
                                {R::KeyHint, bold},
                                {R::Dim, st(-1, -1, kDim)},
                                {R::Title, bold},
                                {R::GaugeEmpty, st(-1, -1, kDim)},
                                {R::LogPlaceholder, rev},
                                {R::LogMatch, rev},
                                {R::LogMatchCurrent, st(-1, -1, kBold | kUnderline | kReverse)},
                                {R::LogWarn, bold},
                                {R::LogError, bold},
                                {R::LogEmphasis, bold},
                                {R::DialogTitle, bold},
                                {R::ButtonFocused, st(-1, -1, kBold | kReverse)},
                                {R::InputFocused, st(-1, -1, kUnderline)},
                                {R::InputCursor, rev},
                                {R::InputHint, st(-1, -1, kDim)},
                                {R::ValidationError, bold},
                                {R::HelpGroup, st(-1, -1, kBold | kUnderline)},
                                {R::BandRed, st(-1, -1, kBold | kReverse)},
                                {R::BandGreen, st(-1, -1, kBold | kReverse)},
                                {R::BandYellow, st(-1, -1, kBold | kReverse)},
                                {R::BandBlue, st(-1, -1, kBold | kReverse)},
                                {R::BandMagenta, st(-1, -1, kBold | kReverse)},
                                {R::BandCyan, st(-1, -1, kBold | kReverse)},
                            });
}

Style downgrade_style(Style style, ColorDepth depth) {
  if (depth == ColorDepth::Mono && !style.bg.is_default()) style.reverse = true;
  style.fg = downgrade(style.fg, depth);
  style.bg = downgrade(style.bg, depth);
  return style;
}

Theme downgrade_theme(const Theme& theme, ColorDepth depth) {
  Theme out = theme;
  for (std::size_t i = 0; i < kRoleCount; ++i) {
    auto role = static_cast<Role>(i);
    out.set(role, downgrade_style(theme.style(role), depth));
  }
  return out;
}

}  // namespace trainyard
