// Pool actions: create, resize, stop resize, autoscale (enable, disable, evaluate), delete.
#include <fmt/format.h>

#include "batch_action.hpp"
#include "sync/entity_refresh.hpp"

namespace trainyard::act {
namespace {

using nlohmann::json;

// `publisher:offer:sku` of a marketplace imageReference, or "" (a custom image, or none).
std::string marketplace_name(const json& vm) {
  const auto& ref = vm.value("imageReference", json::object());
  if (!ref.is_object() || !ref.contains("publisher")) return "";
  return ref.value("publisher", "") + ":" + ref.value("offer", "") + ":" + ref.value("sku", "");
}

std::string end_of_support_warning(const azure::SupportedImage& image, const std::string& name,
                                   Timestamp now) {
  if (!image.past_end_of_life(now)) return "";
  return fmt::format("{} is past its end of support ({})", name,
                     format_iso8601(*image.batch_support_end_of_life).substr(0, 10));
}

// Fills an empty nodeAgentSKUId from supportedimages (which lists marketplace images only);
// returns the warnings: an image past its end of support, or one not listed.
Result<std::vector<std::string>> complete_image(ActionEnv& env, json& body) {
  auto it = body.is_object() ? body.find("virtualMachineConfiguration") : body.end();
  if (it == body.end() || !it->is_object()) return std::vector<std::string>{};
  auto& vm = *it;
  const std::string name = marketplace_name(vm);
  if (name.empty()) return std::vector<std::string>{};
  auto images = azure::supported_images(env.client);
  if (!images) return images.error();
  auto found = azure::find_image(*images, name);
  const bool agent_given = !vm.value("nodeAgentSKUId", std::string()).empty();
  if (!found && !agent_given)
    return make_error(ErrorKind::Usage, "image " + name +
                                            " is not in supportedimages: give its node agent SKU "
                                            "(trainyard pool images)");
  if (!found) return std::vector<std::string>{"image " + name + " is not in supportedimages"};
  if (!agent_given) vm["nodeAgentSKUId"] = found->node_agent_sku_id;
  auto warning = end_of_support_warning(*found, name, env.clock.now());
  return warning.empty() ? std::vector<std::string>{} : std::vector<std::string>{warning};
}

// An action on one pool whose success refreshes it.
BatchAction on_pool(std::string what, const std::string& pool, std::string done,
                    std::function<Result<void>(azure::BatchClient&)> request) {
  return {std::move(what), ActionKind::Change,
          [pool, line = std::move(done), call = std::move(request)](ActionEnv& env) {
            return changed(
                call(env.client), [&] { return cache_pool(env.store, env.client, pool); }, line,
                "pool " + pool);
          }};
}

}  // namespace

Result<json> pool_request(azure::PoolSpec spec) {
  const bool looked_up = spec.node_agent_sku.empty() && !spec.image.empty();
  if (looked_up) spec.node_agent_sku = "looked up";  // pool_body checks every other field
  auto body = azure::pool_body(spec);
  if (body && looked_up) (*body)["virtualMachineConfiguration"].erase("nodeAgentSKUId");
  return body;
}

BatchAction create_pool(json body) {
  const std::string pool = body.is_object() ? body.value("id", "") : "";
  return {"create pool " + pool, ActionKind::Change,
          [pool, body](ActionEnv& env) -> Result<ActionOutcome> {
            auto request = body;
            auto warnings = complete_image(env, request);
            if (!warnings) return warnings.error();
            auto r = changed(
                azure::create_pool(env.client, request),
                [&] { return cache_pool(env.store, env.client, pool); }, "created pool " + pool,
                "pool " + pool);
            if (r) r->warnings.insert(r->warnings.begin(), warnings->begin(), warnings->end());
            return r;
          }};
}

BatchAction resize_pool(std::string pool, std::optional<int> dedicated, std::optional<int> spot,
                        std::optional<Duration> timeout) {
  return on_pool("resize pool " + pool, pool, "resizing pool " + pool,
                 [pool, dedicated, spot, timeout](azure::BatchClient& c) {
                   return azure::resize_pool(c, pool, dedicated, spot, timeout);
                 });
}

BatchAction stop_resize_pool(std::string pool) {
  return on_pool("stop resizing pool " + pool, pool, "stopping the resize of pool " + pool,
                 [pool](azure::BatchClient& c) { return azure::stop_resize_pool(c, pool); });
}

BatchAction enable_autoscale(std::string pool, std::string formula,
                             std::optional<Duration> interval) {
  return {"enable autoscale on pool " + pool, ActionKind::Change,
          [pool, formula, interval](ActionEnv& env) -> Result<ActionOutcome> {
            auto r = changed(
                azure::enable_autoscale(env.client, pool, formula, interval),
                [&] { return cache_pool(env.store, env.client, pool); },
                "autoscale enabled on pool " + pool, "pool " + pool);
            if (!r) return r;
            // Enabling evaluates once; showing that evaluation says what it will do.
            auto eval = azure::evaluate_autoscale(env.client, pool, formula);
            if (eval && !eval->error.empty())
              r->warnings.push_back("its evaluation failed: " + eval->error);
            else if (eval && !eval->results.empty())
              r->done += ": " + eval->results;
            return r;
          }};
}

BatchAction disable_autoscale(std::string pool) {
  return on_pool("disable autoscale on pool " + pool, pool, "autoscale disabled on pool " + pool,
                 [pool](azure::BatchClient& c) { return azure::disable_autoscale(c, pool); });
}

BatchAction evaluate_autoscale(std::string pool, std::string formula,
                               std::shared_ptr<azure::AutoScaleEvaluation> out) {
  return {"evaluate autoscale on pool " + pool, ActionKind::Read,
          [pool, formula, out](ActionEnv& env) -> Result<ActionOutcome> {
            auto r = azure::evaluate_autoscale(env.client, pool, formula);
            if (!r) return r.error();
            *out = *r;
            return ActionOutcome{"evaluated the formula on pool " + pool + " (not enabled)", {}};
          }};
}

BatchAction delete_pool(std::string pool) {
  return {"delete pool " + pool, ActionKind::Change, [pool](ActionEnv& env) {
            // The pool stays a while as `deleting`: the cache forgets it now, as `ls` expects.
            return changed(
                azure::delete_pool(env.client, pool),
                [&] { return env.store.delete_pool(env.client.options().account, pool); },
                "deleting pool " + pool, "pool " + pool);
          }};
}

}  // namespace trainyard::act
