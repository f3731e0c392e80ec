// What marks do to one pane's action: the question the confirmation asks and the action each
// marked row gets. Each table pane declares its own (Pane::bulk_specs).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "batch_action.hpp"
#include "local_action.hpp"
#include "tui_pane.hpp"

namespace trainyard {

/// One action of a pane over its marked rows.
struct BulkSpec {
  Action action;
  bool local;        ///< on the local account (else on a Batch one)
  const char* verb;  ///< `Stop`: the question's first word, lowercase the outcome's
  const char* noun;  ///< `run` (a plural adds `s`)
  const char* note;  ///< what the question adds (`Their process groups get SIGTERM…`)
  /// One row's action (local or Batch, as `local` says).
  std::function<LocalAction(const Frame&, const std::string&)> local_action;
  std::function<BatchAction(const Frame&, const std::string&)> batch_action;
  /// Every row in one request (nodes leave their pool together, as one resize).
  std::function<BatchAction(const Frame&, const std::vector<std::string>&)> all_at_once;
  const char* refusal = nullptr;  ///< set: the action takes one row at a time
};

/// The Tasks pane's: stop, remove and retry, for local runs or Batch tasks.
const std::vector<BulkSpec>& task_bulk_specs(bool local);
/// The Jobs pane's (Batch only): terminate, delete.
const std::vector<BulkSpec>& job_bulk_specs(bool local);
/// The Nodes pane's (Batch only): reboot, reimage, remove.
const std::vector<BulkSpec>& node_bulk_specs(bool local);
/// The Pools pane's (Batch only): stop resizing, disable autoscale; delete is refused.
const std::vector<BulkSpec>& pool_bulk_specs(bool local);

}  // namespace trainyard
