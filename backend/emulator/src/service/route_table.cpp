// The route table: every operation's method, path pattern and handler, what a request must pass
// to reach it and whether it changes the account. The HTTP server, the checks before routing and
// the journal (what to record, what to replay) all go by it.
#include "service.hpp"

namespace trainyard::emu {

std::vector<Service::Route> Service::build_routes() {
  std::vector<Route> table;
  auto route = [&table](const char* method, const std::string& pattern, Handler fn, Gate gate,
                        bool changes_account) {
    table.push_back(
        Route{method, pattern, std::regex(pattern), std::move(fn), gate, changes_account});
  };
  // A Batch operation: signed; every one but a read changes the account.
  auto add = [&route](const char* method, const std::string& pattern, Handler fn) {
    route(method, pattern, std::move(fn), Gate::Signed, std::string_view(method) != "GET");
  };
  // A file operation: signed; a delete changes a node's disk, not the account.
  auto add_file = [&route](const char* method, const std::string& pattern, Handler fn) {
    route(method, pattern, std::move(fn), Gate::Signed, false);
  };
  auto add_identity = [&route](const char* method, const std::string& pattern, Handler fn) {
    route(method, pattern, std::move(fn), Gate::Identity, false);
  };
  auto add_control = [&route](const char* method, const std::string& pattern, Handler fn) {
    route(method, pattern, std::move(fn), Gate::Control, false);
  };
  using M = httplib::Match;
  const std::string id = "([^/]+)";
  // Pools and nodes
  add("POST", "/pools", [this](Call& c, const M&) { pool_api_.add_pool(c); });
  add("GET", "/pools", [this](Call& c, const M&) { pool_api_.list_pools(c); });
  add("GET", "/pools/" + id, [this](Call& c, const M& m) { pool_api_.get_pool(c, m[1]); });
  add("PATCH", "/pools/" + id,
      [this](Call& c, const M& m) { pool_api_.patch_pool(c, m[1], false); });
  add("DELETE", "/pools/" + id, [this](Call& c, const M& m) { pool_api_.delete_pool(c, m[1]); });
  add("POST",
      "/pools/" + id +
          "/(resize|stopresize|enableautoscale|disableautoscale|evaluateautoscale|removenodes|"
          "updateproperties)",
      [this](Call& c, const M& m) { pool_api_.pool_action(c, m[1], m[2]); });
  add("GET", "/pools/" + id + "/nodes",
      [this](Call& c, const M& m) { node_api_.list_nodes(c, m[1]); });
  add("GET", "/pools/" + id + "/nodes/" + id,
      [this](Call& c, const M& m) { node_api_.get_node(c, m[1], m[2]); });
  add("POST",
      "/pools/" + id + "/nodes/" + id +
          "/(reboot|reimage|disablescheduling|enablescheduling|start|deallocate|"
          "uploadbatchservicelogs)",
      [this](Call& c, const M& m) { node_api_.node_action(c, m[1], m[2], m[3]); });
  add("GET", "/pools/" + id + "/nodes/" + id + "/remoteloginsettings",
      [this](Call& c, const M& m) { node_api_.node_action(c, m[1], m[2], "remoteloginsettings"); });
  add("POST", "/pools/" + id + "/nodes/" + id + "/users",
      [this](Call& c, const M& m) { node_api_.add_user(c, m[1], m[2]); });
  add("PUT", "/pools/" + id + "/nodes/" + id + "/users/" + id,
      [this](Call& c, const M& m) { node_api_.update_user(c, m[1], m[2], m[3]); });
  add("DELETE", "/pools/" + id + "/nodes/" + id + "/users/" + id,
      [this](Call& c, const M& m) { node_api_.delete_user(c, m[1], m[2], m[3]); });
  add_file("GET", "/pools/" + id + "/nodes/" + id + "/files",
           [this](Call& c, const M& m) { file_api_.list_node_files(c, m[1], m[2]); });
  add_file("GET", "/pools/" + id + "/nodes/" + id + "/files/(.+)",
           [this](Call& c, const M& m) { file_api_.node_file(c, m[1], m[2], m[3]); });
  add_file("DELETE", "/pools/" + id + "/nodes/" + id + "/files/(.+)",
           [this](Call& c, const M& m) { file_api_.node_file(c, m[1], m[2], m[3]); });
  add("GET", "/nodecounts", [this](Call& c, const M&) { pool_api_.node_counts(c); });
  add("GET", "/supportedimages", [this](Call& c, const M&) { pool_api_.supported_images(c); });
  // Jobs and tasks
  add("POST", "/jobs", [this](Call& c, const M&) { job_api_.add_job(c); });
  add("GET", "/jobs", [this](Call& c, const M&) { job_api_.list_jobs(c); });
  add("GET", "/jobschedules", [this](Call& c, const M&) { job_api_.list_job_schedules(c); });
  add("GET", "/jobs/" + id, [this](Call& c, const M& m) { job_api_.get_job(c, m[1]); });
  add("PATCH", "/jobs/" + id, [this](Call& c, const M& m) { job_api_.patch_job(c, m[1], false); });
  add("PUT", "/jobs/" + id, [this](Call& c, const M& m) { job_api_.patch_job(c, m[1], true); });
  add("DELETE", "/jobs/" + id, [this](Call& c, const M& m) { job_api_.delete_job(c, m[1]); });
  add("POST", "/jobs/" + id + "/(disable|enable|terminate)",
      [this](Call& c, const M& m) { job_api_.job_action(c, m[1], m[2]); });
  add("GET", "/jobs/" + id + "/taskcounts",
      [this](Call& c, const M& m) { job_api_.task_counts(c, m[1]); });
  add("GET", "/jobs/" + id + "/jobpreparationandreleasetaskstatus",
      [this](Call& c, const M& m) { job_api_.prep_release_status(c, m[1]); });
  add("POST", "/jobs/" + id + "/tasks",
      [this](Call& c, const M& m) { task_api_.add_task(c, m[1]); });
  add("POST", "/jobs/" + id + "/addtaskcollection",
      [this](Call& c, const M& m) { task_api_.add_task_collection(c, m[1]); });
  add("GET", "/jobs/" + id + "/tasks",
      [this](Call& c, const M& m) { task_api_.list_tasks(c, m[1]); });
  add("GET", "/jobs/" + id + "/tasks/" + id,
      [this](Call& c, const M& m) { task_api_.get_task(c, m[1], m[2]); });
  add("PUT", "/jobs/" + id + "/tasks/" + id,
      [this](Call& c, const M& m) { task_api_.put_task(c, m[1], m[2]); });
  add("DELETE", "/jobs/" + id + "/tasks/" + id,
      [this](Call& c, const M& m) { task_api_.delete_task(c, m[1], m[2]); });
  add("POST", "/jobs/" + id + "/tasks/" + id + "/(terminate|reactivate)",
      [this](Call& c, const M& m) { task_api_.task_action(c, m[1], m[2], m[3]); });
  add("GET", "/jobs/" + id + "/tasks/" + id + "/subtasksinfo",
      [this](Call& c, const M& m) { task_api_.subtasks_info(c, m[1], m[2]); });
  add_file("GET", "/jobs/" + id + "/tasks/" + id + "/files",
           [this](Call& c, const M& m) { file_api_.list_task_files(c, m[1], m[2]); });
  add_file("GET", "/jobs/" + id + "/tasks/" + id + "/files/(.+)",
           [this](Call& c, const M& m) { file_api_.task_file(c, m[1], m[2], m[3]); });
  add_file("DELETE", "/jobs/" + id + "/tasks/" + id + "/files/(.+)",
           [this](Call& c, const M& m) { file_api_.task_file(c, m[1], m[2], m[3]); });
  // Identity, management plane and control
  add_identity("POST", "/([^/]+)/oauth2/(v2\\.0/)?token",
               [this](Call& c, const M&) { identity_api_.token_endpoint(c); });
  add_identity("GET", "/metadata/identity/oauth2/token",
               [this](Call& c, const M&) { identity_api_.imds_endpoint(c); });
  add_identity("GET", "/subscriptions/([^/]+)/providers/Microsoft.Batch/batchAccounts",
               [this](Call& c, const M&) { identity_api_.arm_list_accounts(c); });
  add_identity(
      "GET",
      "/subscriptions/([^/]+)/resourceGroups/([^/]+)/providers/Microsoft.Batch/batchAccounts",
      [this](Call& c, const M&) { identity_api_.arm_list_accounts(c); });
  add_identity(
      "POST",
      "/subscriptions/([^/]+)/resourceGroups/([^/]+)/providers/Microsoft.Batch/batchAccounts/([^/"
      "]+)/listKeys",
      [this](Call& c, const M&) { identity_api_.arm_list_keys(c); });
  add_control("POST", "/__trainyard/(faults|preempt|counters|reset-counters)",
              [this](Call& c, const M& m) { control(c, m[1]); });
  add_control("GET", "/__trainyard/(counters)", [this](Call& c, const M& m) { control(c, m[1]); });
  return table;
}

const Service::Route* Service::find_route(const std::string& method, const std::string& path,
                                          httplib::Match& matches) const {
  const std::string_view wanted = method == "HEAD" ? "GET" : std::string_view(method);
  for (const auto& r : routes_) {
    if (r.method == wanted && std::regex_match(path, matches, r.regex)) return &r;
  }
  return nullptr;
}

}  // namespace trainyard::emu
