// What a task was set up with, among its detail facts: retries and requeues, the time limit,
// environment, resource files (inputs) and output files.
#include <algorithm>
#include <cctype>
#include <chrono>

#include <fmt/format.h>

#include "azure/http.hpp"
#include "core/sanitizer.hpp"
#include "core/text.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

// Most rows one file list takes; the rest is counted (`ls tasks --json` has them all).
constexpr size_t kMaxFileRows = 4;

// `6h`, `2h30m`, `1d12h`: exact, unlike a table's age.
std::string limit_text(Duration d) {
  auto s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
  std::string out;
  for (auto [unit, size] : {std::pair{'d', int64_t{86400}}, std::pair{'h', int64_t{3600}},
                            std::pair{'m', int64_t{60}}, std::pair{'s', int64_t{1}}}) {
    if (s < size) continue;
    out += fmt::format("{}{}", s / size, unit);
    s %= size;
  }
  return out.empty() ? "0s" : out;
}

// Where a resource file comes from; a container source names the blobs it takes. A URL shows
// without its query: a SAS there is a secret.
std::string source_of(const ResourceFile& f) {
  if (!f.http_url.empty()) return azure::redact_url(f.http_url);
  std::string container = !f.storage_container_url.empty()
                              ? azure::redact_url(f.storage_container_url)
                              : "autostorage:" + f.auto_storage_container_name;
  return container + "/" + f.blob_prefix + "*";
}

// One row per item under `label` (continuation rows unlabelled), cut at kMaxFileRows.
template <typename T>
void add_list(Facts& rows, const std::string& label, const std::vector<T>& items,
              std::string (*line)(const T&)) {
  for (size_t i = 0; i < items.size() && i < kMaxFileRows; ++i) {
    bool cut = i + 1 == kMaxFileRows && items.size() > kMaxFileRows;
    rows.push_back({i == 0 ? label : "",
                    cut ? fmt::format("+{} more (ls tasks --json lists them)", items.size() - i)
                        : sanitize_text(line(items[i]))});
  }
}

std::string env_text(const std::vector<NameValue>& env) {
  std::string out;
  for (const auto& nv : env) out += (out.empty() ? "" : "  ") + nv.name + "=" + nv.value;
  return sanitize_text(out);
}

}  // namespace

std::string input_line(const ResourceFile& f) {
  return fmt::format("{} \u2190 {}", f.file_path.empty() ? "." : f.file_path, source_of(f));
}

// uploadCondition in words; taskcompletion is Batch's default.
std::string condition_text(const std::string& condition) {
  auto c = ascii_lowercase(condition);
  if (c == "tasksuccess") return "on success";
  if (c == "taskfailure") return "on failure";
  return "always";
}

std::string output_line(const OutputFile& f) {
  std::string dest = azure::redact_url(f.container_url) + (f.path.empty() ? "" : "/" + f.path);
  return fmt::format("{} \u2192 {} ({})", f.file_pattern, dest, condition_text(f.upload_condition));
}

std::string retries_text(const Task& t) {
  int max = t.constraints.max_task_retry_count;
  auto out = fmt::format("{} of {}", t.execution_info.retry_count,
                         max < 0 ? std::string("unlimited") : std::to_string(max));
  // Only Batch requeues (a preempted or removed node); a local task never is.
  if (t.account != kLocalAccount)
    out += fmt::format(" \u00b7 requeues {}", t.execution_info.requeue_count);
  return out;
}

void add_setup_facts(const Task& t, Facts& rows) {
  if (const auto& limit = t.constraints.max_wall_clock_time) {
    auto retries = std::find_if(rows.begin(), rows.end(),
                                [](const auto& row) { return row.first == "retries"; });
    auto at = retries == rows.end() ? rows.end() : retries + 1;
    rows.insert(at, {"time limit", limit_text(*limit)});
  }
  if (!t.environment_settings.empty()) rows.push_back({"env", env_text(t.environment_settings)});
  add_list(rows, "inputs", t.resource_files, input_line);
  add_list(rows, "outputs", t.output_files, output_line);
}

}  // namespace trainyard
