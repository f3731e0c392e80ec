#include "widgets/table.hpp"

#include <algorithm>

namespace trainyard {
namespace {

bool is_flex(const Column& c) {
  return c.width <= 0;
}

void share_spare(const std::vector<Column>& columns, const std::vector<bool>& shown,
                 std::vector<int>& widths, int spare) {
  int total_flex = 0;
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (shown[i] && is_flex(columns[i])) total_flex += std::max(columns[i].flex, 0);
  if (total_flex == 0 || spare <= 0) return;
  int given = 0, last = -1;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (!shown[i] || !is_flex(columns[i]) || columns[i].flex <= 0) continue;
    int extra = spare * columns[i].flex / total_flex;
    widths[i] += extra;
    given += extra;
    last = static_cast<int>(i);
  }
  widths[static_cast<std::size_t>(last)] += spare - given;
}

// Columns past the right edge vanish; the one straddling it is cut. A dropped column (width 0
// before clipping) takes no gap.
void clip_to(std::vector<int>& widths, const std::vector<bool>& shown, int width) {
  int x = 0;
  for (std::size_t i = 0; i < widths.size(); ++i) {
    if (!shown[i]) continue;
    widths[i] = std::max(0, std::min(widths[i], width - x));
    x += widths[i] + 1;
  }
}

// What a column needs before any spare is shared: a fixed column its width, a flex one its
// least width, and an identifying one (never dropped) its content's width up to `cap`.
int need_of(const Column& c, int want, int cap) {
  if (!is_flex(c)) return c.width;
  int least = std::max(c.min_width, 0);
  return c.drop == 0 ? std::max(least, std::min(want, cap)) : least;
}

int used_by(const std::vector<int>& widths, const std::vector<bool>& shown) {
  int used = 0, count = 0;
  for (std::size_t i = 0; i < widths.size(); ++i)
    if (shown[i]) used += widths[i], ++count;
  return used + std::max(0, count - 1);
}

// The shown column dropped next: the highest drop, the rightmost of equals; -1 when none.
int next_to_drop(const std::vector<Column>& columns, const std::vector<bool>& shown) {
  int pick = -1;
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (shown[i] && columns[i].drop > 0 &&
        (pick < 0 || columns[i].drop >= columns[static_cast<std::size_t>(pick)].drop))
      pick = static_cast<int>(i);
  return pick;
}

// Flex columns grow towards their content, the never-dropped ones first; returns what is left.
int grow_to_wants(const std::vector<Column>& columns, const std::vector<bool>& shown,
                  const std::vector<int>& wants, std::vector<int>& widths, int spare) {
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < columns.size() && spare > 0; ++i) {
      if (!shown[i] || !is_flex(columns[i]) || (columns[i].drop == 0) != (pass == 0)) continue;
      int grow = std::min(spare, std::max(0, wants[i] - widths[i]));
      widths[i] += grow;
      spare -= grow;
    }
  }
  return spare;
}

struct Layout {
  std::vector<int> widths;
  int body_h = 0;
  bool scrollbar = false;
  int content_w = 0;
  bool short_forms = false;
};

std::vector<Column> at_short_width(std::vector<Column> columns) {
  for (auto& c : columns)
    if (c.width > 0 && c.short_width > 0) c.width = c.short_width;
  return columns;
}

// The cells' widest text per column (with its title), over the rows on screen.
std::vector<int> content_widths(const TableVm& vm) {
  std::vector<int> wants;
  for (const auto& c : vm.columns) wants.push_back(text_width(c.title));
  for (const auto& row : vm.rows)
    for (std::size_t i = 0; i < wants.size() && i < row.cells.size(); ++i)
      wants[i] = std::max(wants[i], text_width(row.cells[i].text));
  return wants;
}

Layout make_layout(const TableVm& vm, Rect r) {
  Layout l;
  l.body_h = table_body_height(r);
  l.scrollbar = vm.total_rows > static_cast<std::size_t>(l.body_h) && r.w > 1;
  l.content_w = r.w - (l.scrollbar ? 1 : 0);
  l.short_forms = use_short_forms(vm.columns, l.content_w);
  l.widths = layout_columns(l.short_forms ? at_short_width(vm.columns) : vm.columns, l.content_w,
                            content_widths(vm));
  return l;
}

std::string cut_to(const std::string& text, const Column& c, int width) {
  switch (c.cut) {
    case Cut::Middle:
      return truncate_middle_to_width(text, width);
    case Cut::LastWord:
      return truncate_keeping_last_word(text, width);
    case Cut::End:
      break;
  }
  return text;  // draw_aligned cuts at the end
}

void draw_cells(Canvas& canvas, const std::vector<Column>& columns, const Layout& l, int x, int y,
                const TableRow& row, std::optional<Role> forced, Role row_role) {
  for (std::size_t i = 0; i < columns.size() && i < row.cells.size(); ++i) {
    if (l.widths[i] == 0) continue;  // dropped, or past the right edge
    const auto& cell = row.cells[i];
    Role role = forced ? *forced : cell.role.value_or(row_role);
    const auto& text = l.short_forms && !cell.short_text.empty() ? cell.short_text : cell.text;
    canvas.draw_aligned(x, y, cut_to(text, columns[i], l.widths[i]), role, l.widths[i],
                        columns[i].align);
    x += l.widths[i] + 1;
  }
}

