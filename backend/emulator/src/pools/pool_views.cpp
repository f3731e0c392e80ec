// Pool rendering, autoscale actions, account node counts and supported images.
#include <algorithm>

#include <fmt/format.h>

#include "emulator/autoscale.hpp"
#include "pool_api.hpp"

namespace trainyard::emu {

namespace {

struct NodeTally {
  int current_dedicated = 0;
  int current_low = 0;
};

nlohmann::json empty_counts() {
  nlohmann::json c;
  for (const char* k :
       {"creating", "idle", "offline", "preempted", "rebooting", "reimaging", "running", "starting",
        "startTaskFailed", "leavingPool", "unknown", "unusable", "waitingForStartTask",
        "deallocated", "deallocating", "upgradingOS", "total"}) {
    c[k] = 0;
  }
  return c;
}

// Node states as the camelCase keys of nodecounts.
const char* count_key(NodeState s) {
  switch (s) {
    case NodeState::WaitingForStartTask:
      return "waitingForStartTask";
    case NodeState::StartTaskFailed:
      return "startTaskFailed";
    case NodeState::LeavingPool:
      return "leavingPool";
    default:
      return wire(s);
  }
}

}  // namespace

std::string PoolApi::render_pool(const PoolEntity& p, const Select& s) const {
  NodeTally t;
  for (const auto& [id, n] : account_.nodes_) {
    if (n.pool_id != p.id || n.state == NodeState::LeavingPool) continue;
    (n.dedicated ? t.current_dedicated : t.current_low) += 1;
  }
  std::string out;
  JsonOut j(out, &s);
  j.begin_object();
  j.str("id", p.id);
  if (p.spec.contains("displayName")) j.json("displayName", p.spec["displayName"]);
  j.str("url", account_.base_url_ + "/pools/" + p.id);
  j.str("eTag", p.etag);
  j.when("lastModified", p.last_modified);
  j.when("creationTime", p.creation);
  j.str("state", wire(p.state));
  j.when("stateTransitionTime", p.state_time);
  j.str("allocationState", wire(p.alloc));
  j.when("allocationStateTransitionTime", p.alloc_time);
  for (auto& [k, v] : p.spec.items()) {
    if (k != "displayName") j.json(k, v);
  }
  if (!p.resize_errors.empty()) j.json("resizeErrors", p.resize_errors);
  j.num("currentDedicatedNodes", t.current_dedicated);
  j.num("currentLowPriorityNodes", t.current_low);
  j.num("targetDedicatedNodes", p.target_dedicated);
  j.num("targetLowPriorityNodes", p.target_low_priority);
  j.flag("enableAutoScale", p.auto_scale);
  if (p.auto_scale) {
    j.str("autoScaleFormula", p.auto_scale_formula);
    j.str("autoScaleEvaluationInterval", p.auto_scale_interval);
    j.json("autoScaleRun", p.auto_scale_run);
  }
  if (!p.spec.contains("enableInterNodeCommunication"))
    j.flag("enableInterNodeCommunication", false);
  j.num("taskSlotsPerNode", p.task_slots_per_node);
  if (!p.spec.contains("taskSchedulingPolicy"))
    j.json("taskSchedulingPolicy", {{"nodeFillType", "spread"}});
  j.str("currentNodeCommunicationMode", "simplified");
  j.end_object();
  return out;
}

void PoolApi::autoscale_action(Call& c, PoolEntity& p, const std::string& action) {
  nlohmann::json body = nlohmann::json::object();
  if (action != "disableautoscale" && !c.body_object(body)) return;
  if (action == "disableautoscale") {
    p.auto_scale = false;
    p.auto_scale_formula.clear();
    p.auto_scale_run = nullptr;
    touch(p, c.now);
    ++account_.changes_;
    return c.empty(200, account_.base_url_ + "/pools/" + p.id);
  }
  AutoscaleInputs in;
  int active = 0, running = 0;
  for (const auto& [id, j] : account_.jobs_) {
    if (j.pool_id != p.id) continue;
    active += static_cast<int>(j.pending.size());
    running += static_cast<int>(j.running.size());
  }
  in.active_tasks = active;
  in.running_tasks = running;
  in.pending_tasks = active + running;
  in.target_dedicated = p.target_dedicated;
  in.target_low_priority = p.target_low_priority;
  for (const auto& [id, n] : account_.nodes_) {
    if (n.pool_id == p.id) (n.dedicated ? in.current_dedicated : in.current_low_priority) += 1;
  }
  const std::string formula = body.value("autoScaleFormula", p.auto_scale_formula);
  if (action == "evaluateautoscale") {
    if (!p.auto_scale) {
      return c.error(errors::kAutoScalingNotEnabled);
    }
    if (formula.empty())
      return bad_property(c, errors::kMissingRequiredProperty, "autoScaleFormula");
  } else if (formula.empty()) {
    return bad_property(c, errors::kMissingRequiredProperty, "autoScaleFormula");
  } else if (p.auto_scale && p.auto_scale_enabled_at &&
             c.now - p.auto_scale_enabled_at < 30'000'000) {
    return c.error(errors::kAutoScaleTooFrequent);
  }
  auto run = evaluate_autoscale(formula, in);
  nlohmann::json out{{"timestamp", format_time(c.now)}, {"results", run.results}};
  if (!run.error_code.empty()) {
    out["error"] = {
        {"code", run.error_code},
        {"message", run.error_summary},
        {"values", nlohmann::json::array({{{"name", "Message"}, {"value", run.error_message}}})}};
  }
  if (action == "evaluateautoscale") return c.json(200, out.dump());
  if (!run.error_code.empty()) {
    return c.error(400, run.error_code, run.error_summary, {{"Message", run.error_message}});
  }
  p.auto_scale = true;
  p.auto_scale_formula = formula;
  p.auto_scale_interval = body.value("autoScaleEvaluationInterval", p.auto_scale_interval);
  p.auto_scale_run = out;
  p.auto_scale_enabled_at = c.now;
  p.target_dedicated = run.target_dedicated.value_or(p.target_dedicated);
  p.target_low_priority = run.target_low_priority.value_or(p.target_low_priority);
  if (p.alloc == AllocState::Steady) {
    p.alloc = AllocState::Resizing;
    p.alloc_time = c.now;
  }
  touch(p, c.now);
  ++account_.changes_;
  c.empty(200, account_.base_url_ + "/pools/" + p.id);
}

void PoolApi::node_counts(Call& c) {
  ListQuery q;
  if (!read_list_query(c, ListKind::NodeCounts, q)) return;
  std::shared_lock lock(account_.mu_);
  std::string body = page_start(account_.base_url_, "poolnodecounts");
  auto keep = [&](const auto& entry) {
    auto get = [&](std::string_view prop) -> FilterValue {
      if (prop == "poolId") return entry.first;
      return {};
    };
    return q.filter.matches(get);
  };
  auto write = [&](const std::pair<const std::string, PoolEntity>& entry, std::string& out) {
    const PoolEntity& p = entry.second;
    nlohmann::json dedicated = empty_counts(), low = empty_counts();
    for (const auto& [id, node] : account_.nodes_) {
      if (node.pool_id != p.id) continue;
      auto& counts = node.dedicated ? dedicated : low;
      counts[count_key(node.state)] = counts[count_key(node.state)].get<int>() + 1;
      counts["total"] = counts["total"].get<int>() + 1;
    }
    out += nlohmann::json{{"poolId", p.id}, {"dedicated", dedicated}, {"lowPriority", low}}.dump();
  };
  send_page(c, body, fill_map_page(body, q, account_.pools_, keep, write));
}

void PoolApi::supported_images(Call& c) {
  ListQuery q;
  if (!read_list_query(c, ListKind::SupportedImages, q)) return;
  struct Image {
    const char* sku;
    const char* publisher;
    const char* offer;
    const char* image_sku;
    const char* capabilities;
    const char* end_of_life;  // batchSupportEndOfLife; "" when none is announced
  };
  // Current images and node agent SKUs as the service lists them for Linux GPU and CPU pools.
  static const Image kImages[] = {
      {"batch.node.ubuntu 22.04", "microsoft-dsvm", "ubuntu-hpc", "2204",
       "DockerCompatible,NvidiaTeslaDriverInstalled", ""},
      {"batch.node.ubuntu 22.04", "canonical", "0001-com-ubuntu-server-jammy", "22_04-lts", "", ""},
      {"batch.node.ubuntu 24.04", "canonical", "ubuntu-24_04-lts", "server", "", ""},
      {"batch.node.ubuntu 20.04", "microsoft-azure-batch", "ubuntu-server-container", "20-04-lts",
       "DockerCompatible", "2025-04-30T00:00:00Z"},
      {"batch.node.el 9", "almalinux", "almalinux-x86_64", "9-gen2", "", ""},
      {"batch.node.debian 12", "debian", "debian-12", "12", "", ""},
      {"batch.node.windows amd64", "microsoftwindowsserver", "windowsserver", "2022-datacenter", "",
       ""},
  };
  std::string body = page_start(account_.base_url_, "supportedimages");
  auto is_windows = [](const Image& img) {
    return std::string(img.sku).find("windows") != std::string::npos;
  };
  auto keep = [&](const Image& img) {
    const bool windows = is_windows(img);
    auto get = [&](std::string_view prop) -> FilterValue {
      if (prop == "osType") return std::string(windows ? "windows" : "linux");
      if (prop == "verificationType") return std::string("verified");
      if (prop == "nodeAgentSKUId") return std::string(img.sku);
      return {};
    };
    return q.filter.matches(get);
  };
  auto write = [&](const Image& img, std::string& out) {
    const bool windows = is_windows(img);
    nlohmann::json e{{"nodeAgentSKUId", img.sku},
                     {"imageReference",
                      {{"publisher", img.publisher},
                       {"offer", img.offer},
                       {"sku", img.image_sku},
                       {"version", "latest"}}},
                     {"osType", windows ? "windows" : "linux"},
                     {"verificationType", "verified"}};
    if (*img.end_of_life) e["batchSupportEndOfLife"] = img.end_of_life;
    if (*img.capabilities) {
      std::string caps = img.capabilities;
      auto arr = nlohmann::json::array();
      for (size_t pos = 0; pos < caps.size();) {
        size_t comma = caps.find(',', pos);
        if (comma == std::string::npos) comma = caps.size();
        arr.push_back(caps.substr(pos, comma - pos));
        pos = comma + 1;
      }
      e["capabilities"] = arr;
    }
    out += e.dump();
  };
  // The resume point is a position in the list: how many images precede the next page.
  const auto count = std::size(kImages);
  const size_t start = std::min<size_t>(q.after.empty() ? 0 : std::atoi(q.after.c_str()), count);
  auto position = [&](const Image& img) { return std::to_string(&img - kImages + 1); };
  send_page(
      c, body,
      fill_page(body, q.max_results, kImages + start, kImages + count, keep, write, position));
}

}  // namespace trainyard::emu
