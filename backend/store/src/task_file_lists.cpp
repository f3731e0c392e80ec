// A task's resourceFiles and outputFiles in their tasks-table columns: a compact JSON array
// each (positional fields), NULL when the list is empty, so a task costs no extra statements.
#include <nlohmann/json.hpp>

#include "task_rows.hpp"

namespace trainyard::detail {
namespace {

using nlohmann::json;

// The string at `i` of a stored array; empty when absent (a column written by a newer layout).
std::string at(const json& a, size_t i) {
  return i < a.size() && a[i].is_string() ? a[i].get<std::string>() : std::string();
}

json headers_json(const std::vector<NameValue>& headers) {
  json out = json::array();
  for (const auto& h : headers) out.push_back({h.name, h.value});
  return out;
}

std::vector<NameValue> headers_from(const json& a) {
  std::vector<NameValue> out;
  if (!a.is_array()) return out;
  for (const auto& h : a) out.push_back({at(h, 0), at(h, 1)});
  return out;
}

// The rows of a stored list; empty when the text is not one (never written so by the store).
json parsed_list(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  return j.is_array() ? j : json::array();
}

}  // namespace

std::optional<std::string> encode_resource_files(const std::vector<ResourceFile>& files) {
  if (files.empty()) return std::nullopt;
  json out = json::array();
  for (const auto& f : files) {
    out.push_back({f.http_url, f.storage_container_url, f.auto_storage_container_name,
                   f.blob_prefix, f.file_path, f.file_mode, f.identity});
  }
  // Invalid UTF-8 from the service is kept as U+FFFD rather than failing the whole task.
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<ResourceFile> decode_resource_files(const std::string& text) {
  std::vector<ResourceFile> out;
  for (const auto& r : parsed_list(text))
    out.push_back({at(r, 0), at(r, 1), at(r, 2), at(r, 3), at(r, 4), at(r, 5), at(r, 6)});
  return out;
}

std::optional<std::string> encode_output_files(const std::vector<OutputFile>& files) {
  if (files.empty()) return std::nullopt;
  json out = json::array();
  for (const auto& f : files) {
    out.push_back({f.file_pattern, f.container_url, f.path, f.identity, f.upload_condition,
                   headers_json(f.upload_headers)});
  }
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<OutputFile> decode_output_files(const std::string& text) {
  std::vector<OutputFile> out;
  for (const auto& r : parsed_list(text)) {
    OutputFile f;
    f.file_pattern = at(r, 0);
    f.container_url = at(r, 1);
    f.path = at(r, 2);
    f.identity = at(r, 3);
    f.upload_condition = at(r, 4);
    if (r.is_array() && r.size() > 5) f.upload_headers = headers_from(r[5]);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace trainyard::detail
