#include "state_codec.hpp"

namespace trainyard::emu {

namespace {

using nlohmann::json;

json exec_json(const Execution& e) {
  json out = {{"start", e.start},
              {"end", e.end},
              {"exitCode", e.exit_code ? json(*e.exit_code) : json()},
              {"retry", e.retry_count},
              {"requeue", e.requeue_count},
              {"lastRetry", e.last_retry},
              {"lastRequeue", e.last_requeue},
              {"result", static_cast<int>(e.result)},
              {"failureCode", e.failure_code},
              {"failureMessage", e.failure_message}};
  if (!e.failure_details.empty()) out["failureDetails"] = e.failure_details;
  return out;
}

Execution exec_from(const Fields& f) {
  Execution e;
  e.start = f.whole<Micros>("start");
  e.end = f.whole<Micros>("end");
  if (!f.raw("exitCode").is_null()) e.exit_code = f.whole<int>("exitCode");
  e.retry_count = f.whole<int>("retry");
  e.requeue_count = f.whole<int>("requeue");
  e.last_retry = f.whole<Micros>("lastRetry");
  e.last_requeue = f.whole<Micros>("lastRequeue");
  e.result = f.choice("result", TaskResult::Failure);
  e.failure_code = f.get<std::string>("failureCode");
  e.failure_message = f.get<std::string>("failureMessage");
  if (f.has("failureDetails"))
    e.failure_details = f.get<std::vector<std::pair<std::string, std::string>>>("failureDetails");
  return e;
}

json versioned(const Versioned& v) {
  return {{"etag", v.etag}, {"modified", v.last_modified}, {"created", v.creation}};
}

void versioned_from(const Fields& f, Versioned& v) {
  v.etag = f.get<std::string>("etag");
  v.last_modified = f.whole<Micros>("modified");
  v.creation = f.whole<Micros>("created");
}

json task_json(const TaskEntity& t) {
  json subtasks = json::array();
  for (const auto& s : t.subtasks) {
    subtasks.push_back({{"id", s.id},
                        {"node", s.node_id},
                        {"state", static_cast<int>(s.state)},
                        {"stateTime", s.state_time},
                        {"exec", exec_json(s.exec)}});
  }
  return {{"v", versioned(t)},
          {"id", t.id},
          {"cmd", t.command_line},
          {"state", static_cast<int>(t.state)},
          {"prev", static_cast<int>(t.prev_state)},
          {"stateTime", t.state_time},
          {"prevTime", t.prev_state_time},
          {"exec", exec_json(t.exec)},
          {"node", t.node_id},
          {"pool", t.pool_id},
          {"slots", t.required_slots},
          {"retries", t.max_retries},
          {"wall", t.max_wall_us},
          {"retention", t.retention_us},
          {"extra", t.extra ? *t.extra : json()},
          {"subtasks", subtasks},
          {"started", t.engine_started},
          {"generation", t.engine_generation}};
}

TaskEntity task_from(const Fields& f) {
  TaskEntity t;
  versioned_from(f.object("v"), t);
  t.id = f.get<std::string>("id");
  t.command_line = f.get<std::string>("cmd");
  t.state = f.choice("state", TaskState::Completed);
  t.prev_state = f.choice("prev", TaskState::Completed);
  t.state_time = f.whole<Micros>("stateTime");
  t.prev_state_time = f.whole<Micros>("prevTime");
  t.exec = exec_from(f.object("exec"));
  t.node_id = f.get<std::string>("node");
  t.pool_id = f.get<std::string>("pool");
  t.required_slots = f.whole<int>("slots");
  t.max_retries = f.whole<int>("retries");
  t.max_wall_us = f.whole<int64_t>("wall");
  t.retention_us = f.whole<int64_t>("retention");
  if (!f.raw("extra").is_null()) t.extra = std::make_unique<json>(f.raw("extra"));
  f.each("subtasks", [&t](const Fields& s) {
    t.subtasks.push_back(Subtask{s.whole<int>("id"), s.get<std::string>("node"),
                                 s.choice("state", TaskState::Completed),
                                 s.whole<Micros>("stateTime"), exec_from(s.object("exec"))});
  });
  t.engine_started = f.get<bool>("started");
  t.engine_generation = f.whole<int>("generation");
  return t;
}

PrepRelease prep_release_from(const Fields& f) {
  PrepRelease p;
  p.prep = exec_from(f.object("prep"));
  p.prep_running = f.get<bool>("prepRunning");
  p.release = exec_from(f.object("release"));
  p.release_running = f.get<bool>("releaseRunning");
  p.release_started = f.get<bool>("releaseStarted");
  return p;
}

}  // namespace

json pool_json(const PoolEntity& p) {
  return {{"v", versioned(p)},
          {"id", p.id},
          {"spec", p.spec},
          {"state", static_cast<int>(p.state)},
          {"stateTime", p.state_time},
          {"alloc", static_cast<int>(p.alloc)},
          {"allocTime", p.alloc_time},
          {"targetDedicated", p.target_dedicated},
          {"targetLow", p.target_low_priority},
          {"autoScale", p.auto_scale},
          {"formula", p.auto_scale_formula},
          {"interval", p.auto_scale_interval},
          {"enabledAt", p.auto_scale_enabled_at},
          {"run", p.auto_scale_run},
          {"resizeErrors", p.resize_errors},
          {"slots", p.task_slots_per_node}};
}

PoolEntity pool_from(const Fields& f) {
  PoolEntity p;
  versioned_from(f.object("v"), p);
  p.id = f.get<std::string>("id");
  p.spec = f.raw("spec");
  p.state = f.choice("state", PoolState::Deleting);
  p.state_time = f.whole<Micros>("stateTime");
  p.alloc = f.choice("alloc", AllocState::Stopping);
  p.alloc_time = f.whole<Micros>("allocTime");
  p.target_dedicated = f.whole<int>("targetDedicated");
  p.target_low_priority = f.whole<int>("targetLow");
  p.auto_scale = f.get<bool>("autoScale");
  p.auto_scale_formula = f.get<std::string>("formula");
  p.auto_scale_interval = f.get<std::string>("interval");
  p.auto_scale_enabled_at = f.whole<Micros>("enabledAt");
  p.auto_scale_run = f.raw("run");
  p.resize_errors = f.raw("resizeErrors");
  p.task_slots_per_node = f.whole<int>("slots");
  return p;
}

json node_json(const NodeEntity& n) {
  return {{"id", n.id},
          {"pool", n.pool_id},
          {"dedicated", n.dedicated},
          {"state", static_cast<int>(n.state)},
          {"stateTime", n.state_time},
          {"scheduling", n.scheduling_enabled},
          {"allocated", n.allocation_time},
          {"booted", n.boot_time},
          {"ip", n.ip},
          {"run", n.total_tasks_run},
          {"succeeded", n.total_tasks_succeeded},
          {"slots", n.running_slots},
          {"tasks", n.running_tasks},
          {"startTask", n.start_task ? exec_json(*n.start_task) : json()},
          {"startRunning", n.start_task_running},
          {"startEngineId", n.start_task_engine_id},
          {"recent", n.recent},
          {"leaving", n.leaving}};
}

NodeEntity node_from(const Fields& f) {
  NodeEntity n;
  n.id = f.get<std::string>("id");
  n.pool_id = f.get<std::string>("pool");
  n.dedicated = f.get<bool>("dedicated");
  n.state = f.choice("state", NodeState::Offline);
  n.state_time = f.whole<Micros>("stateTime");
  n.scheduling_enabled = f.get<bool>("scheduling");
  n.allocation_time = f.whole<Micros>("allocated");
  n.boot_time = f.whole<Micros>("booted");
  n.ip = f.get<std::string>("ip");
  n.total_tasks_run = f.whole<int>("run");
  n.total_tasks_succeeded = f.whole<int>("succeeded");
  n.running_slots = f.whole<int>("slots");
  n.running_tasks = f.whole<int>("tasks");
  if (!f.raw("startTask").is_null()) n.start_task = exec_from(f.object("startTask"));
  n.start_task_running = f.get<bool>("startRunning");
  n.start_task_engine_id = f.get<std::string>("startEngineId");
  n.recent = f.get<std::vector<std::pair<std::string, std::string>>>("recent");
  n.leaving = f.get<bool>("leaving");
  return n;
}

json job_json(const JobEntity& j) {
  json tasks = json::array();
  for (const auto& [id, t] : j.tasks) tasks.push_back(task_json(t));
  json nodes = json::object();
  for (const auto& [id, pr] : j.nodes) {
    nodes[id] = {{"prep", exec_json(pr.prep)},
                 {"prepRunning", pr.prep_running},
                 {"release", exec_json(pr.release)},
                 {"releaseRunning", pr.release_running},
                 {"releaseStarted", pr.release_started}};
  }
  return {{"v", versioned(j)},
          {"id", j.id},
          {"spec", j.spec},
          {"state", static_cast<int>(j.state)},
          {"prev", static_cast<int>(j.prev_state)},
          {"stateTime", j.state_time},
          {"prevTime", j.prev_state_time},
          {"start", j.start},
          {"end", j.end},
          {"reason", j.terminate_reason},
          {"pool", j.pool_id},
          {"tasks", tasks},
          {"pending", j.pending},
          {"running", j.running},
          {"nodes", nodes}};
}

JobEntity job_from(const Fields& f) {
  JobEntity j;
  versioned_from(f.object("v"), j);
  j.id = f.get<std::string>("id");
  j.spec = f.raw("spec");
  j.state = f.choice("state", JobState::Deleting);
  j.prev_state = f.choice("prev", JobState::Deleting);
  j.state_time = f.whole<Micros>("stateTime");
  j.prev_state_time = f.whole<Micros>("prevTime");
  j.start = f.whole<Micros>("start");
  j.end = f.whole<Micros>("end");
  j.terminate_reason = f.get<std::string>("reason");
  j.pool_id = f.get<std::string>("pool");
  f.each("tasks", [&j](const Fields& t) {
    auto task = task_from(t);
    j.tasks.emplace(task.id, std::move(task));
  });
  j.pending = f.get<std::set<std::string>>("pending");
  j.running = f.get<std::set<std::string>>("running");
  const Fields nodes = f.object("nodes");
  if (!f.raw("nodes").is_object()) throw StateFieldError(f.place("nodes") + ": not an object");
  for (const auto& [id, pr] : f.raw("nodes").items())
    j.nodes.emplace(id, prep_release_from(nodes.object(id.c_str())));
  return j;
}

}  // namespace trainyard::emu