// Returns the column just past the last header title drawn.
int draw_titles(const TableVm& vm, const Layout& l, Canvas& canvas, Rect r) {
  int x = r.x, end = r.x;
  for (std::size_t i = 0; i < vm.columns.size(); ++i) {
    if (l.widths[i] == 0) continue;
    int tw = std::min(text_width(vm.columns[i].title), l.widths[i]);
    int start = canvas.draw_aligned(x, r.y, vm.columns[i].title, Role::Header, l.widths[i],
                                    vm.columns[i].align);
    if (tw > 0) end = start + tw;
    x += l.widths[i] + 1;
  }
  return end;
}

void draw_header(const TableVm& vm, const Layout& l, Canvas& canvas, Rect r) {
  canvas.fill(r.top(1), Role::Header);
  int end = draw_titles(vm, l, canvas, r);
  if (vm.total_rows == 0) return;
  std::size_t pos = vm.selected ? *vm.selected + 1 : vm.first_row + 1;
  std::string where = std::to_string(pos) + "/" + std::to_string(vm.total_rows);
  int ww = text_width(where);
  // The position goes only where it hides no title; panes can show it in their frame instead.
  if (r.right() - ww > end) canvas.draw_text(r.right() - ww, r.y, where, Role::Dim, ww);
}

void draw_scrollbar(const TableVm& vm, const Layout& l, Canvas& canvas, Rect body) {
  int x = body.right() - 1;
  auto h = static_cast<std::size_t>(l.body_h);
  canvas.fill({x, body.y, 1, l.body_h}, Role::Scrollbar, "│");
  std::size_t thumb = std::max<std::size_t>(1, h * h / vm.total_rows);
  std::size_t span = vm.total_rows - h;
  std::size_t top = std::min(vm.first_row, span) * (h - thumb) / std::max<std::size_t>(span, 1);
  canvas.fill({x, body.y + static_cast<int>(top), 1, static_cast<int>(thumb)}, Role::ScrollbarThumb,
              "┃");
}

}  // namespace

int table_body_height(Rect r) {
  return std::max(0, r.h - 1);
}

std::size_t scroll_to_show(std::size_t selected, std::size_t first_row, int body_height,
                           std::size_t total_rows) {
  auto h = static_cast<std::size_t>(std::max(body_height, 1));
  if (selected < first_row) first_row = selected;
  if (selected >= first_row + h) first_row = selected + 1 - h;
  // Never leave blank rows at the bottom while rows above are hidden.
  std::size_t max_first = total_rows > h ? total_rows - h : 0;
  return std::min(first_row, max_first);
}

std::vector<int> layout_columns(const std::vector<Column>& columns, int width,
                                const std::vector<int>& wants_in) {
  std::vector<int> wants = wants_in;
  wants.resize(columns.size(), 0);
  int cap = width * 2 / 5;
  std::vector<int> widths;
  std::vector<bool> shown(columns.size(), true);
  for (std::size_t i = 0; i < columns.size(); ++i)
    widths.push_back(need_of(columns[i], wants[i], cap));
  while (used_by(widths, shown) > width) {
    int drop = next_to_drop(columns, shown);
    if (drop < 0) break;
    shown[static_cast<std::size_t>(drop)] = false;
    widths[static_cast<std::size_t>(drop)] = 0;
  }
  // Still too wide: the identifying columns give back what they asked beyond their least
  // width, the rightmost first (the first column names the row).
  for (std::size_t i = columns.size(); i-- > 0 && used_by(widths, shown) > width;)
    if (shown[i] && is_flex(columns[i]))
      widths[i] =
          std::max(std::max(columns[i].min_width, 0), widths[i] - (used_by(widths, shown) - width));
  int spare = grow_to_wants(columns, shown, wants, widths, width - used_by(widths, shown));
  share_spare(columns, shown, widths, spare);
  clip_to(widths, shown, width);
  return widths;
}

bool use_short_forms(const std::vector<Column>& columns, int width) {
  int fixed = 0, flex_min = 0, saving = 0;
  for (const auto& c : columns) {
    if (c.width > 0)
      fixed += c.width;
    else
      flex_min += std::max(c.min_width, 0);
    if (c.width > 0 && c.short_width > 0) saving += std::max(0, c.width - c.short_width);
  }
  int gaps = columns.empty() ? 0 : static_cast<int>(columns.size()) - 1;
  return saving > 0 && width - gaps - fixed - flex_min < saving;
}

void render_table(const TableVm& vm, Canvas& canvas, Rect r) {
  if (r.empty()) return;
  Layout l = make_layout(vm, r);
  draw_header(vm, l, canvas, r);
  Rect body = r.drop_top(1);
  canvas.fill(body, Role::Row);
  if (vm.total_rows == 0) {
    canvas.draw_text_truncated(body.x + 1, body.y, vm.empty_text, Role::Dim, body.w - 1);
    return;
  }
  for (int i = 0; i < l.body_h && static_cast<std::size_t>(i) < vm.rows.size(); ++i) {
    std::size_t index = vm.first_row + static_cast<std::size_t>(i);
    bool selected = vm.selected == index;
    Role row_role = index % 2 == 1 ? Role::RowAlt : Role::Row;
    std::optional<Role> forced;
    if (selected) forced = vm.focused ? Role::RowSelected : Role::RowSelectedUnfocused;
    canvas.fill({body.x, body.y + i, l.content_w, 1}, forced.value_or(row_role));
    draw_cells(canvas, vm.columns, l, body.x, body.y + i, vm.rows[static_cast<std::size_t>(i)],
               forced, row_role);
  }
  if (l.scrollbar) draw_scrollbar(vm, l, canvas, body);
}

}  // namespace trainyard
