// Internal: names derived from a RemoteFileRef (the REST path, the store's offset key).
#pragma once

#include <string>

#include "sync/remote_log.hpp"

namespace trainyard::remote_log {

/// `/jobs/<job>/tasks/<task>/files/<path>` or `/pools/<pool>/nodes/<node>/files/<path>`, each
/// segment percent-encoded.
std::string rest_path(const RemoteFileRef& ref);

/// Where the store keeps how far the cache copy is complete.
struct OffsetKey {
  std::string job, task, file;
};
/// `cache:<path>` of the task; for a node file job and task are empty and the file is
/// `node:<pool>/<node>/<path>` (Batch ids are never empty, so no task's key collides).
OffsetKey cache_offset_key(const RemoteFileRef& ref);

/// The key (under cache_offset_key's job and task) of the copied file's creation time:
/// `created:<path>`, or `node-created:<pool>/<node>/<path>` for a node file.
std::string created_offset_key(const RemoteFileRef& ref);

/// True for a task's stdout.txt or stderr.txt: the files metrics are parsed from.
bool is_task_log(const RemoteFileRef& ref);

}  // namespace trainyard::remote_log
