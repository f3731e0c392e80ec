#include "sync/entity_refresh.hpp"

#include "azure/batch_actions.hpp"

namespace trainyard {
namespace {

// `got` stored by `put`, or `forget` when the service answered 404.
template <typename T, typename Put, typename Forget>
Result<void> store_or_forget(const Result<T>& got, Put put, Forget forget) {
  if (got) return put(*got);
  return got.error().kind == ErrorKind::NotFound ? forget() : Result<void>(got.error());
}

}  // namespace

Result<void> cache_pool(Store& store, azure::BatchClient& client, const std::string& pool) {
  return store_or_forget(
      azure::get_pool(client, pool), [&](const Pool& p) { return store.upsert_pool(p); },
      [&] { return store.delete_pool(client.options().account, pool); });
}

Result<void> cache_node(Store& store, azure::BatchClient& client, const std::string& pool,
                        const std::string& node) {
  const auto& account = client.options().account;
  return store_or_forget(
      azure::get_node(client, pool, node),
      [&](Node n) {
        // taskSlotsPerNode is the pool's, not on the node's wire.
        if (auto cached = store.nodes(account, pool))
          for (const auto& c : *cached)
            if (c.id == node) n.task_slots = c.task_slots;
        return store.upsert_node(n);
      },
      [&] { return store.delete_node(account, pool, node); });
}

Result<void> cache_job(Store& store, azure::BatchClient& client, const std::string& job) {
  return store_or_forget(
      azure::get_job(client, job), [&](const Job& j) { return store.upsert_job(j); },
      [&] { return store.delete_job(client.options().account, job); });
}

Result<void> cache_tasks(Store& store, azure::BatchClient& client, const std::string& job) {
  auto tasks = client.tasks(job);
  if (!tasks) return tasks.error();
  return store.upsert_tasks(*tasks);
}

Result<std::optional<Task>> cache_task(Store& store, azure::BatchClient& client,
                                       const std::string& job, const std::string& task) {
  auto got = azure::get_task(client, job, task);
  if (got) {
    TY_TRY(store.upsert_task(*got));
    if (got->multi_instance) {
      auto subtasks = azure::list_subtasks(client, job, task);
      if (!subtasks) return subtasks.error();
      TY_TRY(store.replace_subtasks(client.options().account, job, task, *subtasks));
    }
    return std::optional<Task>(*got);
  }
  if (got.error().kind != ErrorKind::NotFound) return got.error();
  TY_TRY(store.delete_task(client.options().account, job, task));
  return std::optional<Task>();
}

}  // namespace trainyard
