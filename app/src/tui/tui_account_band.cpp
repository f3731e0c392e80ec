#include "tui_account_band.hpp"

#include "core/sanitizer.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

std::optional<Role> band_role(const std::string& color) {
  if (color == "red") return Role::BandRed;
  if (color == "green") return Role::BandGreen;
  if (color == "yellow") return Role::BandYellow;
  if (color == "blue") return Role::BandBlue;
  if (color == "magenta") return Role::BandMagenta;
  if (color == "cyan") return Role::BandCyan;
  return std::nullopt;
}

// One past the last non-blank cell of `line`.
int text_end(const Canvas& c, Rect line) {
  int end = line.x;
  for (int x = line.x; x < line.right(); ++x)
    if (c.at(x, line.y).grapheme != " ") end = x + 1;
  return end;
}

}  // namespace

std::optional<Role> account_role(const Settings& settings, const std::string& account) {
  for (const auto& a : settings.accounts)
    if (a.name == account) return band_role(a.color);
  return std::nullopt;
}

void render_account_band(const Settings& settings, const TuiState& st, Canvas& c, Rect line) {
  const auto& pane = focused_pane(st);
  if (pane.name() == "alljobs" || pane.name() == "allpools") return;
  const std::string& account = st.stack.back().account;
  auto role = account_role(settings, account);
  if (!role || line.empty()) return;
  Rect band{text_end(c, line) + 1, line.y, 0, 1};
  band.w = line.right() - band.x;
  if (band.w <= 0) return;
  c.fill(band, *role);
  auto name = " " + sanitize_text(account) + " ";
  c.draw_aligned(band.x, band.y, name, *role, band.w, Align::Right);
}

}  // namespace trainyard
