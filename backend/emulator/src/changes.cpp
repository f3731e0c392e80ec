// Answering a route, and with `--state` making each change a client is told succeeded durable
// before it is told: journaled on the way out, replayed over the snapshot at the next start.
#include <fmt/format.h>

#include "service.hpp"

namespace trainyard::emu {

namespace {

// Requests that change the account's state. Files live in the node sandboxes (durable on
// their own); tokens, faults and counters are not part of the state.
bool changes_account(const httplib::Request& req) {
  if (req.method == "GET" || req.method == "HEAD" || req.method == "OPTIONS") return false;
  const auto& p = req.path;
  return p.rfind("/__trainyard/", 0) != 0 && p.rfind("/subscriptions/", 0) != 0 &&
         p.find("/oauth2/") == std::string::npos && p.find("/files/") == std::string::npos;
}

}  // namespace

void Service::answer(const Route& r, const httplib::Request& req, httplib::Response& res) {
  Call c = call(req, res);
  if (!journal_.is_open() || !changes_account(req)) {
    r.fn(c, req.matches);
    return;
  }
  std::shared_lock gate(writes_gate_);
  r.fn(c, req.matches);
  if (res.status < 200 || res.status >= 300) return;
  if (!journal_.append(JournalEntry{0, c.now, req.method, req.target, req.body})) {
    c.error(500, "InternalError",
            "The change was made but the emulator could not record it in its state journal; it "
            "may not survive a restart.");
  }
}

void Service::replay(const JournalEntry& e) {
  httplib::Request req;
  req.method = e.method;
  req.target = e.target;
  const auto query = e.target.find('?');
  req.path = httplib::detail::decode_url(e.target.substr(0, query), false);
  if (query != std::string::npos)
    httplib::detail::parse_query_text(e.target.substr(query + 1), req.params);
  req.body = e.body;
  // No headers: the If-Match and the like it had held when it was first answered, and the
  // ETags they named are gone now.
  httplib::Response res;
  for (const auto& r : routes_) {
    if (r.method != req.method || !std::regex_match(req.path, req.matches, r.regex)) continue;
    Call c{req, res, base_url_, e.at};
    r.fn(c, req.matches);
    return;
  }
}

Result<void> Service::open_journal(uint64_t snapshot_seq) {
  const std::string path = options_.state_file + ".journal";
  auto entries = Journal::read(path);
  if (!entries) return entries.error();
  for (const auto& e : *entries) {
    if (e.seq > snapshot_seq) replay(e);
  }
  return journal_.open(path, std::move(*entries), snapshot_seq);
}

}  // namespace trainyard::emu
