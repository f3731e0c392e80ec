#include "tui_history.hpp"

#include <algorithm>

#include "tui_state.hpp"

namespace trainyard {

bool same_place(const std::vector<Frame>& a, const std::vector<Frame>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const Frame& x, const Frame& y) { return frame_key(x) == frame_key(y); });
}

void record_move(NavHistory& h, std::vector<Frame> before, const std::vector<Frame>& after) {
  if (before.empty() || same_place(before, after)) return;
  h.back.push_back(std::move(before));
  if (h.back.size() > NavHistory::kLimit) h.back.erase(h.back.begin());
  h.forward.clear();
}

namespace {

bool step(std::vector<std::vector<Frame>>& from, std::vector<std::vector<Frame>>& to,
          std::vector<Frame>& current) {
  if (from.empty()) return false;
  to.push_back(std::move(current));
  current = std::move(from.back());
  from.pop_back();
  return true;
}

}  // namespace

bool history_back(NavHistory& h, std::vector<Frame>& current) {
  return step(h.back, h.forward, current);
}

bool history_forward(NavHistory& h, std::vector<Frame>& current) {
  return step(h.forward, h.back, current);
}

}  // namespace trainyard
