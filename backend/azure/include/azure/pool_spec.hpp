// A new pool as the CLI flags and the TUI form describe it, and the Batch body it becomes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "azure/batch_actions.hpp"
#include "core/result.hpp"

namespace trainyard::azure {

/// The fields a user gives for a new pool.
struct PoolSpec {
  std::string id;
  std::string vm_size;
  std::string image;           ///< marketplace `publisher:offer:sku[:version]`
  std::string custom_image;    ///< a custom image's resource id (instead of `image`)
  std::string node_agent_sku;  ///< empty: looked up in supportedimages for `image`
  std::optional<int> dedicated, spot, task_slots;
  std::string start_task;  ///< a command line run on each node before tasks (waited for)
};

/// `publisher:offer:sku[:version]` as an imageReference (version `latest` when left out); a
/// Usage error naming the text otherwise.
Result<nlohmann::json> marketplace_image(const std::string& text);

/// The pool's Batch body as given, unchecked (what an editor starts from): a marketplace image
/// that does not parse is written as a custom image id.
nlohmann::json pool_draft(const PoolSpec& spec);

/// The pool's Batch body (wire names); a Usage error when a required field is missing.
Result<nlohmann::json> pool_body(const PoolSpec& spec);

/// The supported image `spec.image` names (publisher, offer and sku compared
/// case-insensitively), or nullopt.
std::optional<SupportedImage> find_image(const std::vector<SupportedImage>& images,
                                         const std::string& image);

}  // namespace trainyard::azure
