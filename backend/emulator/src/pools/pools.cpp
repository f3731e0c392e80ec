// Pools: add, list, get, patch, delete, resize, stopresize, removenodes, autoscale; node counts.
#include <fmt/format.h>

#include "emulator/autoscale.hpp"
#include "local/engine.hpp"
#include "pool_api.hpp"

namespace trainyard::emu {

namespace {

// Properties a client may set on a pool and that come back as given.
const char* const kPoolSpecProperties[] = {
    "displayName",
    "vmSize",
    "cloudServiceConfiguration",
    "virtualMachineConfiguration",
    "resizeTimeout",
    "enableInterNodeCommunication",
    "networkConfiguration",
    "startTask",
    "certificateReferences",
    "applicationPackageReferences",
    "applicationLicenses",
    "userAccounts",
    "metadata",
    "mountConfiguration",
    "taskSchedulingPolicy",
    "resourceTags",
    "targetNodeCommunicationMode",
    "upgradePolicy",
    "identity",
};

bool is_spec_property(const std::string& k) {
  for (const char* p : kPoolSpecProperties) {
    if (k == p) return true;
  }
  return false;
}

int non_negative_int(const nlohmann::json& body, const char* name, bool& bad) {
  if (!body.contains(name) || body[name].is_null()) return 0;
  if (!body[name].is_number_integer() || body[name].get<int64_t>() < 0 ||
      body[name].get<int64_t>() > 10000) {
    bad = true;
    return 0;
  }
  return body[name].get<int>();
}

}  // namespace

void PoolApi::add_pool(Call& c) {
  nlohmann::json body;
  if (!c.body_object(body)) return;
  if (!body.contains("id") || !body["id"].is_string())
    return bad_property(c, errors::kMissingRequiredProperty, "id");
  if (!body.contains("vmSize") || !body["vmSize"].is_string()) {
    return bad_property(c, errors::kMissingRequiredProperty, "vmSize");
  }
  PoolEntity p;
  p.id = body["id"].get<std::string>();
  if (!is_valid_batch_id(p.id)) return bad_property(c, errors::kInvalidPropertyValue, "id");
  bool bad = false;
  p.target_dedicated = non_negative_int(body, "targetDedicatedNodes", bad);
  p.target_low_priority = non_negative_int(body, "targetLowPriorityNodes", bad);
  if (bad) return bad_property(c, errors::kInvalidPropertyValue, "targetDedicatedNodes");
  int slots = body.value("taskSlotsPerNode", body.value("maxTasksPerNode", 1));
  if (slots < 1 || slots > 256)
    return bad_property(c, errors::kInvalidPropertyValue, "taskSlotsPerNode");
  p.task_slots_per_node = slots;
  p.auto_scale = body.value("enableAutoScale", false);
  if (p.auto_scale) {
    p.auto_scale_formula = body.value("autoScaleFormula", "");
    if (p.auto_scale_formula.empty())
      return bad_property(c, errors::kMissingRequiredProperty, "autoScaleFormula");
    p.auto_scale_interval = body.value("autoScaleEvaluationInterval", "PT15M");
  }
  for (auto& [k, v] : body.items()) {
    if (is_spec_property(k)) p.spec[k] = v;
  }
  // CloudPool.resizeTimeout: the timeout of the latest resize (creation counts), default 15 min.
  if (!p.spec.contains("resizeTimeout") || !p.spec["resizeTimeout"].is_string())
    p.spec["resizeTimeout"] = "PT15M";
  std::unique_lock lock(account_.mu_);
  if (account_.pools_.count(p.id)) return c.error(errors::kPoolExists);
  touch(p, c.now);
  p.state_time = p.alloc_time = c.now;
  p.alloc = AllocState::Resizing;
  if (p.auto_scale) {
    AutoscaleInputs in;
    auto run = evaluate_autoscale(p.auto_scale_formula, in);
    p.target_dedicated = run.target_dedicated.value_or(0);
    p.target_low_priority = run.target_low_priority.value_or(0);
    p.auto_scale_run = {{"timestamp", format_time(c.now)}, {"results", run.results}};
    p.auto_scale_enabled_at = c.now;
  }
  const std::string url = account_.base_url_ + "/pools/" + p.id;
  c.version_headers(p);
  account_.pools_.emplace(p.id, std::move(p));
  ++account_.changes_;
  c.empty(201, url);
}

void PoolApi::list_pools(Call& c) {
  ListQuery q;
  if (!read_list_query(c, ListKind::Pools, q)) return;
  std::shared_lock lock(account_.mu_);
  std::string body = page_start(account_.base_url_, "pools");
  auto keep = [&](const auto& entry) {
    const PoolEntity& p = entry.second;
    auto get = [&](std::string_view prop) -> FilterValue {
      if (prop == "id") return p.id;
      if (prop == "state") return std::string(wire(p.state));
      if (prop == "allocationState") return std::string(wire(p.alloc));
      if (prop == "vmSize") return p.spec.value("vmSize", "");
      if (prop == "creationTime") return from_micros(p.creation);
      if (prop == "lastModified") return from_micros(p.last_modified);
      if (prop == "stateTransitionTime") return from_micros(p.state_time);
      return {};
    };
    return q.filter.matches(get);
  };
  auto write = [&](const auto& entry, std::string& out) {
    out += render_pool(entry.second, q.select);
  };
  send_page(c, body, fill_map_page(body, q, account_.pools_, keep, write));
}

void PoolApi::get_pool(Call& c, const std::string& id) {
  std::shared_lock lock(account_.mu_);
  auto* p = account_.find_pool(c, id);
  if (!p || !c.conditions_pass(*p, false)) return;
  c.version_headers(*p);
  if (c.req.method == "HEAD") return c.empty(200);
  c.json(200, render_pool(*p, Select::parse(c.param("$select"))));
}

void PoolApi::patch_pool(Call& c, const std::string& id, bool replace) {
  nlohmann::json body;
  if (!c.body_object(body)) return;
  std::unique_lock lock(account_.mu_);
  auto* p = account_.find_pool(c, id);
  if (!p || !c.conditions_pass(*p, true)) return;
  if (p->state == PoolState::Deleting) return c.error(errors::kPoolBeingDeleted);
  // PATCH changes what it names; updateproperties replaces the updatable set whole.
  for (const char* k : {"startTask", "certificateReferences", "applicationPackageReferences",
                        "metadata", "targetNodeCommunicationMode"}) {
    if (body.contains(k))
      p->spec[k] = body[k];
    else if (replace)
      p->spec.erase(k);
  }
  touch(*p, c.now);
  ++account_.changes_;
  c.version_headers(*p);
  c.empty(replace ? 204 : 200, account_.base_url_ + "/pools/" + id);
}

void PoolApi::delete_pool(Call& c, const std::string& id) {
  std::unique_lock lock(account_.mu_);
  auto* p = account_.find_pool(c, id);
  if (!p || !c.conditions_pass(*p, true)) return;
  if (p->state != PoolState::Deleting) {
    p->state = PoolState::Deleting;
    p->state_time = c.now;
    p->target_dedicated = p->target_low_priority = 0;
    p->auto_scale = false;
    p->alloc = AllocState::Resizing;
    p->alloc_time = c.now;
    touch(*p, c.now);
    ++account_.changes_;
  }
  c.empty(202);
}

void PoolApi::pool_action(Call& c, const std::string& id, const std::string& action) {
  std::unique_lock lock(account_.mu_);
  auto* p = account_.find_pool(c, id);
  if (!p || !c.conditions_pass(*p, true)) return;
  if (p->state == PoolState::Deleting) {
    return c.error(errors::kPoolBeingDeleted);
  }
  if (action == "resize") return resize_pool(c, *p);
  if (action == "removenodes") return remove_nodes(c, *p);
  if (action == "updateproperties") {
    lock.unlock();
    return patch_pool(c, id, true);
  }
  if (action == "stopresize") {
    if (p->alloc == AllocState::Resizing) {
      p->alloc = AllocState::Stopping;
      p->alloc_time = c.now;
      touch(*p, c.now);
      ++account_.changes_;
    }
    return c.empty(202);
  }
  autoscale_action(c, *p, action);
}

void PoolApi::resize_pool(Call& c, PoolEntity& p) {
  nlohmann::json body;
  if (!c.body_object(body)) return;
  if (p.auto_scale) {
    return c.error(errors::kAutoScalingEnabled);
  }
  if (p.alloc != AllocState::Steady) {
    return c.error(errors::kPoolNotSteady);
  }
  bool bad = false;
  int dedicated = body.contains("targetDedicatedNodes")
                      ? non_negative_int(body, "targetDedicatedNodes", bad)
                      : p.target_dedicated;
  int low = body.contains("targetLowPriorityNodes")
                ? non_negative_int(body, "targetLowPriorityNodes", bad)
                : p.target_low_priority;
  if (bad) return bad_property(c, errors::kInvalidPropertyValue, "targetDedicatedNodes");
  p.target_dedicated = dedicated;
  p.target_low_priority = low;
  p.alloc = AllocState::Resizing;
  p.alloc_time = c.now;
  p.resize_errors = nlohmann::json::array();
  p.spec["resizeTimeout"] = body.contains("resizeTimeout") && body["resizeTimeout"].is_string()
                                ? body["resizeTimeout"]
                                : nlohmann::json("PT15M");
  touch(p, c.now);
  ++account_.changes_;
  c.empty(202, account_.base_url_ + "/pools/" + p.id);
}

void PoolApi::remove_nodes(Call& c, PoolEntity& p) {
  nlohmann::json body;
  if (!c.body_object(body)) return;
  if (!body.contains("nodeList") || !body["nodeList"].is_array()) {
    return bad_property(c, errors::kMissingRequiredProperty, "nodeList");
  }
  if (body["nodeList"].empty() || body["nodeList"].size() > 100) {
    return bad_property(c, errors::kInvalidPropertyValue, "nodeList", "between 1 and 100 node ids");
  }
  if (p.alloc != AllocState::Steady) return c.error(errors::kPoolNotSteady);
  for (const auto& id : body["nodeList"]) {
    auto it = id.is_string() ? account_.nodes_.find(id.get<std::string>()) : account_.nodes_.end();
    if (it == account_.nodes_.end() || it->second.pool_id != p.id) {
      return c.error(errors::kNodeNotFound,
                     {{"NodeId", id.is_string() ? id.get<std::string>() : id.dump()}});
    }
  }
  for (const auto& id : body["nodeList"]) {
    auto& n = account_.nodes_[id.get<std::string>()];
    n.leaving = true;
    (n.dedicated ? p.target_dedicated : p.target_low_priority) -= 1;
  }
  p.target_dedicated = std::max(0, p.target_dedicated);
  p.target_low_priority = std::max(0, p.target_low_priority);
  p.alloc = AllocState::Resizing;
  p.alloc_time = c.now;
  touch(p, c.now);
  ++account_.changes_;
  c.empty(202, account_.base_url_ + "/pools/" + p.id);
}

}  // namespace trainyard::emu
