// libFuzzer: job specs in the three formats (Azure Batch JSON, Batch AI job.json, Shipyard
// jobs.yaml); the first byte picks the parser.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "spec/batch_ai.hpp"
#include "spec/batch_json.hpp"
#include "spec/shipyard.hpp"

using namespace trainyard::spec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0:
      (void)parse_batch_json("fuzz.json", text, BatchJsonOptions{});
      break;
    case 1:
      (void)parse_batch_ai_json("job.json", text, BatchAiOptions{});
      break;
    default: {
      ShipyardOptions o;
      o.pool_node_count = 4;
      // The product's cap is 1,000,000 tasks a job; expanding that many is correct but slow, so
      // the fuzzer explores the parser with a smaller cap, since a 16 KB input can hold many jobs
      // each expanding to the cap (the cap's own check is the same code).
      o.max_tasks = 500;
      (void)parse_shipyard_jobs(text, "jobs.yaml", o);
    }
  }
  return 0;
}
