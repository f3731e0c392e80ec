// The TUI's Batch pollers: one per account visited, told what is on screen, and what the status
// bar says about them (how old the data is, who polls, the last error).
#include <fmt/format.h>

#include <algorithm>

#include "account_lookup.hpp"
#include "core/sanitizer.hpp"
#include "sync/incremental_sync.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

// The poller of `account`, started on first use; null for local and unknown accounts.
BatchPoller* poller_for(AppContext& ctx, TuiState& st, const std::string& account) {
  if (account == kLocalAccount) return nullptr;
  if (auto it = st.work.pollers.find(account); it != st.work.pollers.end()) return it->second.get();
  auto config = find_account(ctx.settings, account);
  if (!config) return nullptr;  // known only to the cache: browsable offline, never polled
  const Clock& clock = ctx.clock;
  BatchClientFactory factory = [cfg = *config, &clock] { return open_batch_client(cfg, clock); };
  PollerOptions o;
  const auto& poll = ctx.settings.poll;
  o.focus_interval = std::chrono::milliseconds(static_cast<int64_t>(poll.focus_seconds * 1000));
  o.background_interval =
      std::chrono::milliseconds(static_cast<int64_t>(poll.background_seconds * 1000));
  o.requests_per_second = poll.requests_per_second;
  auto p = std::make_unique<BatchPoller>(
      account, ctx.data_dir, ctx.data_dir + "/locks", factory, o,
      [q = &st.work.events, account](std::vector<std::string> scopes) {
        q->post(StoreWritten{account, std::move(scopes)});
      });
  p->start();
  return st.work.pollers.emplace(account, std::move(p)).first->second.get();
}

std::string short_error(std::string e) {
  if (e.size() > 120) e = e.substr(0, 117) + "...";
  return e;
}

}  // namespace

std::vector<std::string> rows_on_screen(const TuiState& st) {
  std::vector<std::string> ids = st.table.page.keys;
  const auto& c = st.stack.back().cursor;
  if (c.selected >= c.first && c.selected - c.first < ids.size()) {
    auto selected = ids.begin() + static_cast<std::ptrdiff_t>(c.selected - c.first);
    std::rotate(ids.begin(), selected, selected + 1);
  }
  return ids;
}

std::string default_pool(AppContext& ctx, const std::string& account) {
  if (account == kLocalAccount) return kLocalPool;
  auto pools = ctx.store->pools(account);
  return pools && !pools->empty() ? pools->front().id : std::string();
}

std::string empty_pane_text(const TuiState& st, std::string empty_text) {
  if (st.notes.sync_error.empty()) return empty_text;
  return "cannot read " + st.stack.back().account + ": " + sanitize_text(st.notes.sync_error);
}

std::string SyncAges::age(const std::string& scope) const {
  auto it = checked.find(scope);
  return it == checked.end() ? "never" : format_age(now - it->second);
}

SyncAges load_sync_ages(AppContext& ctx, const std::string& account) {
  SyncAges ages;
  ages.now = ctx.clock.now();
  ages.batch = account != kLocalAccount;
  if (!ages.batch) return ages;
  if (auto marks = ctx.store->sync_marks(account))
    for (const auto& m : *marks)
      if (m.checked_at) ages.checked[m.scope] = *m.checked_at;
  return ages;
}

std::string pool_health(const Pool& p, const std::map<NodeState, int64_t>& nodes) {
  if (!p.resize_error.empty()) return "resize: " + p.resize_error;
  auto count = [&](NodeState s) {
    auto it = nodes.find(s);
    return it == nodes.end() ? int64_t{0} : it->second;
  };
  int64_t unusable = count(NodeState::Unusable), start_failed = count(NodeState::StartTaskFailed);
  std::string out;
  if (start_failed) out = fmt::format("{} start task failed", start_failed);
  if (unusable) out += fmt::format("{}{} unusable", out.empty() ? "" : ", ", unusable);
  return out;
}

void register_known_accounts(AppContext& ctx) {
  std::vector<std::string> notes;
  for (const auto& a : known_accounts(ctx.settings, notes)) {
    Account row{a.name, a.emulator ? AccountKind::Emulator : AccountKind::Batch, a.endpoint};
    (void)ctx.store->upsert_account(row);
  }
}

