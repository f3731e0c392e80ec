// A task's files around its run, as a Batch node moves them: its resourceFiles downloaded while
// it is preparing, its outputFiles uploaded before it completes. The transfers run on the
// FileMover's thread; their ends are applied on the next tick.
#include <fstream>

#include "account.hpp"
#include "auto_storage.hpp"
#include "file_mover.hpp"
#include "sandbox.hpp"

namespace trainyard::emu {

namespace {

// As a node does: the upload errors in the task's folder, beside its stdout and stderr.
void write_upload_errors(const std::string& path, const std::vector<std::string>& errors) {
  std::ofstream out(path, std::ios::trunc);
  for (const auto& e : errors) out << e << "\n";
}

const nlohmann::json* listed(const TaskEntity& t, const char* field) {
  if (!t.extra || !t.extra->contains(field)) return nullptr;
  const auto& v = (*t.extra)[field];
  return v.is_array() && !v.empty() ? &v : nullptr;
}

TaskEntity* find_run(std::map<std::string, JobEntity>& jobs, const FileMover::Done& d,
                     JobEntity*& job) {
  auto j = jobs.find(d.job);
  if (j == jobs.end()) return nullptr;
  auto t = j->second.tasks.find(d.task);
  if (t == j->second.tasks.end() || !t->second.moving_files ||
      t->second.engine_generation != d.generation || t->second.state == TaskState::Completed ||
      t->second.state == TaskState::Active)
    return nullptr;
  job = &j->second;
  return &t->second;
}

}  // namespace

bool Account::download_inputs(const JobEntity& j, TaskEntity& t) {
  const auto* files = listed(t, "resourceFiles");
  if (!files) return false;
  t.moving_files = true;
  const std::string wd = task_dir(options_.work_dir, t.node_id, j.id, t.id) + "/wd";
  std::optional<AutoStorage> storage;
  if (!options_.auto_storage.empty())
    if (auto s = parse_auto_storage(options_.auto_storage)) storage = *s;  // checked at start
  mover_->submit({j.id, t.id, t.engine_generation, false, [files = *files, wd, storage] {
                    return download_resource_files(files, wd, storage ? &*storage : nullptr);
                  }});
  return true;
}

bool Account::upload_outputs(const JobEntity& j, TaskEntity& t) {
  const auto* files = listed(t, "outputFiles");
  if (!files) return false;
  t.moving_files = true;
  const std::string wd = task_dir(options_.work_dir, t.node_id, j.id, t.id) + "/wd";
  const bool success = t.exec.exit_code == 0;
  mover_->submit({j.id, t.id, t.engine_generation, true,
                  [files = *files, wd, success]() -> std::optional<FileFailure> {
                    auto errors = upload_output_files(files, wd, success);
                    if (errors.empty()) return std::nullopt;
                    write_upload_errors(wd + "/../fileuploaderr.txt", errors);
                    return upload_failure(errors);
                  }});
  return true;
}

// A failed download ends the task before its command runs; a failed upload fails a task that
// had succeeded (and is added to the reason of one that had not).
void Account::apply_moved_files() {
  if (!mover_) return;
  for (const auto& d : mover_->take_done()) {
    JobEntity* j = nullptr;
    TaskEntity* t = find_run(jobs_, d, j);
    if (!t) continue;  // requeued, terminated or deleted meanwhile: that run is over
    t->moving_files = false;
    if (!d.upload && !d.failure && nodes_.count(t->node_id)) {
      launch_instances(*j, *t);
      continue;
    }
    if (d.failure) {
      Execution& e = t->exec;
      e.failure_message = e.failure_code.empty() ? d.failure->message
                                                 : e.failure_message + "; " + d.failure->message;
      if (e.failure_code.empty()) e.failure_code = d.failure->code;
      for (const auto& error : d.failure->upload_errors)
        e.failure_details.emplace_back("FileUploadError", error);
      e.result = TaskResult::Failure;
    }
    finish_task(*j, *t);
  }
}

}  // namespace trainyard::emu
