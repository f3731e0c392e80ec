#include <climits>

#include <fmt/format.h>

#include "batch_ai_parts.hpp"

namespace trainyard::spec {

namespace {

std::string python_command(AiContext& ctx, JsonFields& f) {
  std::string cmd = fmt::format("{} {}", f.str("pythonInterpreterPath").value_or("python"),
                                f.required_str("pythonScriptFilePath"));
  if (auto args = f.str("commandLineArgs"); args && !args->empty()) cmd += " " + *args;
  return substitute(ctx, cmd);
}

// Batch runs the application command on the primary node only; mpirun starts the ranks on all
// nodes, and `-x` forwards the task's environment (by name only: no value reaches argv).
std::string mpi_launch(const AiContext& ctx, int ranks, const std::string& cmd) {
  std::string out = fmt::format(
      "mpirun --allow-run-as-root --host ${{AZ_BATCH_HOST_LIST:-localhost}} --map-by node "
      "--oversubscribe -np {}",
      ranks);
  for (const auto& name : ctx.env_names) out += " -x " + name;
  return out + " " + cmd;
}

std::string per_rank(const AiContext& ctx, int ranks, const std::string& script) {
  return mpi_launch(ctx, ranks, "/bin/bash -c " + shell_quote(script));
}

int process_count(AiContext& ctx, JsonFields& f) {
  return f.integer("processCount", 1, INT_MAX).value_or(ctx.node_count);
}

std::string maybe_mpi(AiContext& ctx, JsonFields& f, const std::string& cmd) {
  int ranks = process_count(ctx, f);
  return ranks > 1 || ctx.node_count > 1 ? mpi_launch(ctx, ranks, cmd) : cmd;
}

std::string custom_toolkit(AiContext& ctx, JsonFields& f) {
  return substitute(ctx, f.required_str("commandLine"));
}

std::string custom_mpi(AiContext& ctx, JsonFields& f) {
  std::string cmd = substitute(ctx, f.required_str("commandLine"));
  return mpi_launch(ctx, process_count(ctx, f), cmd);
}

std::string horovod(AiContext& ctx, JsonFields& f) {
  std::string cmd = python_command(ctx, f);
  return mpi_launch(ctx, process_count(ctx, f), cmd);
}

std::string chainer(AiContext& ctx, JsonFields& f) {
  return maybe_mpi(ctx, f, python_command(ctx, f));
}

std::string caffe2(AiContext& ctx, JsonFields& f) {
  return python_command(ctx, f);
}

std::string caffe(AiContext& ctx, JsonFields& f) {
  if (f.object().contains("pythonScriptFilePath")) {
    if (f.object().contains("configFilePath")) {
      f.fail("configFilePath", "give configFilePath or pythonScriptFilePath, not both");
    }
    return maybe_mpi(ctx, f, python_command(ctx, f));
  }
  std::string cmd = "caffe train --solver=" + f.required_str("configFilePath");
  if (auto args = f.str("commandLineArgs"); args && !args->empty()) cmd += " " + *args;
  return maybe_mpi(ctx, f, substitute(ctx, cmd));
}

std::string cntk(AiContext& ctx, JsonFields& f) {
  // Batch AI's own CNTK Python recipes give a script and no languageType: that is Python.
  const bool script_only =
      f.object().contains("pythonScriptFilePath") && !f.object().contains("configFilePath");
  auto language = f.enumeration("languageType", {"BrainScript", "Python"})
                      .value_or(script_only ? "Python" : "BrainScript");
  if (language == "Python") return maybe_mpi(ctx, f, python_command(ctx, f));
  std::string cmd = "cntk configFile=" + f.required_str("configFilePath");
  if (auto args = f.str("commandLineArgs"); args && !args->empty()) cmd += " " + *args;
  return maybe_mpi(ctx, f, substitute(ctx, cmd));
}

std::string pytorch(AiContext& ctx, JsonFields& f) {
  std::string cmd = python_command(ctx, f);
  auto backend = f.enumeration("communicationBackend", {"gloo", "nccl", "mpi", "tcp"});
  int ranks = process_count(ctx, f);
  if (!backend) return ranks > 1 ? mpi_launch(ctx, ranks, cmd) : cmd;
  return per_rank(ctx, ranks,
                  fmt::format("export AZ_BATCHAI_TASK_INDEX=$OMPI_COMM_WORLD_RANK "
                              "AZ_BATCHAI_WORLD_SIZE={} AZ_BATCHAI_PYTORCH_BACKEND={} "
                              "AZ_BATCHAI_PYTORCH_INIT_METHOD=tcp://"
                              "${{AZ_BATCH_MASTER_NODE:-localhost:6000}}; {}",
                              ranks, *backend, cmd));
}

std::string tf_role(AiContext& ctx, JsonFields& f, std::string_view args_key) {
  std::string cmd = fmt::format("{} {}", f.str("pythonInterpreterPath").value_or("python"),
                                f.required_str("pythonScriptFilePath"));
  if (auto args = f.str(args_key); args && !args->empty()) cmd += " " + *args;
  return substitute(ctx, cmd);
}

// Hosts are derived in the shell because node addresses are known only when the task runs.
// Worker 0 is the master and runs masterCommandLineArgs, as in Batch AI.
std::string tf_script(int ps, int workers, const std::string& ps_cmd, const std::string& master,
                      const std::string& wk_cmd) {
  return fmt::format(
      "H=(${{AZ_BATCH_HOST_LIST//,/ }}); [ ${{#H[@]}} -gt 0 ] || H=(localhost); "
      "R=$OMPI_COMM_WORLD_RANK; P={0}; PS=; WK=; "
      "for ((i=0;i<{0}+{1};i++)); do a=${{H[i % ${{#H[@]}}]}}:$((2222+i)); "
      "if ((i<P)); then PS+=${{PS:+,}}$a; else WK+=${{WK:+,}}$a; fi; done; "
      "export AZ_BATCHAI_PS_HOSTS=$PS AZ_BATCHAI_WORKER_HOSTS=$WK; "
      "if ((R<P)); then export AZ_BATCHAI_TASK_INDEX=$R; {2}; "
      "else export AZ_BATCHAI_TASK_INDEX=$((R-P)); if ((R==P)); then {3}; else {4}; fi; fi",
      ps, workers, ps_cmd, master, wk_cmd);
}

std::string tensorflow(AiContext& ctx, JsonFields& f) {
  const json& o = f.object();
  bool distributed = o.contains("workerCount") || o.contains("parameterServerCount") ||
                     o.contains("workerCommandLineArgs");
  std::string master = tf_role(ctx, f, "masterCommandLineArgs");
  if (!distributed) return master;
  int workers = f.integer("workerCount", 1, INT_MAX).value_or(ctx.node_count);
  int ps_default = o.contains("parameterServerCommandLineArgs") ? 1 : 0;
  int ps = f.integer("parameterServerCount", 0, INT_MAX).value_or(ps_default);
  std::string ps_cmd = tf_role(ctx, f, "parameterServerCommandLineArgs");
  std::string wk_cmd = tf_role(ctx, f, "workerCommandLineArgs");
  return per_rank(ctx, ps + workers, tf_script(ps, workers, ps_cmd, master, wk_cmd));
}

using Reader = std::string (*)(AiContext&, JsonFields&);

struct Toolkit {
  std::string_view key;
  Reader read;
};

constexpr Toolkit kToolkits[] = {
    {"customToolkitSettings", custom_toolkit},
    {"customMpiSettings", custom_mpi},
    {"horovodSettings", horovod},
    {"cntkSettings", cntk},
    {"pyTorchSettings", pytorch},
    {"tensorFlowSettings", tensorflow},
    {"caffeSettings", caffe},
    {"caffe2Settings", caffe2},
    {"chainerSettings", chainer},
};

}  // namespace

std::string read_toolkit(AiContext& ctx, JsonFields& props) {
  const Toolkit* found = nullptr;
  for (const auto& t : kToolkits) {
    if (!props.object().contains(t.key)) continue;
    if (found)
      props.fail(t.key,
                 fmt::format("only one toolkit setting allowed; {} is given too", found->key));
    found = &t;
  }
  if (!found)
    props.fail("",
               "required: one toolkit setting (customToolkitSettings, cntkSettings, "
               "pyTorchSettings, tensorFlowSettings, …)");
  const json* obj = props.object_field(found->key);
  if (!obj) props.fail(found->key, "expected an object, got null");
  JsonFields f(ctx.map, *obj, props.at(found->key));
  std::string cmd = found->read(ctx, f);
  for (const auto& k : f.unread())
    unmapped(ctx, f, k, fmt::format("unknown field '{}' of {}", k, found->key));
  return cmd;
}

}  // namespace trainyard::spec
