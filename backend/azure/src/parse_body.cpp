// Whole response bodies: the JSON limits, list pages, Batch errors and addtaskcollection results.
#include <cctype>

#include <fmt/format.h>

#include "azure/parse.hpp"
#include "core/text.hpp"
#include "parse_values.hpp"

namespace trainyard::azure {
namespace {

using nlohmann::json;

// Byte (counted from 1) where nesting first goes past kMaxJsonDepth, or 0. Checked before parsing
// so a hostile body cannot make the recursive parts of nlohmann (dump, destruction) blow the stack.
std::size_t too_deep_at(std::string_view body) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth) return i + 1;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return 0;
}

// A message without the "\nRequestId:…\nTime:…" lines Batch appends (they differ per request).
std::string strip_request_lines(std::string text) {
  for (const char* marker : {"\nRequestId:", "\nTime:"}) {
    auto at = text.find(marker);
    if (at != std::string::npos) text.erase(at);
  }
  while (!text.empty() && (text.back() == '\r' || text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

// `message` is `{"lang":…,"value":…}` from Batch; a plain string is taken too (other services).
std::string read_message(const JsonFields& f) {
  std::string text;
  const json* m = f.member("message");
  if (m && m->is_string())
    f.get("message", text);
  else
    f.child("message").get("value", text);
  return strip_request_lines(std::move(text));
}

// `values` entries are `{key,value}` from Batch; `{name,value}` (the SDK models' spelling) too.
std::vector<NameValue> read_values(const JsonFields& f) {
  std::vector<NameValue> out;
  const json* list = f.array("values");
  for (std::size_t i = 0; list && i < list->size(); ++i) {
    JsonFields item = f.element("values", i);
    NameValue nv;
    if (item.has("name"))
      item.get("name", nv.name);
    else
      item.require("key", nv.name);
    item.get("value", nv.value);
    out.push_back(std::move(nv));
  }
  return out;
}

BatchError read_batch_error(const JsonFields& f) {
  BatchError e;
  f.require("code", e.code);
  e.message = read_message(f);
  e.values = read_values(f);
  return e;
}

// Batch sends the error at the top level; ARM and OData services wrap it in `error` or
// `odata.error`, so a body without `code` is looked into once.
JsonFields error_fields(const JsonFields& root) {
  for (const char* wrapper : {"odata.error", "error"}) {
    if (!root.has("code") && root.has(wrapper)) return root.child(wrapper);
  }
  return root;
}

// Unknown statuses read as servererror: not a success, and not known to be the caller's fault,
// so the caller retries the task rather than dropping it.
TaskAddStatus add_status(const std::string& text) {
  const std::string lower = ascii_lowercase(text);
  if (lower == "success") return TaskAddStatus::Success;
  if (lower == "clienterror") return TaskAddStatus::ClientError;
  return TaskAddStatus::ServerError;
}

TaskAddResult read_add_result(const JsonFields& f) {
  TaskAddResult r;
  std::string status;
  f.require("taskId", r.task_id);
  f.require("status", status);
  r.status = add_status(status);
  f.get("eTag", r.etag);
  if (f.has("error")) r.error = read_batch_error(f.child("error"));
  return r;
}

}  // namespace

Result<void> detail::check_body_limits(std::string_view body) {
  if (body.size() > kMaxBodyBytes) {
    return make_error(ErrorKind::Parse, fmt::format("body is {} bytes, over the {} MiB limit",
                                                    body.size(), kMaxBodyBytes >> 20));
  }
  if (std::size_t at = too_deep_at(body)) {
    return make_error(ErrorKind::Parse,
                      fmt::format("nested deeper than {} levels at byte {}", kMaxJsonDepth, at));
  }
  return {};
}

Result<json> parse_json_body(std::string_view body) try {
  TY_TRY(detail::check_body_limits(body));
  return json::parse(body);
} catch (const json::parse_error& e) {
  return make_error(ErrorKind::Parse, fmt::format("not JSON at byte {}", e.byte));
} catch (const std::exception& e) {
  return detail::unreadable_json(e);
}

Result<ListPage> parse_list_page(std::string_view body) try {
  auto doc = parse_json_body(body);
  if (!doc) return doc.error();
  std::optional<Error> err;
  JsonFields f(*doc, "", err);
  ListPage page;
  if (f.ok() && !f.has("value")) f.fail("value", "missing");
  f.array("value");
  f.get("odata.nextLink", page.next_link);
  if (err) return *err;
  page.items = std::move(doc->at("value").get_ref<json::array_t&>());
  return page;
} catch (const std::exception& e) {
  return detail::unreadable_json(e);
}

Result<BatchError> parse_batch_error(std::string_view body) try {
  auto doc = parse_json_body(body);
  if (!doc) return doc.error();
  std::optional<Error> err;
  BatchError e = read_batch_error(error_fields(JsonFields(*doc, "", err)));
  if (err) return *err;
  return e;
} catch (const std::exception& e) {
  return detail::unreadable_json(e);
}

Result<std::vector<TaskAddResult>> parse_task_add_results(std::string_view body) try {
  auto page = parse_list_page(body);
  if (!page) return page.error();
  std::optional<Error> err;
  std::vector<TaskAddResult> out;
  out.reserve(page->items.size());
  for (std::size_t i = 0; i < page->items.size() && !err; ++i)
    out.push_back(read_add_result(JsonFields(page->items[i], "/value/" + std::to_string(i), err)));
  if (err) return *err;
  return out;
} catch (const std::exception& e) {
  return detail::unreadable_json(e);
}

}  // namespace trainyard::azure
