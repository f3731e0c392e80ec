// Task list pages read without a DOM of the page or of a task (a 1,000-task page made about
// 20,000 small allocations and their frees): each Task is what parse_task gives for its item.
//
// simdjson reads a page about ten times faster than nlohmann's lexer (which was half of a sync's
// time), and refuses every text nlohmann refuses. The page's values are walked in order and
// handed to the same handler nlohmann's SAX parser feeds. A text simdjson refuses (not JSON, too
// deep, a number past 64 bits, a byte order mark) is read again by nlohmann's parser, so that
// what is accepted and every message are nlohmann's.
#include <string>

#include <fmt/format.h>
#include <simdjson.h>

#include "azure/parse.hpp"
#include "azure/task_page.hpp"
#include "parse_values.hpp"
#include "task_page_sax.hpp"

namespace trainyard::azure {
namespace {

using detail::TaskPageSax;
namespace dom = simdjson::dom;

// simdjson refuses deeper pages; they go to nlohmann's parser and check_body_limits' message.
// One level under the limit, so that whatever simdjson accepts passes that check.
constexpr std::size_t kFastDepth = kMaxJsonDepth - 1;

bool feed(dom::element e, TaskPageSax& sax);

bool feed_object(dom::object o, TaskPageSax& sax) {
  if (!sax.start_object(o.size())) return false;
  for (dom::key_value_pair kv : o)
    if (!sax.key(kv.key) || !feed(kv.value, sax)) return false;
  return sax.end_object();
}

bool feed_array(dom::array a, TaskPageSax& sax) {
  if (!sax.start_array(a.size())) return false;
  for (dom::element v : a)
    if (!feed(v, sax)) return false;
  return sax.end_array();
}

// Numbers as nlohmann reports them: a non-negative integer is unsigned, a negative one signed.
bool feed(dom::element e, TaskPageSax& sax) {
  switch (e.type()) {
    case dom::element_type::OBJECT:
      return feed_object(e.get_object().value_unsafe(), sax);
    case dom::element_type::ARRAY:
      return feed_array(e.get_array().value_unsafe(), sax);
    case dom::element_type::STRING: {
      std::string text{e.get_string().value_unsafe()};
      return sax.string(text);
    }
    case dom::element_type::INT64: {
      const int64_t v = e.get_int64().value_unsafe();
      return v < 0 ? sax.number_integer(v) : sax.number_unsigned(static_cast<uint64_t>(v));
    }
    case dom::element_type::UINT64:
      return sax.number_unsigned(e.get_uint64().value_unsafe());
    case dom::element_type::DOUBLE:
      return sax.number_float(e.get_double().value_unsafe(), "");
    case dom::element_type::BOOL:
      return sax.boolean(e.get_bool().value_unsafe());
    case dom::element_type::NULL_VALUE:
      return sax.null();
  }
  return sax.null();
}

// The page through simdjson; nullopt when simdjson refuses the text.
std::optional<Result<TaskPage>> parse_fast(std::string_view body, const std::string& account,
                                           const std::string& job) {
  // One parser per thread keeps its buffers from page to page.
  thread_local dom::parser parser;
  if (parser.max_depth() != kFastDepth && parser.allocate(body.size(), kFastDepth)) return {};
  dom::element root;
  if (parser.parse(body.data(), body.size(), true).get(root)) return {};
  TaskPageSax sax(account, job);
  if (!feed(root, sax)) return Result<TaskPage>(*sax.error_);
  return Result<TaskPage>(std::move(sax.page_));
}

// The page through nlohmann's SAX parser, with its limits and messages.
Result<TaskPage> parse_exact(std::string_view body, const std::string& account,
                             const std::string& job) try {
  TY_TRY(detail::check_body_limits(body));
  TaskPageSax sax(account, job);
  const bool ok = nlohmann::json::sax_parse(body.begin(), body.end(), &sax,
                                            nlohmann::json::input_format_t::json);
  if (sax.error_) return *sax.error_;
  if (!ok) return make_error(ErrorKind::Parse, "not JSON");
  return std::move(sax.page_);
} catch (const std::exception& e) {
  return make_error(ErrorKind::Parse, fmt::format("unreadable JSON: {}", e.what()));
}

}  // namespace

Result<TaskPage> parse_task_page(std::string_view body, const std::string& account,
                                 const std::string& job) {
  if (body.size() <= kMaxBodyBytes) {
    if (auto fast = parse_fast(body, account, job)) return std::move(*fast);
  }
  return parse_exact(body, account, job);
}

}  // namespace trainyard::azure
