// libFuzzer: Batch REST response bodies through every entity parser (list pages of pools,
// nodes, jobs, tasks and subtasks, task and node counts, add-collection results).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "azure/parse.hpp"

using namespace trainyard::azure;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  (void)parse_task_counts(body);
  (void)parse_task_add_results(body);
  auto page = parse_list_page(body);
  if (!page) return 0;
  for (const auto& item : page->items) {
    (void)parse_pool(item, "acct");
    (void)parse_node(item, "acct", "pool");
    (void)parse_job(item, "acct");
    (void)parse_task(item, "acct", "job");
    (void)parse_subtask(item);
    (void)parse_pool_node_counts(item);
  }
  return 0;
}
