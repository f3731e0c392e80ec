// A spec submitted again to a job that has some of its tasks: what the job lacks, with ids that
// continue the job's numbering.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "spec/spec_model.hpp"

namespace trainyard::spec {

/// A task a job has already, as a resubmission compares it.
struct ExistingTask {
  std::string id;
  std::string command_line;  ///< as the account stores it
  /// Its sweep parameters; nullopt where the account keeps none (Batch): the command decides.
  std::optional<std::vector<std::pair<std::string, std::string>>> parameters;
};

/// What a resubmission sends of a spec.
struct Resubmission {
  JobSpec spec;             ///< only the tasks the job lacks, under the ids they get
  std::size_t already = 0;  ///< tasks of the spec the job has
};

/// The tasks of `spec` that the job (`existing`) lacks. A spec task is there already when a task
/// of the job has its command line (`commands[i]`: spec.tasks[i]'s as the account stores it)
/// and parameters; each job task stands for one spec task, the one of its own id first. A
/// missing task keeps its id when the job has no task of that id; an id Shipyard generated
/// (`task-00000`) that is taken moves on past the job's highest number of that prefix, as
/// Shipyard numbered tasks added to a job; a taken id the file gave is a Conflict. Dependencies
/// follow renamed and dropped tasks.
Result<Resubmission> missing_tasks(const JobSpec& spec, const std::vector<ExistingTask>& existing,
                                   const std::vector<std::string>& commands);

}  // namespace trainyard::spec