void update_pollers(AppContext& ctx, TuiState& st) {
  if (!st.work.live) return;
  const auto& f = st.top();
  BatchPoller* focused = poller_for(ctx, st, f.account);
  for (auto& [account, p] : st.work.pollers) {
    PollFocus focus = p.get() == focused ? focused_pane(st).poll_focus(st) : PollFocus{};
    // Pinned jobs stay followed while the user looks elsewhere.
    auto pins = st.pinned.find(account);
    if (pins != st.pinned.end()) focus.pinned_jobs.assign(pins->second.begin(), pins->second.end());
    p->set_focus(std::move(focus));
  }
}

void toggle_pin(TuiState& st, const std::string& job) {
  const auto& account = st.top().account;
  if (account == kLocalAccount)
    return set_status(st, "local runs are always followed; pinning is for Batch jobs");
  auto& pins = st.pinned[account];
  bool pinned = pins.insert(job).second;
  if (!pinned) pins.erase(job);
  set_status(st,
             fmt::format("{} {}: its running tasks' logs {} followed",
                         pinned ? "pinned" : "unpinned", job, pinned ? "are" : "are no longer"),
             StatusLevel::Ok);
}

bool shows_written(const TuiState& st, const StoreWritten& w) {
  const auto& f = st.stack.back();
  const auto& pane = focused_pane(st);
  if (!pane.per_account()) return true;  // it sums over accounts
  if (f.account != w.account) return false;
  auto scopes = pane.shown_scopes(st);
  scopes.push_back(pane.focus_scope(f));
  if (scopes.back().empty()) return true;  // a pane with no scope may show anything
  for (const auto& s : w.scopes)
    if (std::find(scopes.begin(), scopes.end(), s) != scopes.end()) return true;
  return false;
}

void poke_poller(TuiState& st) {
  if (auto it = st.work.pollers.find(st.top().account); it != st.work.pollers.end())
    it->second->poke();
}

// `R`: says it is refreshing, and (fill_sync_status) what the next cycle found.
void refresh_poller(TuiState& st) {
  const std::string& account = st.top().account;
  auto it = st.work.pollers.find(account);
  if (it == st.work.pollers.end()) return;
  auto s = it->second->status();
  if (!s.polling && s.holder_pid)
    return set_status(st, fmt::format("pid {} polls {}: what it fetches shows here as it lands",
                                      s.holder_pid, account));
  st.notes.refresh_asked = {account, s.cycles};
  it->second->poke();
  set_status(st, fmt::format("refreshing {}…", account));
}

// When the data on screen was confirmed: the Jobs pane's counts are as old as the oldest of
// its jobs' tasks on screen (unknown while one was never listed), not only the job list.
std::optional<Timestamp> shown_data_time(AppContext& ctx, const TuiState& st) {
  const auto& f = st.stack.back();
  const auto& pane = focused_pane(st);
  auto mark = ctx.store->sync_mark(f.account, pane.focus_scope(f));
  std::optional<Timestamp> oldest = mark && *mark ? (*mark)->checked_at : std::nullopt;
  for (const auto& scope : pane.shown_scopes(st)) {
    auto m = ctx.store->sync_mark(f.account, scope);
    if (!m || !*m || !(*m)->checked_at) return std::nullopt;
    if (oldest && *(*m)->checked_at < *oldest) oldest = (*m)->checked_at;
  }
  return oldest;
}

namespace {

// A failed fetch is said once and kept fresh while it lasts. Another error stays until the user
// moves to another view: dimmed by newer data or not, a failed action's reason must not give way
// to the poller's recurring one (a wrong key fails both).
void show_sync_error(TuiState& st, const std::string& error) {
  const auto& s = st.status;
  bool showing_sync = s.message.rfind("sync: ", 0) == 0;
  bool moved = st.notes.track.frame != frame_key(st.top());
  if (error.empty()) {
    if (showing_sync && s.level == StatusLevel::Error)
      set_status_from(st, status_origin(st, false), "sync: recovered", StatusLevel::Ok);
    return;
  }
  std::string text = "sync: " + short_error(error);
  bool other_error = s.level == StatusLevel::Error && !moved && !showing_sync;
  if (!other_error && (s.message != text || s.message_stale))
    set_status_from(st, status_origin(st, false), text, StatusLevel::Error);
}

// A request unanswered past `limit`: the endpoint stopped answering (a stopped process, a dead
// link), which the request's own timeout would tell only much later.
std::string no_answer_text(std::optional<std::chrono::steady_clock::time_point> since,
                           const std::string& endpoint, double limit_seconds) {
  if (!since) return "";
  auto waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - *since);
  if (waited.count() < limit_seconds) return "";
  return fmt::format("no answer from {} for {} s", endpoint, static_cast<int64_t>(waited.count()));
}

std::string no_answer_text(const PollerStatus& s, double limit_seconds) {
  return no_answer_text(s.waiting_since, s.endpoint, limit_seconds);
}

