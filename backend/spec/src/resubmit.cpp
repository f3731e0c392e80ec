#include "spec/resubmit.hpp"

#include <charconv>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

namespace trainyard::spec {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

struct Matcher {
  const JobSpec& spec;
  const std::vector<ExistingTask>& existing;
  const std::vector<std::string>& commands;

  bool same(std::size_t task, std::size_t job_task) const {
    const ExistingTask& e = existing[job_task];
    return e.command_line == commands[task] &&
           (!e.parameters || *e.parameters == spec.tasks[task].parameters);
  }

  // For each spec task, the job task it is (kNone: none). A job task of the same id is tried
  // first, so a resent file matches task for task even where commands repeat.
  std::vector<std::size_t> match() const {
    std::vector<std::size_t> out(spec.tasks.size(), kNone);
    std::vector<bool> claimed(existing.size(), false);
    std::unordered_map<std::string, std::size_t> by_id;
    for (std::size_t j = 0; j < existing.size(); ++j) by_id.emplace(existing[j].id, j);
    for (std::size_t i = 0; i < spec.tasks.size(); ++i) {
      auto it = by_id.find(spec.tasks[i].id);
      if (it != by_id.end() && same(i, it->second)) out[i] = it->second, claimed[it->second] = true;
    }
    std::unordered_multimap<std::string, std::size_t> by_command;
    for (std::size_t j = 0; j < existing.size(); ++j)
      if (!claimed[j]) by_command.emplace(existing[j].command_line, j);
    for (std::size_t i = 0; i < spec.tasks.size(); ++i) {
      if (out[i] != kNone) continue;
      auto [from, to] = by_command.equal_range(commands[i]);
      for (auto it = from; it != to; ++it) {
        if (!same(i, it->second)) continue;
        out[i] = it->second;
        by_command.erase(it);
        break;
      }
    }
    return out;
  }
};

// `<prefix><digits>` → the number; nullopt for any other id.
std::optional<int64_t> number_after(const std::string& id, const std::string& prefix) {
  if (id.size() <= prefix.size() || id.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  int64_t n = 0;
  const char* end = id.data() + id.size();
  auto [p, ec] = std::from_chars(id.data() + prefix.size(), end, n);
  if (ec != std::errc() || p != end) return std::nullopt;
  return n;
}

// Shipyard's numbering of tasks added to a job: one past the job's highest, skipping ids in use.
class NextIds {
 public:
  NextIds(const std::vector<ExistingTask>& existing, std::set<std::string> used)
      : existing_(existing), used_(std::move(used)) {}

  std::string next(const std::string& prefix, int width) {
    auto [it, fresh] = next_.try_emplace(prefix, 0);
    if (fresh)
      for (const auto& e : existing_)
        if (auto n = number_after(e.id, prefix)) it->second = std::max(it->second, *n + 1);
    std::string id;
    do {
      id = fmt::format("{}{:0{}}", prefix, it->second++, width);
    } while (!used_.insert(id).second);
    return id;
  }

 private:
  const std::vector<ExistingTask>& existing_;
  std::set<std::string> used_;
  std::map<std::string, int64_t> next_;
};

void follow_dependencies(SpecTask& t, const std::map<std::string, std::string>& renamed) {
  if (!t.dependsOn) return;
  for (auto& id : t.dependsOn->taskIds)
    if (auto it = renamed.find(id); it != renamed.end()) id = it->second;
}

}  // namespace

Result<Resubmission> missing_tasks(const JobSpec& spec, const std::vector<ExistingTask>& existing,
                                   const std::vector<std::string>& commands) {
  const auto match = Matcher{spec, existing, commands}.match();
  std::set<std::string> used;
  for (const auto& e : existing) used.insert(e.id);
  const std::set<std::string> taken = used;
  Resubmission out;
  out.spec = spec;
  out.spec.tasks.clear();
  std::map<std::string, std::string> renamed;
  std::vector<std::size_t> moving;
  for (std::size_t i = 0; i < spec.tasks.size(); ++i) {
    const SpecTask& t = spec.tasks[i];
    if (match[i] != kNone) {
      ++out.already;
      renamed[t.id] = existing[match[i]].id;
    } else if (!taken.count(t.id)) {
      used.insert(t.id);
    } else if (t.generated_id) {
      moving.push_back(i);
    } else {
      return make_error(ErrorKind::Conflict,
                        fmt::format("task {}/{} exists already with another command line; give "
                                    "the changed task an id of its own",
                                    spec.job.id, t.id));
    }
  }
  NextIds ids(existing, std::move(used));
  for (std::size_t i : moving) {
    const SpecTask& t = spec.tasks[i];
    renamed[t.id] = ids.next(t.generated_id->prefix, t.generated_id->width);
  }
  for (std::size_t i = 0; i < spec.tasks.size(); ++i) {
    if (match[i] != kNone) continue;
    SpecTask t = spec.tasks[i];
    if (auto it = renamed.find(t.id); it != renamed.end()) t.id = it->second;
    follow_dependencies(t, renamed);
    out.spec.tasks.push_back(std::move(t));
  }
  return out;
}

}  // namespace trainyard::spec
