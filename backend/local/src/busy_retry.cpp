#include "local/busy_retry.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <thread>

namespace trainyard {

std::chrono::milliseconds backoff_delay(const BusyBackoff& b, int retry, double unit) {
  auto d = b.first;
  for (int i = 0; i < retry && d < b.cap; ++i) d *= 2;
  d = std::min(d, b.cap);
  unit = std::clamp(unit, 0.0, 1.0);
  return std::chrono::milliseconds(d.count() / 2 +
                                   static_cast<int64_t>(unit * static_cast<double>(d.count() / 2)));
}

Result<void> write_until_stored(
    const std::function<Result<void>()>& write,
    const std::function<void(const Error&, std::chrono::milliseconds)>& on_busy,
    const BusyBackoff& b) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int retry = 0;; ++retry) {
    auto r = write();
    if (r || r.error().kind != ErrorKind::Busy) return r;
    auto delay = backoff_delay(b, retry, unit(rng));
    if (on_busy) on_busy(r.error(), delay);
    if (b.sleep)
      b.sleep(delay);
    else
      std::this_thread::sleep_for(delay);
  }
}

}  // namespace trainyard
