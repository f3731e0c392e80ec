// Writes that must not be lost (how a run ended) are retried while another process holds the
// store's write lock, with a capped, jittered exponential backoff.
#pragma once

#include <chrono>
#include <functional>

#include "core/result.hpp"

namespace trainyard {

/// How long to wait between tries of a write the store refused as busy.
struct BusyBackoff {
  std::chrono::milliseconds first{200};  ///< the delay before the first retry, at most
  std::chrono::milliseconds cap{5000};   ///< no delay is longer
  /// Sleeps between tries; empty: std::this_thread::sleep_for.
  std::function<void(std::chrono::milliseconds)> sleep;
};

/// The delay before retry `retry` (0 for the first): first·2^retry, capped, scaled into its upper
/// half by `unit` (in [0, 1)), so writers that collided once do not retry in step.
std::chrono::milliseconds backoff_delay(const BusyBackoff& b, int retry, double unit);

/// Runs `write` until it succeeds or fails with anything other than ErrorKind::Busy, sleeping a
/// backoff delay between tries; `on_busy(error, delay)` hears of each refusal.
Result<void> write_until_stored(
    const std::function<Result<void>()>& write,
    const std::function<void(const Error&, std::chrono::milliseconds)>& on_busy,
    const BusyBackoff& b = {});

}  // namespace trainyard
