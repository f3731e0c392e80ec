// Where a key's pane action goes: one route per (context, action) of the binding the key
// matched, to the handler that runs the catalogue's action for it.
#include <vector>

#include "tui_action_routes.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

using Handler = void (*)(AppContext&, TuiState&, Action);

struct Route {
  Context context;
  Action action;
  Handler run;
  bool batch_only;  ///< false: on the local account the key's local meaning applies
};

std::vector<Route> pane_routes(Context c, std::initializer_list<Action> actions, Handler run,
                               bool batch_only) {
  std::vector<Route> out;
  for (Action a : actions) out.push_back({c, a, run, batch_only});
  return out;
}

std::vector<Route> make_routes() {
  using A = Action;
  std::vector<std::vector<Route>> parts{
      pane_routes(
          Context::Pools,
          {A::Create, A::Resize, A::StopResize, A::Autoscale, A::DisableAutoscale, A::Delete},
          pool_action, true),
      pane_routes(Context::Nodes, {A::Reboot, A::Reimage, A::Delete, A::Scheduling, A::RemoteLogin},
                  node_action, true),
      pane_routes(Context::Jobs, {A::Create, A::Terminate, A::Delete, A::Scheduling}, job_action,
                  true),
      pane_routes(Context::Jobs, {A::RunForm}, task_action, false),
      pane_routes(Context::Tasks, {A::RunForm, A::Stop, A::Remove, A::Reactivate}, task_action,
                  false),
      pane_routes(Context::Logs, {A::Stop}, task_action, false),
      pane_routes(Context::Detail, {A::Stop}, task_action, false),
  };
  std::vector<Route> all;
  for (auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

// The binding `a` came from on `pane`: the first of the pane's contexts that binds it, as the
// key lookup searches them.
const Binding* matched_binding(const Pane& pane, Action a) {
  for (Context c : pane.contexts())
    for (const auto& b : default_bindings())
      if (b.context == c && b.action == a) return &b;
  return nullptr;
}

const Route* route_of(const Binding& b) {
  static const std::vector<Route> routes = make_routes();
  for (const auto& r : routes)
    if (r.context == b.context && r.action == b.action) return &r;
  return nullptr;
}

}  // namespace

bool route_pane_action(AppContext& ctx, TuiState& st, Action a) {
  const Binding* b = matched_binding(focused_pane(st), a);
  const Route* r = b ? route_of(*b) : nullptr;
  if (!r) return false;
  if (st.top().account != kLocalAccount) return r->run(ctx, st, a), true;
  if (r->batch_only) set_status(st, "that key acts on Batch accounts; local runs use r, s, a, x");
  return r->batch_only;
}

}  // namespace trainyard
