// `--state FILE`: the whole account as JSON, written atomically when it changed, read at start
// (changes acknowledged since the last write are in the journal, changes.cpp).
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "service.hpp"

namespace trainyard::emu {

namespace {

using nlohmann::json;

json exec_json(const Execution& e) {
  return {{"start", e.start},
          {"end", e.end},
          {"exitCode", e.exit_code ? json(*e.exit_code) : json()},
          {"retry", e.retry_count},
          {"requeue", e.requeue_count},
          {"lastRetry", e.last_retry},
          {"lastRequeue", e.last_requeue},
          {"result", static_cast<int>(e.result)},
          {"failureCode", e.failure_code},
          {"failureMessage", e.failure_message}};
}

Execution exec_from(const json& j) {
  Execution e;
  e.start = j.at("start");
  e.end = j.at("end");
  if (!j.at("exitCode").is_null()) e.exit_code = j.at("exitCode").get<int>();
  e.retry_count = j.at("retry");
  e.requeue_count = j.at("requeue");
  e.last_retry = j.at("lastRetry");
  e.last_requeue = j.at("lastRequeue");
  e.result = static_cast<TaskResult>(j.at("result").get<int>());
  e.failure_code = j.at("failureCode");
  e.failure_message = j.at("failureMessage");
  return e;
}

json versioned(const Versioned& v) {
  return {{"etag", v.etag}, {"modified", v.last_modified}, {"created", v.creation}};
}

void versioned_from(const json& j, Versioned& v) {
  v.etag = j.at("etag");
  v.last_modified = j.at("modified");
  v.creation = j.at("created");
}

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

PoolEntity pool_from(const json& j) {
  PoolEntity p;
  versioned_from(j.at("v"), p);
  p.id = j.at("id");
  p.spec = j.at("spec");
  p.state = static_cast<PoolState>(j.at("state").get<int>());
  p.state_time = j.at("stateTime");
  p.alloc = static_cast<AllocState>(j.at("alloc").get<int>());
  p.alloc_time = j.at("allocTime");
  p.target_dedicated = j.at("targetDedicated");
  p.target_low_priority = j.at("targetLow");
  p.auto_scale = j.at("autoScale");
  p.auto_scale_formula = j.at("formula");
  p.auto_scale_interval = j.at("interval");
  p.auto_scale_enabled_at = j.at("enabledAt");
  p.auto_scale_run = j.at("run");
  p.resize_errors = j.at("resizeErrors");
  p.task_slots_per_node = j.at("slots");
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

NodeEntity node_from(const json& j) {
  NodeEntity n;
  n.id = j.at("id");
  n.pool_id = j.at("pool");
  n.dedicated = j.at("dedicated");
  n.state = static_cast<NodeState>(j.at("state").get<int>());
  n.state_time = j.at("stateTime");
  n.scheduling_enabled = j.at("scheduling");
  n.allocation_time = j.at("allocated");
  n.boot_time = j.at("booted");
  n.ip = j.at("ip");
  n.total_tasks_run = j.at("run");
  n.total_tasks_succeeded = j.at("succeeded");
  n.running_slots = j.at("slots");
  n.running_tasks = j.at("tasks");
  if (!j.at("startTask").is_null()) n.start_task = exec_from(j.at("startTask"));
  n.start_task_running = j.at("startRunning");
  n.start_task_engine_id = j.at("startEngineId");
  n.recent = j.at("recent").get<std::vector<std::pair<std::string, std::string>>>();
  n.leaving = j.at("leaving");
  return n;
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

TaskEntity task_from(const json& j) {
  TaskEntity t;
  versioned_from(j.at("v"), t);
  t.id = j.at("id");
  t.command_line = j.at("cmd");
  t.state = static_cast<TaskState>(j.at("state").get<int>());
  t.prev_state = static_cast<TaskState>(j.at("prev").get<int>());
  t.state_time = j.at("stateTime");
  t.prev_state_time = j.at("prevTime");
  t.exec = exec_from(j.at("exec"));
  t.node_id = j.at("node");
  t.pool_id = j.at("pool");
  t.required_slots = j.at("slots");
  t.max_retries = j.at("retries");
  t.max_wall_us = j.at("wall");
  t.retention_us = j.at("retention");
  if (!j.at("extra").is_null()) t.extra = std::make_unique<json>(j.at("extra"));
  for (const auto& s : j.at("subtasks")) {
    t.subtasks.push_back(Subtask{s.at("id"), s.at("node"),
                                 static_cast<TaskState>(s.at("state").get<int>()),
                                 s.at("stateTime"), exec_from(s.at("exec"))});
  }
  t.engine_started = j.at("started");
  t.engine_generation = j.at("generation");
  return t;
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

JobEntity job_from(const json& o) {
  JobEntity j;
  versioned_from(o.at("v"), j);
  j.id = o.at("id");
  j.spec = o.at("spec");
  j.state = static_cast<JobState>(o.at("state").get<int>());
  j.prev_state = static_cast<JobState>(o.at("prev").get<int>());
  j.state_time = o.at("stateTime");
  j.prev_state_time = o.at("prevTime");
  j.start = o.at("start");
  j.end = o.at("end");
  j.terminate_reason = o.at("reason");
  j.pool_id = o.at("pool");
  for (const auto& t : o.at("tasks")) {
    auto task = task_from(t);
    j.tasks.emplace(task.id, std::move(task));
  }
  j.pending = o.at("pending").get<std::set<std::string>>();
  j.running = o.at("running").get<std::set<std::string>>();
  for (const auto& [id, pr] : o.at("nodes").items()) {
    PrepRelease p;
    p.prep = exec_from(pr.at("prep"));
    p.prep_running = pr.at("prepRunning");
    p.release = exec_from(pr.at("release"));
    p.release_running = pr.at("releaseRunning");
    p.release_started = pr.at("releaseStarted");
    j.nodes.emplace(id, std::move(p));
  }
  return j;
}

constexpr int kStateVersion = 1;

}  // namespace

void Service::save_if_changed() {
  if (options_.state_file.empty()) return;
  std::string text;
  uint64_t seen = 0;
  uint64_t journal_seq = 0;
  {
    std::unique_lock gate(writes_gate_);
    std::shared_lock lock(mu_);
    seen = changes_.load();
    journal_seq = journal_.last_seq();
    if (seen == saved_changes_ && !journal_.has_entries()) return;
    json doc{{"trainyardEmulatorState", kStateVersion},
             {"account", options_.account},
             {"nodeSeq", node_seq_},
             {"journalSeq", journal_seq}};
    for (const auto& [id, p] : pools_) doc["pools"].push_back(pool_json(p));
    for (const auto& [id, n] : nodes_) doc["nodes"].push_back(node_json(n));
    for (const auto& [id, j] : jobs_) doc["jobs"].push_back(job_json(j));
    text = doc.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  const std::string tmp = options_.state_file + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return;
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
            ::fsync(fd) == 0;
  ::close(fd);
  if (ok && std::rename(tmp.c_str(), options_.state_file.c_str()) == 0) {
    saved_changes_ = seen;
    journal_.drop_through(journal_seq);
  } else {
    ::unlink(tmp.c_str());
  }
}

Result<void> Service::load() {
  if (options_.state_file.empty()) return {};
  auto snapshot_seq = load_snapshot();
  if (!snapshot_seq) return snapshot_seq.error();
  saved_changes_ = changes_.load();
  if (auto ok = open_journal(*snapshot_seq); !ok) return ok.error();
  return {};
}

Result<uint64_t> Service::load_snapshot() {
  std::ifstream in(options_.state_file);
  if (!in) return uint64_t{0};  // a new state file
  std::stringstream buf;
  buf << in.rdbuf();
  json doc = json::parse(buf.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object() ||
      doc.value("trainyardEmulatorState", 0) != kStateVersion) {
    return make_error(ErrorKind::Parse, fmt::format("{}: not an emulator state file (version {})",
                                                    options_.state_file, kStateVersion));
  }
  try {
    std::unique_lock lock(mu_);
    node_seq_ = doc.value("nodeSeq", uint64_t{0});
    for (const auto& p : doc.value("pools", json::array()))
      pools_.emplace(p.at("id"), pool_from(p));
    for (const auto& n : doc.value("nodes", json::array()))
      nodes_.emplace(n.at("id"), node_from(n));
    for (const auto& j : doc.value("jobs", json::array())) jobs_.emplace(j.at("id"), job_from(j));
    return doc.value("journalSeq", uint64_t{0});
  } catch (const json::exception& e) {
    pools_.clear();
    nodes_.clear();
    jobs_.clear();
    return make_error(ErrorKind::Parse, fmt::format("{}: {}", options_.state_file, e.what()));
  }
}

}  // namespace trainyard::emu
