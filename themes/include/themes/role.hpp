// Semantic colour roles: widgets name a role, themes map roles to styles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace trainyard {

/// What a cell means; a Theme decides how it looks. Widgets never name colours.
enum class Role : std::uint8_t {
  Default,               ///< plain text on the terminal background
  PaneTitleFocused,      ///< title of the pane that has focus
  PaneTitleUnfocused,    ///< title of other panes
  Border,                ///< frame of unfocused panes and boxes
  BorderFocused,         ///< frame of the focused pane
  Header,                ///< table column headers
  Row,                   ///< table row
  RowAlt,                ///< every other table row (themes may leave it equal to Row)
  RowSelected,           ///< selected row in a focused table
  RowSelectedUnfocused,  ///< selected row in a table without focus
  StateActive,           ///< pool/job active, node idle
  StatePreparing,        ///< starting, preparing, resizing, queued
  StateRunning,          ///< running
  StateSuccess,          ///< completed with exit code 0
  StateFailure,          ///< failed, unusable, completed with non-zero exit code
  StateDisabled,         ///< disabled, deleting, offline
  StatusBar,             ///< the status line background and info messages
  StatusError,           ///< last error in the status line
  StatusOk,              ///< success message in the status line
  StatusAge,             ///< "data 3s old"
  StatusStale,           ///< data age when the data is stale
  Crumb,                 ///< breadcrumb parts
  CrumbCurrent,          ///< the last breadcrumb
  CrumbSeparator,        ///< the › between crumbs
  KeyHint,               ///< key names in hint bar and help
  KeyHintAction,         ///< action names in the hint bar
  Dim,                   ///< de-emphasised text
  Title,                 ///< chart and overlay titles
  Scrollbar,             ///< scrollbar track
  ScrollbarThumb,        ///< scrollbar thumb
  ChartAxis,             ///< chart axis labels
  ChartSeries1,          ///< first chart series
  ChartSeries2,          ///< second chart series
  ChartSeries3,          ///< third chart series
  ChartSeries4,          ///< fourth chart series
  ChartSeries5,          ///< fifth chart series
  ChartSeries6,          ///< sixth chart series
  Sparkline,             ///< sparkline bars
  GaugeLow,              ///< gauge fill below the mid threshold
  GaugeMid,              ///< gauge fill between mid and high threshold
  GaugeHigh,             ///< gauge fill above the high threshold
  GaugeEmpty,            ///< unfilled part of a gauge
  LogText,               ///< log lines
  LogPlaceholder,        ///< placeholders the sanitizer put in for control bytes
  LogMatch,              ///< search matches in the log
  LogMatchCurrent,       ///< the current search match
  LogWarn,               ///< warning lines
  LogError,              ///< error lines
  LogOk,                 ///< log text a program coloured green (success)
  LogInfo,               ///< log text a program coloured blue, cyan or magenta
  LogEmphasis,           ///< log text a program made bold without a colour
  Dialog,                ///< dialog and overlay body
  DialogTitle,           ///< dialog title
  Button,                ///< dialog button
  ButtonFocused,         ///< focused dialog button
  Input,                 ///< text typed in a prompt or field
  InputFocused,          ///< a form field that has focus
  InputCursor,           ///< the cell under the text cursor
  InputHint,             ///< completion hint after the typed text
  Label,                 ///< form field labels
  ValidationError,       ///< form validation message
  HelpGroup,             ///< context headings in the help overlay
  BandRed,               ///< an account's colour band (red)
  BandGreen,             ///< an account's colour band (green)
  BandYellow,            ///< an account's colour band (yellow)
  BandBlue,              ///< an account's colour band (blue)
  BandMagenta,           ///< an account's colour band (magenta)
  BandCyan,              ///< an account's colour band (cyan)
};

/// Number of roles; Role values are 0 .. kRoleCount-1.
inline constexpr std::size_t kRoleCount = static_cast<std::size_t>(Role::BandCyan) + 1;

/// snake_case name of a role, as used in theme files (`row_selected`).
std::string_view role_name(Role role);
/// Inverse of role_name.
std::optional<Role> role_from_name(std::string_view name);
/// One printable ASCII letter per role, for role-map snapshots ('.' is Default).
char role_letter(Role role);

}  // namespace trainyard
