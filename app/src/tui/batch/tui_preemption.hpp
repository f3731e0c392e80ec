// Preemptions the pollers stored, told in the status line: Spot nodes that went preempted and
// tasks whose requeue count rose since the TUI last looked.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace trainyard {

struct AppContext;
struct TuiState;

/// What the TUI last saw of one account's preemptions.
struct PreemptionsSeen {
  int64_t requeue_total = 0;              ///< the sum of its tasks' requeue counts
  std::map<std::string, int> requeues;    ///< by `job/task`, tasks requeued at least once
  std::set<std::string> preempted_nodes;  ///< `pool/node`
};

/// What was seen, by account; an account's first look only records what is there.
using PreemptionWatch = std::map<std::string, PreemptionsSeen>;

/// The nodes preempted and tasks requeued since the last call in `focused` (unless local) and
/// `accounts` (others prefixed with their name); empty when there is no news.
std::string preemption_news(AppContext& ctx, const std::vector<std::string>& accounts,
                            const std::string& focused, PreemptionWatch& watch);

/// The same news by account, each without the account's name.
std::map<std::string, std::string> preemption_news_by_account(
    AppContext& ctx, const std::vector<std::string>& polled, const std::string& focused,
    PreemptionWatch& watch);
/// News by account as one status line: the focused account's plain, others' prefixed.
std::string news_line(const std::map<std::string, std::string>& news, const std::string& focused);

/// Announces in the status line the nodes preempted and the tasks requeued since the last call,
/// in the Batch account on screen and those polled in the background.
void announce_preemptions(AppContext& ctx, TuiState& st);

}  // namespace trainyard
