// Answering a route, and with `--state` making each change a client is told succeeded durable
// before it is told: journaled on the way out, replayed over the snapshot at the next start.
#include <fmt/format.h>

#include "service.hpp"

namespace trainyard::emu {

void Service::answer(const Route& r, const httplib::Request& req, httplib::Response& res) {
  Call c = call(req, res);
  if (!r.changes_account || !journal_.is_open()) {
    r.fn(c, req.matches);
    return;
  }
  std::shared_lock gate(writes_gate_);
  r.fn(c, req.matches);
  if (res.status < 200 || res.status >= 300) return;
  if (!journal_.append(JournalEntry{0, c.now, req.method, req.target, req.body})) {
    c.error(errors::kJournalWriteFailed);
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
  const Route* r = find_route(req.method, req.path, req.matches);
  if (!r || !r->changes_account) return;  // never journaled: a hand-edited line
  Call c{req, res, account_.base_url_, e.at};
  r->fn(c, req.matches);
}

Result<void> Service::open_journal(uint64_t snapshot_seq) {
  const std::string path = account_.options_.state_file + ".journal";
  auto entries = Journal::read(path);
  if (!entries) return entries.error();
  for (const auto& e : *entries) {
    if (e.seq > snapshot_seq) replay(e);
  }
  return journal_.open(path, std::move(*entries), snapshot_seq);
}

}  // namespace trainyard::emu
