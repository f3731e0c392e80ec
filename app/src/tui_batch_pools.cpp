// Pool actions from the Pools pane: create (a form, or the request in $EDITOR), resize, stop
// resize, autoscale (tui_batch_autoscale.cpp), disable autoscale and delete (the pool id typed to
// confirm).
#include <fmt/format.h>

#include "azure/batch_actions.hpp"
#include "azure/pool_spec.hpp"
#include "tui_batch.hpp"

namespace trainyard {
namespace {

// Fills the node agent SKU from supportedimages when left empty, and warns of an image past
// its end of support.
Result<std::string> prepare_image(azure::BatchClient& c, azure::PoolSpec& spec, Timestamp now) {
  if (spec.image.empty()) return std::string();
  auto images = azure::supported_images(c);
  if (!images) return images.error();
  auto found = azure::find_image(*images, spec.image);
  if (!found) {
    if (spec.node_agent_sku.empty())
      return make_error(ErrorKind::Usage, "image " + spec.image +
                                              " is not in supportedimages: give its node agent "
                                              "SKU (trainyard pool images)");
    return std::string("; image not in supportedimages");
  }
  if (spec.node_agent_sku.empty()) spec.node_agent_sku = found->node_agent_sku_id;
  if (!found->past_end_of_life(now)) return std::string();
  return fmt::format("; WARNING: {} is past its end of support ({})", spec.image,
                     format_iso8601(*found->batch_support_end_of_life).substr(0, 10));
}

Result<std::string> create_pool(azure::BatchClient& c, Store& s, azure::PoolSpec spec) {
  SystemClock clock;
  auto note = prepare_image(c, spec, clock.now());
  if (!note) return note.error();
  auto body = azure::pool_body(spec);
  if (!body) return body.error();
  return changed(
      azure::create_pool(c, *body), [&] { return cache_pool(s, c, spec.id); },
      "creating pool " + spec.id + *note);
}

// An edited request's empty node agent SKU is filled from supportedimages, as the form's is.
Result<void> fill_agent_sku(azure::BatchClient& c, nlohmann::json& body) {
  auto& vm = body["virtualMachineConfiguration"];
  if (!vm.is_object() || !vm.value("nodeAgentSKUId", std::string()).empty()) return {};
  const auto& ref = vm.value("imageReference", nlohmann::json::object());
  if (!ref.contains("publisher")) return {};
  auto images = azure::supported_images(c);
  if (!images) return images.error();
  auto name =
      ref.value("publisher", "") + ":" + ref.value("offer", "") + ":" + ref.value("sku", "");
  auto found = azure::find_image(*images, name);
  if (!found)
    return make_error(ErrorKind::Usage,
                      "image " + name + " is not in supportedimages: give its nodeAgentSKUId");
  vm["nodeAgentSKUId"] = found->node_agent_sku_id;
  return {};
}

Result<FormChange> pool_json_change(const nlohmann::json& request) {
  const auto& id = request.value("id", nlohmann::json());
  if (!id.is_string() || !is_valid_batch_id(id.get<std::string>()))
    return make_error(ErrorKind::Usage, "/id: a pool id (1-64 letters, digits, - and _) is needed");
  std::string pool = id.get<std::string>();
  return FormChange{"create pool " + pool,
                    [pool, request](azure::BatchClient& c, Store& s) -> Result<std::string> {
                      auto body = request;
                      TY_TRY(fill_agent_sku(c, body));
                      return changed(
                          azure::create_pool(c, body), [&] { return cache_pool(s, c, pool); },
                          "creating pool " + pool);
                    }};
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
    run_batch(ctx, st, "resize pool " + pool, [pool, d, s](azure::BatchClient& c, Store& store) {
      return changed(
          azure::resize_pool(c, pool, d, s), [&] { return cache_pool(store, c, pool); },
          "resizing pool " + pool);
    });
  });
}

void open_delete_form(AppContext& ctx, TuiState& st, const std::string& pool) {
  // Deleting a pool loses its nodes and whatever runs there: the id is typed, not a y.
  Form f;
  f.title = "Delete pool " + pool;
  f.add("Type its id", "", pool, [pool](const std::string& v) {
    return v == pool ? FieldError() : FieldError("type the pool id exactly to delete it");
  });
  open_form(st, std::move(f), [&ctx, &st, pool](const Form&) {
    run_batch(ctx, st, "delete pool " + pool, [pool](azure::BatchClient& c, Store& s) {
      return changed(
          azure::delete_pool(c, pool), [&] { return cache_pool(s, c, pool); },
          "deleting pool " + pool);
    });
  });
}

}  // namespace

void open_pool_form(AppContext& ctx, TuiState& st) {
  if (!account_writable(ctx, st)) return;
  BatchForm spec;
  spec.change = [](const Form& form) {
    auto pool = spec_from(form);
    return FormChange{"create pool " + pool.id,
                      [pool](azure::BatchClient& c, Store& s) { return create_pool(c, s, pool); }};
  };
  spec.json_name = "pool.json";
  spec.to_json = [](const Form& form) { return azure::pool_draft(spec_from(form)); };
  spec.json_change = pool_json_change;
  open_batch_form(ctx, st, pool_form(), std::move(spec));
}

void pool_action(AppContext& ctx, TuiState& st, Action a) {
  if (a == Action::Create) return open_pool_form(ctx, st);
  auto pool = selected_row(st);
  if (!pool) return set_status(st, "no pool selected");
  if (!account_writable(ctx, st)) return;
  const std::string id = *pool;
  switch (a) {
    case Action::Resize:
      return open_resize_form(ctx, st, id);
    case Action::StopResize:
      return run_batch(ctx, st, "stop resize of " + id, [id](azure::BatchClient& c, Store& s) {
        return changed(
            azure::stop_resize_pool(c, id), [&] { return cache_pool(s, c, id); },
            "stopping the resize of " + id);
      });
    case Action::Autoscale:
      return open_autoscale_form(ctx, st, id);
    case Action::DisableAutoscale:
      return run_batch(ctx, st, "disable autoscale of " + id,
                       [id](azure::BatchClient& c, Store& s) {
                         return changed(
                             azure::disable_autoscale(c, id), [&] { return cache_pool(s, c, id); },
                             "autoscale disabled on " + id);
                       });
    case Action::Delete:
      return open_delete_form(ctx, st, id);
    default:
      return;
  }
}

}  // namespace trainyard
