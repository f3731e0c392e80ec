// Where a virtual node's files live on this machine, laid out as on a Batch Linux node.
#pragma once

#include <string>

namespace trainyard::emu {

/// `<work>/nodes/<node>`: AZ_BATCH_NODE_ROOT_DIR.
std::string node_dir(const std::string& work_dir, const std::string& node);
/// `<node>/workitems/<job>/job-1/<task>`: AZ_BATCH_TASK_DIR.
std::string task_dir(const std::string& work_dir, const std::string& node, const std::string& job,
                     const std::string& task);
/// `<node>/startup`: the start task's directory.
std::string startup_dir(const std::string& work_dir, const std::string& node);
/// `<node>/workitems/<job>/job-1/jobpreparation` (and `jobrelease`).
std::string prep_dir(const std::string& work_dir, const std::string& node, const std::string& job,
                     bool release);
/// `<node>/shared`: AZ_BATCH_NODE_SHARED_DIR.
std::string shared_dir(const std::string& work_dir, const std::string& node);
/// Points `<dir>/stdout.txt` and `stderr.txt` at a run's files in the engine (replacing old links).
void link_outputs(const std::string& dir, const std::string& run_dir);

}  // namespace trainyard::emu
