#include "azure/pool_spec.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/text.hpp"

namespace trainyard::azure {
namespace {

std::vector<std::string> split_colons(const std::string& text) {
  std::vector<std::string> parts;
  for (std::size_t pos = 0; pos <= text.size();) {
    auto colon = std::min(text.find(':', pos), text.size());
    parts.push_back(text.substr(pos, colon - pos));
    pos = colon + 1;
  }
  return parts;
}

}  // namespace

Result<nlohmann::json> marketplace_image(const std::string& text) {
  auto parts = split_colons(text);
  bool empty_part = std::any_of(parts.begin(), parts.end(), [](auto& p) { return p.empty(); });
  if (parts.size() < 3 || parts.size() > 4 || empty_part)
    return make_error(ErrorKind::Usage,
                      fmt::format("image '{}': expected publisher:offer:sku[:version]", text));
  return nlohmann::json{{"publisher", parts[0]},
                        {"offer", parts[1]},
                        {"sku", parts[2]},
                        {"version", parts.size() == 4 ? parts[3] : "latest"}};
}

nlohmann::json pool_draft(const PoolSpec& s) {
  auto market = s.image.empty() ? Result<nlohmann::json>(make_error(ErrorKind::Usage, ""))
                                : marketplace_image(s.image);
  nlohmann::json image = market
                             ? *market
                             : nlohmann::json{{"virtualMachineImageId",
                                               s.custom_image.empty() ? s.image : s.custom_image}};
  nlohmann::json body{{"id", s.id},
                      {"vmSize", s.vm_size},
                      {"virtualMachineConfiguration",
                       {{"imageReference", image}, {"nodeAgentSKUId", s.node_agent_sku}}}};
  if (s.dedicated) body["targetDedicatedNodes"] = *s.dedicated;
  if (s.spot) body["targetLowPriorityNodes"] = *s.spot;
  if (s.task_slots) body["taskSlotsPerNode"] = *s.task_slots;
  if (!s.start_task.empty())
    body["startTask"] = {{"commandLine", s.start_task}, {"waitForSuccess", true}};
  return body;
}

Result<nlohmann::json> pool_body(const PoolSpec& s) {
  if (s.id.empty() || s.vm_size.empty())
    return make_error(ErrorKind::Usage, "a pool needs an id and a VM size");
  if (s.image.empty() == s.custom_image.empty())
    return make_error(ErrorKind::Usage, "a pool needs one of a marketplace or a custom image");
  if (s.node_agent_sku.empty())
    return make_error(ErrorKind::Usage, "a pool needs a node agent SKU (see pool images)");
  if (!s.image.empty()) {
    auto m = marketplace_image(s.image);
    if (!m) return m.error();
  }
  return pool_draft(s);
}

std::optional<SupportedImage> find_image(const std::vector<SupportedImage>& images,
                                         const std::string& image) {
  auto parts = split_colons(image);
  if (parts.size() < 3) return std::nullopt;
  for (const auto& i : images)
    if (iequals(i.publisher, parts[0]) && iequals(i.offer, parts[1]) && iequals(i.sku, parts[2]))
      return i;
  return std::nullopt;
}

}  // namespace trainyard::azure
