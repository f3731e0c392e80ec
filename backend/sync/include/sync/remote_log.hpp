// Tailing a Batch task's (or node's) file into a local cache: byte for byte, by ranged reads from
// the last offset, resumable after a restart or a crash.
//
// Where things are kept:
//   - the copy: remote_cache_path() (0600 file, 0700 directories);
//   - how far it is complete: the store's log offset `cache:<path>` of the task (node files: job
//     and task empty, file `node:<pool>/<node>/<path>`);
//   - metric extraction of a task's stdout.txt/stderr.txt: the LogMetricsFollower local runs use,
//     reading the copy, with its own offset under `<path>` (as for local runs).
//
// Replacement (a retried task writes a new stdout.txt) is detected by `ocp-creation-time`, which
// appends leave alone: a file created at another time than the one copied, or shorter than the
// copy, restarts the copy (TailStep::reset); the creation time is kept in the store next to the
// offset (`created:<path>`). So no byte is fetched twice. The header has one-second resolution,
// and a file truncated in place keeps its creation time: a file replaced within the second it was
// created, or truncated and rewritten past the offset between two reads, is not detected.
// Where the service sends no creation time (Batch leaves it out on Linux nodes), each read after
// the first starts up to 64 bytes before the offset and compares them with the copy's last bytes;
// a mismatch restarts the copy (a rewrite that keeps those 64 bytes is not detected).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "azure/batch_client.hpp"
#include "core/entities.hpp"
#include "core/result.hpp"
#include "store/store.hpp"
#include "sync/log_metrics.hpp"

namespace trainyard {

/// Which remote file: a task file (job + task) or a node file (pool + node).
struct RemoteFileRef {
  std::string account;
  std::string job, task;   ///< a task file; empty for a node file
  std::string pool, node;  ///< a node file; empty for a task file
  std::string path;        ///< relative, `/`-separated: `stdout.txt`, `startup/stderr.txt`

  /// True when this names a node file (pool and node set).
  bool is_node_file() const { return !pool.empty() || !node.empty(); }
};

/// Checks every component: Batch ids (account, job, task, pool, node) are 1 to 64 letters, digits,
/// `-` and `_`; exactly one of job+task and pool+node is set; the path has no empty, `.` or `..`
/// segment and no control character (NUL included). A Usage error names what is wrong.
Result<void> check_remote_file_ref(const RemoteFileRef& ref);

/// Where the cache copy lives: `<data_dir>/remote/<account>/jobs/<job>/<task>/<path>` or
/// `<data_dir>/remote/<account>/pools/<pool>/nodes/<node>/<path>`; a Usage error when
/// check_remote_file_ref() refuses `ref`.
Result<std::filesystem::path> remote_cache_path(const std::string& data_dir,
                                                const RemoteFileRef& ref);

/// What one read did.
struct TailStep {
  uint64_t new_bytes = 0;    ///< bytes appended to the copy
  uint64_t remote_size = 0;  ///< the remote file's size when this read began
  bool reset = false;        ///< the remote file shrank or was replaced: the copy was restarted
  bool missing = false;      ///< the file does not exist (yet): e.g. the task has not started
  bool more = false;  ///< stopped at `max_step_bytes` with bytes left: worth reading again at once
};

/// How a tail reads.
struct RemoteLogOptions {
  uint64_t chunk_bytes = uint64_t{4} << 20;  ///< most bytes asked for in one request
  /// Most bytes one step() appends (whole chunks; finish() has no limit); 0: all the HEAD saw.
  uint64_t max_step_bytes = 0;
  bool metrics = true;  ///< feed a task's stdout.txt/stderr.txt to metric extraction
  /// step() and finish() leave metric extraction to feed_metrics(), which the caller runs once
  /// it has shown the new bytes (so parsing them does not delay them).
  bool deferred_metrics = false;
  std::vector<MetricPattern> metric_patterns;  ///< the user's patterns (config `metricPatterns`)
};

/// Follows one remote file into its cache copy. Several processes may tail the same file: each
/// read holds an exclusive lock on the copy and starts from the offset in the store.
class RemoteLogTail {
 public:
  /// Checks `ref` (see check_remote_file_ref) and prepares a tail; nothing is read yet.
  static Result<RemoteLogTail> open(Store& store, azure::BatchClient& client,
                                    const std::string& data_dir, RemoteFileRef ref,
                                    RemoteLogOptions options = {});
  ~RemoteLogTail();
  RemoteLogTail(RemoteLogTail&&) noexcept;
  RemoteLogTail& operator=(RemoteLogTail&&) noexcept;

  /// HEAD for the size and creation time, then GETs with `ocp-range` from the stored offset to
  /// that size (at most `chunk_bytes` a request, `max_step_bytes` a step), appending to the copy
  /// and then recording the offset (file first, so a crash leaves offset <= copy size; a copy
  /// longer than the offset is cut back to it, a shorter one lowers the offset). A missing file
  /// (FileNotFound, or not valid for the task's state yet) is 0 bytes and `missing`, not an error;
  /// a missing job, task, pool or node is NotFound.
  Result<TailStep> step();
  /// The last read, once the task has completed: afterwards the copy equals the node's file
  /// byte for byte, and a last log record without a line end is parsed for metrics too.
  Result<TailStep> finish();

  /// Metric extraction of the bytes copied so far (with `deferred_metrics`; `final_pass` as the
  /// read was: a last record without a line end counts once the task has completed).
  Result<void> feed_metrics(bool final_pass);

  /// The cache copy's path.
  const std::filesystem::path& cache_path() const;
  /// The file this tail follows.
  const RemoteFileRef& ref() const;

 private:
  struct State;
  explicit RemoteLogTail(std::unique_ptr<State> state);
  Result<TailStep> read(bool final_pass);

  std::unique_ptr<State> s_;
};

}  // namespace trainyard
