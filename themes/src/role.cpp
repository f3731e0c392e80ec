#include "themes/role.hpp"

#include <array>

namespace trainyard {
namespace {

struct RoleInfo {
  std::string_view name;
  char letter;
};

// Indexed by Role; letters are mnemonic where possible so role-map snapshots read easily.
constexpr std::array<RoleInfo, kRoleCount> kRoles = {{
    {"default", '.'},
    {"pane_title_focused", 'T'},
    {"pane_title_unfocused", 't'},
    {"border", 'b'},
    {"border_focused", 'B'},
    {"header", 'H'},
    {"row", 'r'},
    {"row_alt", 'a'},
    {"row_selected", 'S'},
    {"row_selected_unfocused", 's'},
    {"state_active", 'A'},
    {"state_preparing", 'P'},
    {"state_running", 'R'},
    {"state_success", 'O'},
    {"state_failure", 'F'},
    {"state_disabled", 'D'},
    {"status_bar", 'u'},
    {"status_error", 'E'},
    {"status_ok", 'K'},
    {"status_age", 'g'},
    {"status_stale", 'G'},
    {"crumb", 'c'},
    {"crumb_current", 'C'},
    {"crumb_separator", '>'},
    {"key_hint", 'k'},
    {"key_hint_action", 'n'},
    {"dim", 'd'},
    {"title", 'y'},
    {"scrollbar", '|'},
    {"scrollbar_thumb", '#'},
    {"chart_axis", 'x'},
    {"chart_series1", '1'},
    {"chart_series2", '2'},
    {"chart_series3", '3'},
    {"chart_series4", '4'},
    {"chart_series5", '5'},
    {"chart_series6", '6'},
    {"sparkline", '^'},
    {"gauge_low", 'l'},
    {"gauge_mid", 'm'},
    {"gauge_high", 'h'},
    {"gauge_empty", '_'},
    {"log_text", 'L'},
    {"log_placeholder", '?'},
    {"log_match", 'M'},
    {"log_match_current", '*'},
    {"log_warn", 'W'},
    {"log_error", '!'},
    {"log_ok", '+'},
    {"log_info", 'N'},
    {"log_emphasis", 'X'},
    {"dialog", 'w'},
    {"dialog_title", 'Y'},
    {"button", 'o'},
    {"button_focused", '@'},
    {"input", 'i'},
    {"input_focused", 'I'},
    {"input_cursor", 'Z'},
    {"input_hint", '~'},
    {"label", 'e'},
    {"validation_error", 'V'},
    {"help_group", 'p'},
    {"band_red", 'Q'},
    {"band_green", 'U'},
    {"band_yellow", 'J'},
    {"band_blue", 'v'},
    {"band_magenta", 'f'},
    {"band_cyan", 'z'},
}};

}  // namespace

std::string_view role_name(Role role) {
  return kRoles[static_cast<std::size_t>(role)].name;
}

std::optional<Role> role_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kRoles.size(); ++i) {
    if (kRoles[i].name == name) return static_cast<Role>(i);
  }
  return std::nullopt;
}

char role_letter(Role role) {
  return kRoles[static_cast<std::size_t>(role)].letter;
}

}  // namespace trainyard
