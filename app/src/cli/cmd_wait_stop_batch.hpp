// Internal: `wait`, `stop` and `rm` on a Batch (or emulator) account.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"

namespace trainyard {

/// True for an account other than `local` (an empty one means local).
bool is_batch_account(const std::string& account);
/// Waits for the task to complete; its exit code (1 when it has none, with the reason).
int wait_batch(const CliState& st, const std::string& account, const std::string& job,
               const std::string& task);
/// Terminates the task and waits until the service says it completed.
int stop_batch(const CliState& st, const std::string& account, const std::string& job,
               const std::string& task);
/// Deletes each task (and its files on the node) and forgets it in the cache.
int rm_batch(const CliState& st, const std::string& account,
             const std::vector<std::pair<std::string, std::string>>& tasks);

}  // namespace trainyard
