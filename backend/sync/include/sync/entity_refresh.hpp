// One entity fetched and stored after a change (an action, `logs -f` watching a task): the
// cache shows the change at once instead of a poll later.
#pragma once

#include <optional>
#include <string>

#include "azure/batch_client.hpp"
#include "core/entities.hpp"
#include "core/result.hpp"
#include "store/store.hpp"

namespace trainyard {

/// GETs the pool and stores it; one the service no longer has (404) leaves the store.
Result<void> cache_pool(Store& store, azure::BatchClient& client, const std::string& pool);
/// The same for a node (its pool's taskSlotsPerNode kept from the cached node, if any).
Result<void> cache_node(Store& store, azure::BatchClient& client, const std::string& pool,
                        const std::string& node);
/// The same for a job.
Result<void> cache_job(Store& store, azure::BatchClient& client, const std::string& job);
/// Lists every task of the job and stores them in one transaction (tasks gone from the service
/// stay until a sync's id pass).
Result<void> cache_tasks(Store& store, azure::BatchClient& client, const std::string& job);
/// The same for a task; returns it as stored, or nullopt when it is gone.
Result<std::optional<Task>> cache_task(Store& store, azure::BatchClient& client,
                                       const std::string& job, const std::string& task);

}  // namespace trainyard
