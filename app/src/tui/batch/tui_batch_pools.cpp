// Pool actions from the Pools pane: create (a form, or the request in $EDITOR), resize, stop
// resize, autoscale (tui_batch_autoscale.cpp), disable autoscale and delete (the pool id typed to
// confirm).
#include "tui_batch.hpp"

namespace trainyard {
namespace {

Result<FormChange> pool_json_change(AppContext& ctx, const nlohmann::json& request) {
  TY_TRY(act::request_id(request, "pool"));
  return form_change(ctx, act::create_pool(request));
}

bool is_custom_image(const std::string& image) {
  return image.rfind("/", 0) == 0;
}

azure::PoolSpec spec_from(const Form& f) {
  azure::PoolSpec spec;
  spec.id = f.value("Id");
  spec.vm_size = f.value("VM size");
  auto image = f.value("Image");
  // A custom image is a resource id; a marketplace one is publisher:offer:sku.
  (is_custom_image(image) ? spec.custom_image : spec.image) = image;
  spec.node_agent_sku = f.value("Agent SKU");
  spec.dedicated = whole_number(f.value("Dedicated"));
  spec.spot = whole_number(f.value("Spot"));
  spec.task_slots = whole_number(f.value("Task slots"));
  spec.start_task = f.value("Start task");
  return spec;
}

// supportedimages knows marketplace images only: a custom image's agent is the user's to name.
std::optional<std::pair<std::string, std::string>> custom_image_needs_agent(const Form& f) {
  if (!is_custom_image(f.value("Image")) || !f.value("Agent SKU").empty()) return std::nullopt;
  return std::pair<std::string, std::string>{
      "Agent SKU", "a custom image needs its node agent SKU (e.g. batch.node.ubuntu 22.04)"};
}

Form pool_form() {
  Form f;
  f.title = "Create a pool";
  f.add("Id", "", "pool id", id_field).sets("id");
  f.add("VM size", "Standard_NC24ads_A100_v4", "e.g. Standard_D4s_v5", required_field)
      .sets("vmSize");
  f.add("Image", "microsoft-dsvm:ubuntu-hpc:2204", "publisher:offer:sku or a custom image id",
        required_field)
      .sets("virtualMachineConfiguration.imageReference");
  f.add("Agent SKU", "", "empty: from supportedimages")
      .sets("virtualMachineConfiguration.nodeAgentSKUId");
  f.add("Dedicated", "1", "dedicated nodes", count_field).sets("targetDedicatedNodes");
  f.add("Spot", "0", "Spot nodes", count_field).sets("targetLowPriorityNodes");
  f.add("Task slots", "1", "tasks per node", count_field).sets("taskSlotsPerNode");
  f.add("Start task", "", "command run on each node first (optional)").sets("startTask");
  f.check = custom_image_needs_agent;
  return f;
}

void open_resize_form(AppContext& ctx, TuiState& st, const std::string& pool) {
  Form f;
  f.title = "Resize pool " + pool;
  f.add("Dedicated", "", "target dedicated nodes (empty: unchanged)", count_field);
  f.add("Spot", "", "target Spot nodes (empty: unchanged)", count_field);
  open_form(st, std::move(f), [&ctx, &st, pool](const Form& form) {
    auto d = whole_number(form.value("Dedicated"));
    auto s = whole_number(form.value("Spot"));
    if (!d && !s) return set_status(st, "resize: nothing to change");
    queue_action(ctx, st, act::resize_pool(pool, d, s));
  });
}

void open_delete_form(AppContext& ctx, TuiState& st, const std::string& pool) {
  // Deleting a pool loses its nodes and whatever runs there: the id is typed, not a y.
  Form f;
  f.title = "Delete pool " + pool;
  f.add("Type its id", "", pool, [pool](const std::string& v) {
    return v == pool ? FieldError() : FieldError("type the pool id exactly to delete it");
  });
  open_form(st, std::move(f),
            [&ctx, &st, pool](const Form&) { queue_action(ctx, st, act::delete_pool(pool)); });
}

}  // namespace

void open_pool_form(AppContext& ctx, TuiState& st) {
  if (!account_writable(ctx, st)) return;
  BatchForm spec;
  spec.change = [&ctx](const Form& form) {
    auto pool = spec_from(form);
    auto body = act::pool_request(pool);
    if (!body) return refused_change("create pool " + pool.id, body.error());
    return form_change(ctx, act::create_pool(*body));
  };
  spec.json_name = "pool.json";
  spec.to_json = [](const Form& form) { return azure::pool_draft(spec_from(form)); };
  spec.json_change = [&ctx](const nlohmann::json& r) { return pool_json_change(ctx, r); };
  open_batch_form(ctx, st, pool_form(), std::move(spec));
}

void pool_action(AppContext& ctx, TuiState& st, Action a) {
  if (a == Action::Create) return open_pool_form(ctx, st);
  auto pool = selected_key(st);
  if (!pool) return set_status(st, "no pool selected");
  if (!account_writable(ctx, st)) return;
  const std::string id = *pool;
  switch (a) {
    case Action::Resize:
      return open_resize_form(ctx, st, id);
    case Action::StopResize:
      return queue_action(ctx, st, act::stop_resize_pool(id));
    case Action::Autoscale:
      return open_autoscale_form(ctx, st, id);
    case Action::DisableAutoscale:
      return queue_action(ctx, st, act::disable_autoscale(id));
    case Action::Delete:
      return open_delete_form(ctx, st, id);
    default:
      return;
  }
}

}  // namespace trainyard
