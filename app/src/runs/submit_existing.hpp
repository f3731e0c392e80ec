// Internal: a spec submitted again to a job that has some of its tasks, locally or on Batch.
#pragma once

#include <string>
#include <vector>

#include "azure/batch_client.hpp"
#include "spec/resubmit.hpp"
#include "spec_to_local.hpp"
#include "store/store.hpp"

namespace trainyard {

/// The tasks of a local job, with their commands and sweep parameters; empty when there is none.
Result<std::vector<spec::ExistingTask>> local_existing_tasks(Store& store, const std::string& job);

/// The tasks of a job on a Batch account (one paged list of ids and command lines).
Result<std::vector<spec::ExistingTask>> batch_existing_tasks(azure::BatchClient& client,
                                                             const std::string& job);

/// What a local submission of one spec sends.
struct LocalPlan {
  std::vector<SubmitRequest> requests;  ///< the tasks the job lacks
  std::size_t already = 0;              ///< tasks of the spec the job has
  std::size_t removed = 0;  ///< tasks of the spec `rm` removed from the job, not queued again
};

/// The requests of `spec` (`requests`, as local_requests made them) less what the local job has
/// already and, unless `rerun_removed`, what `rm` removed from it (the store remembers those),
/// renumbered where spec::missing_tasks says. Changes nothing in the store.
Result<LocalPlan> plan_local_submission(Store& store, const spec::JobSpec& spec,
                                        std::vector<SubmitRequest> requests,
                                        const std::string& workdir,
                                        const std::vector<std::string>& environment,
                                        const ContainerChoice& containers,
                                        bool rerun_removed = false);

}  // namespace trainyard
