// Lists a page at a time, as every Batch list does: `maxresults`, `$skiptoken`, `$filter`,
// `$select`, and `odata.nextLink` by one rule.
#pragma once

#include <string>

#include "call.hpp"
#include "emulator/odata_filter.hpp"

namespace trainyard::emu {

/// A page request: `maxresults`, the position to resume after, `$filter` and `$select`.
struct ListQuery {
  int max_results = 1000;
  std::string after;  ///< id of the last entity of the previous page
  Filter filter;
  Select select;
};

/// Reads the list's query parameters; answers 400 and returns false when one is invalid.
bool read_list_query(Call& c, ListKind kind, ListQuery& q);

/// Where a page ended: whether another entry follows, and the id to resume after.
struct PageEnd {
  bool more = false;
  std::string last_id;
};

/// Appends to `body` the entries of [it, end) that `keep` accepts, written by `write` and
/// comma-separated, at most `max_results` of them. The page has a successor exactly when one
/// more kept entry follows it: a list with `max_results` kept entries left ends here.
template <class It, class Keep, class Write, class IdOf>
PageEnd fill_page(std::string& body, int max_results, It it, It end, Keep&& keep, Write&& write,
                  IdOf&& id_of) {
  PageEnd page;
  int written = 0;
  for (; it != end; ++it) {
    if (!keep(*it)) continue;
    if (written == max_results) {
      page.more = true;
      break;
    }
    if (written++) body += ",";
    write(*it, body);
    page.last_id = id_of(*it);
  }
  return page;
}

/// One page of an id-ordered map, resuming after the query's `$skiptoken`: fill_page over
/// the entries past it, each named by its key.
template <class Map, class Keep, class Write>
PageEnd fill_map_page(std::string& body, const ListQuery& q, const Map& entries, Keep&& keep,
                      Write&& write) {
  auto it = q.after.empty() ? entries.begin() : entries.upper_bound(q.after);
  return fill_page(body, q.max_results, it, entries.end(), keep, write,
                   [](const auto& entry) -> const std::string& { return entry.first; });
}

/// `{"odata.metadata":"<base>/$metadata#<what>","value":[` — the start of every list page.
std::string page_start(const std::string& base_url, const char* what);

/// Closes the page and answers 200; with `page.more`, adds `odata.nextLink`: the request's
/// URL with `$skiptoken` set to `page.last_id`.
void send_page(Call& c, std::string& body, const PageEnd& page);

}  // namespace trainyard::emu
