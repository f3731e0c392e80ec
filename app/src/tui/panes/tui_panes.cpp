// The registry of panes: one line per pane (its View and the function that makes it).
#include "tui_state.hpp"

namespace trainyard {

std::unique_ptr<Pane> make_accounts_pane();
std::unique_ptr<Pane> make_pools_pane();
std::unique_ptr<Pane> make_nodes_pane();
std::unique_ptr<Pane> make_jobs_pane();
std::unique_ptr<Pane> make_tasks_pane();
std::unique_ptr<Pane> make_logs_pane();
std::unique_ptr<Pane> make_detail_pane();
std::unique_ptr<Pane> make_gpus_pane();
std::unique_ptr<Pane> make_sweep_pane();
std::unique_ptr<Pane> make_compare_pane();
std::unique_ptr<Pane> make_grep_pane();
std::unique_ptr<Pane> make_plugin_pane();
std::unique_ptr<Pane> make_all_jobs_pane();
std::unique_ptr<Pane> make_all_pools_pane();
std::unique_ptr<Pane> make_pool_pane();
std::unique_ptr<Pane> make_failed_pane();
std::unique_ptr<Pane> make_json_pane();
std::unique_ptr<Pane> make_columns_pane();
std::unique_ptr<Pane> make_storage_pane();
std::unique_ptr<Pane> make_outputs_pane();

namespace {

struct PaneEntry {
  View view;
  std::unique_ptr<Pane> (*make)();
};

constexpr PaneEntry kPanes[] = {
    {View::Accounts, make_accounts_pane}, {View::Pools, make_pools_pane},
    {View::Nodes, make_nodes_pane},       {View::Jobs, make_jobs_pane},
    {View::Tasks, make_tasks_pane},       {View::Logs, make_logs_pane},
    {View::Detail, make_detail_pane},     {View::Gpus, make_gpus_pane},
    {View::Sweep, make_sweep_pane},       {View::Compare, make_compare_pane},
    {View::Grep, make_grep_pane},         {View::Plugin, make_plugin_pane},
    {View::AllJobs, make_all_jobs_pane},  {View::AllPools, make_all_pools_pane},
    {View::Pool, make_pool_pane},         {View::Failed, make_failed_pane},
    {View::Json, make_json_pane},         {View::Columns, make_columns_pane},
    {View::Storage, make_storage_pane},   {View::Outputs, make_outputs_pane},
};

}  // namespace

Panes::Panes() {
  for (const auto& e : kPanes) panes_.emplace_back(e.view, e.make());
}

Panes::~Panes() = default;

Pane& Panes::operator[](View v) const {
  for (const auto& [view, pane] : panes_)
    if (view == v) return *pane;
  // Every View has a line in kPanes; a missing one is a programming error caught by any test.
  std::abort();
}

View Panes::by_name(const std::string& name) const {
  for (const auto& [view, pane] : panes_)
    if (pane->name() == name) return view;
  return View::Jobs;
}

void Panes::store_changed() {
  for (auto& entry : panes_) entry.second->store_changed();
}

Pane& focused_pane(const TuiState& st) {
  return st.panes[st.stack.back().view];
}

}  // namespace trainyard
