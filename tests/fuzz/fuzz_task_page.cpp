// libFuzzer: task list pages through the streaming parser (parse_task_page), held to the DOM one
// (parse_list_page + parse_task): where the DOM parser refuses a task, so does the streaming one;
// where it reads every task, the streaming one reads the same tasks and link from the page, or
// refuses a member given twice and reads them from the page written again without duplicates.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "../azure/task_compare.hpp"
#include "azure/parse.hpp"
#include "azure/task_page.hpp"

using namespace trainyard;
using namespace trainyard::azure;

namespace {

// The DOM parser's reading of the whole page; nullopt when it refuses any of it.
std::optional<TaskPage> dom_page(std::string_view body) {
  auto p = parse_list_page(body);
  if (!p) return std::nullopt;
  TaskPage out{{}, p->next_link};
  for (const auto& item : p->items) {
    auto t = parse_task(item, "acct", "job");
    if (!t) return std::nullopt;
    out.tasks.push_back(std::move(*t));
  }
  return out;
}

bool same(const TaskPage& a, const TaskPage& b) {
  if (a.tasks.size() != b.tasks.size() || a.next_link != b.next_link) return false;
  for (size_t i = 0; i < a.tasks.size(); ++i)
    if (!azuretest::first_difference(a.tasks[i], b.tasks[i]).empty()) return false;
  return true;
}

// The page as the DOM holds it (each member once), or "" when it cannot be written (not UTF-8).
std::string written_again(std::string_view body) {
  try {
    auto doc = parse_json_body(body);
    return doc ? doc->dump() : "";
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  auto sax = parse_task_page(body, "acct", "job");
  auto dom = dom_page(body);
  if (!dom) {
    if (sax) __builtin_trap();  // the streaming parser missed a check
    return 0;
  }
  if (sax && !same(*dom, *sax)) __builtin_trap();
  if (!sax) {
    const std::string again = written_again(body);
    if (again.empty()) return 0;
    auto reread = parse_task_page(again, "acct", "job");
    if (!reread || !same(*dom, *reread)) __builtin_trap();
  }
  return 0;
}
