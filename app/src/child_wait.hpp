// Internal: waiting a bounded time for a child process the app started (an alert command,
// TensorBoard) to end.
#pragma once

#include <sys/types.h>

#include <chrono>

namespace trainyard {

/// Waits for `pid` up to `limit`; true when it ended (or cannot be waited for), its status in
/// `status`.
bool reaped_by(pid_t pid, std::chrono::steady_clock::time_point limit, int& status);

}  // namespace trainyard
