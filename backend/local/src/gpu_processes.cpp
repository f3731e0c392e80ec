#include "local/gpu_processes.hpp"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace trainyard {
namespace {

// Parses the fields after `comm`: the command name may hold spaces and parentheses, so the
// numbers start after the LAST ')'.
std::optional<std::pair<int64_t, int64_t>> parse_pgrp_session(const std::string& stat) {
  auto close = stat.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream in(stat.substr(close + 1));
  std::string state;
  int64_t ppid = 0, pgrp = 0, session = 0;
  if (!(in >> state >> ppid >> pgrp >> session)) return std::nullopt;
  return std::make_pair(pgrp, session);
}

PidLookup or_real_proc(const PidLookup& lookup) {
  if (lookup) return lookup;
  return [](int64_t pid) { return read_pid_identity(pid); };
}

// The run whose pgid equals the pid itself, its process group, or its session.
std::optional<GpuRunRef> match_run(int64_t pid, const std::optional<PidIdentity>& id,
                                   const std::map<int64_t, GpuRunRef>& runs_by_pgid) {
  for (int64_t key : {pid, id ? id->pgrp : -1, id ? id->session : -1}) {
    if (auto it = runs_by_pgid.find(key); it != runs_by_pgid.end()) return it->second;
  }
  return std::nullopt;
}

bool holds_memory(const GpuProcess& p) {
  return !p.used_memory || *p.used_memory > 0;
}

}  // namespace

std::optional<PidIdentity> read_pid_identity(int64_t pid, const std::filesystem::path& proc_root) {
  if (pid <= 0) return std::nullopt;
  auto dir = proc_root / std::to_string(pid);
  std::ifstream file(dir / "stat");
  std::string stat;
  if (!file || !std::getline(file, stat)) return std::nullopt;
  auto ids = parse_pgrp_session(stat);
  struct stat st {};
  if (!ids || ::stat(dir.c_str(), &st) != 0) return std::nullopt;
  return PidIdentity{ids->first, ids->second, static_cast<uint32_t>(st.st_uid)};
}

std::vector<LabeledGpuProcess> label_gpu_processes(const std::vector<GpuSample>& samples,
                                                   const std::map<int64_t, GpuRunRef>& runs_by_pgid,
                                                   const PidLookup& lookup) {
  PidLookup find = or_real_proc(lookup);
  std::vector<LabeledGpuProcess> out;
  for (const GpuSample& s : samples) {
    for (const GpuProcess& p : s.processes) {
      auto id = find(p.pid);
      LabeledGpuProcess l{s.index, s.uuid, p, match_run(p.pid, id, runs_by_pgid), std::nullopt};
      if (id) l.uid = id->uid;
      out.push_back(std::move(l));
    }
  }
  return out;
}

std::vector<ForeignGpuUse> busy_by_foreign(const std::vector<GpuSample>& samples,
                                           const std::set<int64_t>& our_pgids, uint32_t current_uid,
                                           const PidLookup& lookup) {
  std::map<int64_t, GpuRunRef> ours;
  for (int64_t pgid : our_pgids) ours.emplace(pgid, GpuRunRef{});
  std::vector<ForeignGpuUse> out;
  for (const LabeledGpuProcess& l : label_gpu_processes(samples, ours, lookup)) {
    if (!l.foreign() || !holds_memory(l.process)) continue;
    // An unreadable owner (exited, or another pid namespace) is treated as another user's.
    bool other = !l.uid || *l.uid != current_uid;
    out.push_back({l.gpu_index, l.gpu_uuid, l.process.pid, l.process.used_memory, l.uid, other});
  }
  return out;
}

std::set<std::string> busy_gpu_uuids(const std::vector<ForeignGpuUse>& uses) {
  std::set<std::string> out;
  for (const ForeignGpuUse& u : uses) out.insert(u.gpu_uuid);
  return out;
}

}  // namespace trainyard