// The outcome of `R` once the poller's next cycle is over (or while it waits for an answer).
void say_refresh_outcome(TuiState& st, const PollerStatus& s, const std::string& no_answer) {
  auto& asked = st.notes.refresh_asked;
  if (!asked || asked->first != st.top().account) return;
  if (!no_answer.empty()) return set_status(st, "refreshing…: " + no_answer, StatusLevel::Error);
  if (s.cycles <= asked->second) return;
  asked.reset();
  if (!s.last_error.empty())
    return set_status(st, "refresh failed: " + short_error(s.last_error), StatusLevel::Error);
  set_status(st, "refreshed", StatusLevel::Ok);
}

// An action whose request waits past `limit` says so while it waits: its own timeout and
// retries decide when it gives up, which on a stopped endpoint takes minutes.
void say_stuck_action(TuiState& st, double limit_seconds) {
  auto it = st.work.runners.find(st.top().account);
  if (it == st.work.runners.end()) return;
  auto w = it->second->waiting();
  if (!w) return;
  auto text = no_answer_text(w->since, w->endpoint, limit_seconds);
  if (!text.empty()) set_status(st, w->what + ": " + text, StatusLevel::Error);
}

// Poller notes; returns the last cycle's error (or that no answer came), and makes the data time
// no newer than the last clean cycle while fetching fails.
std::string poller_status(TuiState& st, const BatchPoller& poller, double no_answer_seconds) {
  auto s = poller.status();
  auto no_answer = no_answer_text(s, no_answer_seconds);
  say_refresh_outcome(st, s, no_answer);
  if (!no_answer.empty()) s.last_error = no_answer;
  if (!s.polling && s.holder_pid) st.status.note = fmt::format("polled by pid {}", s.holder_pid);
  if (s.backoff.count() >= 1000)
    st.status.note = fmt::format("slowed +{}s", s.backoff.count() / 1000);
  if (!s.last_error.empty() && st.notes.data_time && s.last_cycle)
    st.notes.data_time = std::min(*st.notes.data_time, *s.last_cycle);
  return s.last_error;
}

}  // namespace

std::map<std::string, std::string> account_poll_notes(const TuiState& st,
                                                      double no_answer_seconds) {
  std::map<std::string, std::string> notes;
  for (const auto& [account, poller] : st.work.pollers) {
    auto s = poller->status();
    auto no_answer = no_answer_text(s, no_answer_seconds);
    std::string& note = notes[account];
    if (!no_answer.empty())
      note = no_answer;
    else if (!s.polling && s.holder_pid)
      note = fmt::format("polled by pid {}", s.holder_pid);
    else if (!s.last_error.empty())
      note = "failing: " + short_error(s.last_error);
    else
      note = s.cycles ? "ok" : "connecting";
  }
  return notes;
}

SyncFacts read_sync_facts(AppContext& ctx, const TuiState& st) {
  const auto& f = st.stack.back();
  const auto& pane = focused_pane(st);
  if (f.account == kLocalAccount || !pane.per_account()) return {};
  auto mark = ctx.store->sync_mark(f.account, pane.focus_scope(f));
  return {shown_data_time(ctx, st), mark && *mark ? (*mark)->error : ""};
}

void fill_sync_status(AppContext& ctx, TuiState& st) {
  const auto& f = st.top();
  st.status.note.clear();
  st.notes.sync_error.clear();
  st.status.stale = false;
  st.notes.account_polls = account_poll_notes(st, ctx.settings.poll.no_answer_seconds);
  const auto& pane = focused_pane(st);
  if (f.account == kLocalAccount || !pane.per_account()) {
    st.notes.data_time = ctx.clock.now();
    return;
  }
  // With a reader, the facts came with the model on screen: the UI thread does not query.
  auto facts = st.work.reader ? st.work.sync : read_sync_facts(ctx, st);
  st.notes.data_time = facts.data_time;
  std::string error = facts.error;
  auto it = st.work.pollers.find(f.account);
  if (it == st.work.pollers.end())
    st.status.note = st.work.live ? "offline: cache only" : "";
  else if (auto last = poller_status(st, *it->second, ctx.settings.poll.no_answer_seconds);
           !last.empty())
    error = last;
  st.notes.sync_error = error;
  // A fetch that failed leaves the data as old as it is: the age must not look fresh.
  st.status.stale = !error.empty();
  show_sync_error(st, error);
  say_stuck_action(st, ctx.settings.poll.no_answer_seconds);
}

}  // namespace trainyard
