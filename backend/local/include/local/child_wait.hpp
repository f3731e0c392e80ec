// Waiting a bounded time for a child process (an alert command, TensorBoard, an editor) to end,
// and the argv that exec takes.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace trainyard {

/// Waits for `pid` up to `limit`; true when it ended (or cannot be waited for), its status in
/// `status`.
bool reaped_by(pid_t pid, std::chrono::steady_clock::time_point limit, int& status);

/// execvp's argv for `words`: a pointer to each word, then nullptr. The words must outlive it.
std::vector<char*> exec_argv(const std::vector<std::string>& words);

}  // namespace trainyard
