#include "tui_preemption.hpp"

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

// `node p/n preempted` or `3 nodes preempted (p/a, p/b, +1 more)`: a status line has room for
// two names.
std::string some(const std::vector<std::string>& items, const char* singular, const char* plural,
                 const char* verb) {
  if (items.size() == 1) return fmt::format("{} {} {}", singular, items[0], verb);
  std::string names = items[0] + ", " + items[1];
  if (items.size() > 2) names += fmt::format(", +{} more", items.size() - 2);
  return fmt::format("{} {} {} ({})", items.size(), plural, verb, names);
}

// Requeued tasks; one says how often it was requeued in all.
std::string requeued_text(const std::vector<std::pair<std::string, int>>& tasks) {
  std::vector<std::string> names;
  for (const auto& t : tasks) names.push_back(t.first);
  auto out = some(names, "task", "tasks", "requeued");
  return tasks.size() == 1 ? fmt::format("{} ({})", out, tasks[0].second) : out;
}

// Nodes preempted now that were not at the last look (`pool/node`).
std::vector<std::string> newly_preempted(AppContext& ctx, const std::string& account,
                                         PreemptionsSeen& seen) {
  std::vector<std::string> out;
  auto nodes = ctx.store->preempted_nodes(account);
  if (!nodes) return out;
  std::set<std::string> now;
  for (const auto& n : *nodes) {
    auto key = n.pool_id + "/" + n.id;
    if (!seen.preempted_nodes.count(key)) out.push_back(key);
    now.insert(key);
  }
  seen.preempted_nodes = std::move(now);
  return out;
}

// Tasks whose requeue count rose since the last look (`job/task`, count); the list is read
// only when the account's total moved, which a partial index answers cheaply.
std::vector<std::pair<std::string, int>> newly_requeued(AppContext& ctx, const std::string& account,
                                                        PreemptionsSeen& seen) {
  std::vector<std::pair<std::string, int>> out;
  auto total = ctx.store->requeue_total(account);
  if (!total || *total == seen.requeue_total) return out;
  auto tasks = ctx.store->requeued_tasks(account);
  if (!tasks) return out;
  std::map<std::string, int> now;
  for (const auto& t : *tasks) {
    auto key = t.job + "/" + t.task;
    auto before = seen.requeues.find(key);
    if (before == seen.requeues.end() || before->second < t.requeues)
      out.emplace_back(key, t.requeues);
    now[key] = t.requeues;
  }
  seen.requeues = std::move(now);
  seen.requeue_total = *total;
  return out;
}

// The news of one account; empty when there is none (or it is the account's first look).
std::string news_of(AppContext& ctx, const std::string& account, PreemptionWatch& watch) {
  bool first = !watch.count(account);
  auto& seen = watch[account];
  auto nodes = newly_preempted(ctx, account, seen);
  auto tasks = newly_requeued(ctx, account, seen);
  if (first) return "";
  std::string out;
  if (!nodes.empty()) out = some(nodes, "node", "nodes", "preempted");
  if (!tasks.empty()) out += (out.empty() ? "" : "; ") + requeued_text(tasks);
  return out;
}

}  // namespace

std::map<std::string, std::string> preemption_news_by_account(
    AppContext& ctx, const std::vector<std::string>& polled, const std::string& focused,
    PreemptionWatch& watch) {
  std::set<std::string> accounts(polled.begin(), polled.end());
  if (focused != kLocalAccount) accounts.insert(focused);
  std::map<std::string, std::string> out;
  for (const auto& account : accounts)
    if (auto news = news_of(ctx, account, watch); !news.empty()) out[account] = news;
  return out;
}

std::string news_line(const std::map<std::string, std::string>& news, const std::string& focused) {
  std::string message;
  for (const auto& [account, text] : news)
    message += (message.empty() ? "" : " · ") + (account == focused ? "" : account + ": ") + text;
  return message;
}

std::string preemption_news(AppContext& ctx, const std::vector<std::string>& polled,
                            const std::string& focused, PreemptionWatch& watch) {
  return news_line(preemption_news_by_account(ctx, polled, focused, watch), focused);
}

void announce_preemptions(AppContext& ctx, TuiState& st) {
  std::vector<std::string> polled;
  for (const auto& entry : st.work.pollers) polled.push_back(entry.first);
  auto message = preemption_news(ctx, polled, st.top().account, st.notes.preemptions);
  if (!message.empty()) set_status(st, sanitize_text(message), StatusLevel::Error);
}

}  // namespace trainyard
