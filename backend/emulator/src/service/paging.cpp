// The query of a list request and the end of its page.
#include "paging.hpp"

#include <strings.h>

namespace trainyard::emu {

bool read_list_query(Call& c, ListKind kind, ListQuery& q) {
  if (c.has_param("maxresults")) {
    const auto v = c.param("maxresults");
    int n = 0;
    if (v.empty() || v.size() > 5 || v.find_first_not_of("0123456789") != std::string::npos ||
        (n = std::stoi(v)) < 1 || n > 1000) {
      c.error(errors::kOutOfRangeQueryParameter,
              {{"QueryParameterName", "maxresults"}, {"QueryParameterValue", v}});
      return false;
    }
    q.max_results = n;
  }
  q.after = c.param("$skiptoken");
  auto f = Filter::parse(c.param("$filter"), kind);
  if (!f) {
    c.error(errors::kInvalidQueryParameter, {{"QueryParameterName", "$filter"},
                                             {"QueryParameterValue", c.param("$filter")},
                                             {"Reason", f.error().message}});
    return false;
  }
  q.filter = std::move(*f);
  q.select = Select::parse(c.param("$select"));
  return true;
}

std::string page_start(const std::string& base_url, const char* what) {
  return "{\"odata.metadata\":\"" + base_url + "/$metadata#" + what + "\",\"value\":[";
}

void send_page(Call& c, std::string& body, const PageEnd& page) {
  body += "]";
  if (page.more) {
    // The next page repeats the query with a resume point; clients send the link unchanged.
    std::string link = c.base_url + c.req.path + "?";
    bool first = true;
    for (const auto& [k, v] : c.req.params) {
      if (::strcasecmp(k.c_str(), "$skiptoken") == 0) continue;
      link += (first ? "" : "&") + httplib::detail::encode_query_param(k) + "=" +
              httplib::detail::encode_query_param(v);
      first = false;
    }
    link += (first ? "" : "&") + std::string("$skiptoken=") +
            httplib::detail::encode_query_param(page.last_id);
    body += ",\"odata.nextLink\":";
    append_json_string(body, link);
  }
  body += "}";
  c.json(200, std::move(body));
}

}  // namespace trainyard::emu
