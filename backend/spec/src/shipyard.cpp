// Shipyard `jobs.yaml` → JobSpecs: job-level settings, task ids as Shipyard generated them,
// factory expansion with `str.format`, and the merge task.
#include "spec/shipyard.hpp"

#include <charconv>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "core/utf8.hpp"
#include "spec/run_params.hpp"

#include "shipyard_internal.hpp"

namespace trainyard::spec {
namespace {

using shipyard_detail::At;
using shipyard_detail::Context;
using shipyard_detail::Doc;
using shipyard_detail::present;
using shipyard_detail::TaskDraft;

// Shipyard's `str(n).zfill(width)` after the prefix, skipping ids already taken in the job.
class IdAllocator {
 public:
  /// Claims an explicit id; false when the job already has it.
  bool claim(const std::string& id) { return used_.insert(id).second; }

  /// The next free `<prefix><n>`, counting up per prefix across the job.
  std::string next(const std::string& prefix, int width) {
    int64_t& n = next_[prefix];
    std::string id;
    do {
      std::string digits = std::to_string(n++);
      if (digits.size() < static_cast<std::size_t>(width)) {
        digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
      }
      id = prefix + digits;
    } while (used_.count(id) != 0);
    used_.insert(id);
    return id;
  }

 private:
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, int64_t> next_;
};

// Line and column (bytes, as SourcePos counts them) of a byte offset.
SourcePos text_position(std::string_view text, std::size_t byte) {
  SourcePos pos{1, 1};
  for (std::size_t i = 0; i < byte; ++i) {
    pos = text[i] == '\n' ? SourcePos{pos.line + 1, 1} : SourcePos{pos.line, pos.col + 1};
  }
  return pos;
}

void note(Context& ctx, const At& at, std::string what) {
  ctx.unmapped.push_back(Unmapped{ctx.doc.place(at), std::move(what)});
}

// One generated task from a draft and its arguments.
Result<SpecTask> instantiate(Context& ctx, const TaskDraft& d, const PyArgs& args) {
  SpecTask t = d.task;
  if (d.format_command) {
    auto cmd = py_format(d.task.commandLine, args);
    if (!cmd) return ctx.doc.error(ctx.doc.child(d.at, "command"), cmd.error().message);
    t.commandLine = std::move(*cmd);
  }
  if (d.from_factory && d.format_command) {
    auto params = placeholder_parameters(d.task.commandLine, args);
    if (!params) return ctx.doc.error(ctx.doc.child(d.at, "command"), params.error().message);
    for (auto& p : *params) t.parameters.emplace_back(std::move(p.name), std::move(p.value));
  }
  return t;
}

Result<void> add_tasks(Context& ctx, const TaskDraft& d, IdAllocator& ids, JobSpec& spec) {
  for (const PyArgs& args : d.args) {
    if (spec.tasks.size() >= ctx.options.max_tasks) {
      return ctx.doc.error(d.at,
                           "job has more than " + std::to_string(ctx.options.max_tasks) + " tasks");
    }
    auto t = instantiate(ctx, d, args);
    if (!t) return t.error();
    if (t->id.empty()) {
      t->id = ids.next(d.id_prefix, d.id_width);
      t->generated_id = GeneratedId{d.id_prefix, d.id_width};
    } else if (!ids.claim(t->id)) {
      return ctx.doc.error(ctx.doc.child(d.at, "id"), "duplicate task id '" + t->id + "'");
    }
    spec.tasks.push_back(std::move(*t));
  }
  return ok_result();
}

Result<void> read_tasks(Context& ctx, const At& tasks, IdAllocator& ids, JobSpec& spec) {
  if (auto ok = ctx.doc.expect_seq(tasks); !ok) return ok.error();
  for (std::size_t i = 0; i < tasks.node.size(); ++i) {
    auto draft = shipyard_detail::read_task(ctx, ctx.doc.item(tasks, i), false);
    if (!draft) return draft.error();
    if (auto ok = add_tasks(ctx, *draft, ids, spec); !ok) return ok;
  }
  return ok_result();
}

// Shipyard's merge task waits for every other task of the job.
Result<void> read_merge_task(Context& ctx, const At& at, IdAllocator& ids, JobSpec& spec) {
  auto draft = shipyard_detail::read_task(ctx, at, true);
  if (!draft) return draft.error();
  draft->id_prefix = "merge-" + ctx.id_prefix;
  TaskDependencies deps;
  std::size_t chars = 0;
  for (const auto& t : spec.tasks) {
    deps.taskIds.push_back(t.id);
    chars += t.id.size();
  }
  // Batch caps the dependency id list; Shipyard refused the job in the same way.
  if (chars >= 64000) return ctx.doc.error(at, "merge_task dependencies are too large");
  draft->task.dependsOn = std::move(deps);
  return add_tasks(ctx, *draft, ids, spec);
}

Result<void> read_job_constraints(Context& ctx, const At& job, SpecJob& out) {
  if (const At v = ctx.doc.child(job, "max_task_retries"); present(v)) {
    auto n = ctx.doc.integer(v);
    if (!n) return n.error();
    if (*n < -1 || *n > 1000000) return ctx.doc.error(v, "expected -1 (unlimited) or a count");
    if (!out.constraints) out.constraints = Constraints{};
    out.constraints->maxTaskRetryCount = static_cast<int>(*n);
  }
  if (const At v = ctx.doc.child(job, "max_wall_time"); present(v)) {
    auto d = shipyard_detail::read_timespan(ctx.doc, v);
    if (!d) return d.error();
    if (!out.constraints) out.constraints = Constraints{};
    out.constraints->maxWallClockTime = *d;
  }
  return ok_result();
}

Result<void> read_job_scalars(Context& ctx, const At& job, SpecJob& out) {
  if (const At v = ctx.doc.child(job, "priority"); present(v)) {
    auto n = ctx.doc.integer(v);
    if (!n) return n.error();
    if (*n < -1000 || *n > 1000) return ctx.doc.error(v, "expected -1000 to 1000");
    out.priority = static_cast<int>(*n);
  }
  if (const At v = ctx.doc.child(job, "auto_complete"); present(v)) {
    auto b = ctx.doc.boolean(v);
    if (!b) return b.error();
    out.onAllTasksComplete = *b ? "terminatejob" : "noaction";
  }
  if (const At v = ctx.doc.child(job, "environment_variables"); present(v)) {
    auto env = shipyard_detail::read_env(ctx.doc, v);
    if (!env) return env.error();
    out.commonEnvironmentSettings = std::move(*env);
  }
  return read_job_constraints(ctx, job, out);
}

bool job_key_known(const std::string& key) {
  static const std::unordered_set<std::string> known{"id",
                                                     "tasks",
                                                     "merge_task",
                                                     "environment_variables",
                                                     "max_task_retries",
                                                     "max_wall_time",
                                                     "priority",
                                                     "auto_complete",
                                                     "autogenerated_task_id",
                                                     "gpus"};
  return known.count(key) != 0;
}

Result<JobSpec> read_job(Context& ctx, const At& job) {
  if (auto ok = ctx.doc.expect_map(job); !ok) return ok.error();
  JobSpec spec;
  auto id = ctx.doc.text(ctx.doc.child(job, "id"));
  if (!id) return id.error();
  spec.job.id = *id;
  if (const At v = ctx.doc.child(job, "autogenerated_task_id"); present(v)) {
    if (auto ok = shipyard_detail::read_autogen_id(ctx.doc, v, ctx.id_prefix, ctx.id_width); !ok) {
      return ok.error();
    }
  }
  ctx.job_gpus = ctx.doc.child(job, "gpus");
  if (auto ok = read_job_scalars(ctx, job, spec.job); !ok) return ok.error();
  for (const auto& kv : job.node) {
    const std::string key = kv.first.Scalar();
    if (!job_key_known(key)) {
      note(ctx, ctx.doc.child(job, key),
           "Shipyard job field '" + key + "' has no Batch equivalent; ignored");
    }
  }
  IdAllocator ids;
  if (auto ok = read_tasks(ctx, ctx.doc.child(job, "tasks"), ids, spec); !ok) return ok.error();
  if (const At merge = ctx.doc.child(job, "merge_task"); present(merge)) {
    if (auto ok = read_merge_task(ctx, merge, ids, spec); !ok) return ok.error();
  }
  for (const auto& t : spec.tasks) {
    if (t.dependsOn) spec.job.usesTaskDependencies = true;
  }
  return spec;
}

Result<int64_t> timespan_part(std::string_view s) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < 0) {
    return make_error(ErrorKind::Usage, "");
  }
  return v;
}

}  // namespace

Result<Duration> parse_shipyard_timespan(const std::string& text) {
  const Error bad = make_error(ErrorKind::Usage,
                               "expected a duration as [d.]HH:mm:ss, e.g. "
                               "1.12:00:00, got '" +
                                   text + "'");
  std::string_view rest = text;
  int64_t days = 0;
  if (const auto dot = rest.find('.'); dot != std::string_view::npos) {
    auto d = timespan_part(rest.substr(0, dot));
    if (!d) return bad;
    days = *d;
    rest.remove_prefix(dot + 1);
  }
  const auto c1 = rest.find(':');
  const auto c2 = c1 == std::string_view::npos ? c1 : rest.find(':', c1 + 1);
  if (c2 == std::string_view::npos || rest.find(':', c2 + 1) != std::string_view::npos) return bad;
  auto h = timespan_part(rest.substr(0, c1));
  auto m = timespan_part(rest.substr(c1 + 1, c2 - c1 - 1));
  auto s = timespan_part(rest.substr(c2 + 1));
  if (!h || !m || !s || days > 36500 || *h > 876000 || *m > 52560000 || *s > 3153600000) return bad;
  const int64_t secs = ((days * 24 + *h) * 60 + *m) * 60 + *s;
  return std::chrono::duration_cast<Duration>(std::chrono::seconds(secs));
}

Result<std::vector<JobSpec>> parse_shipyard_jobs(const std::string& text,
                                                 const std::string& source_name,
                                                 const ShipyardOptions& options) {
  // YAML is Unicode text, and ruamel.yaml refused a file that was not; past this point every
  // string may end up in JSON, whose writer needs valid UTF-8.
  if (auto bad = first_invalid_utf8(text)) {
    return spec_error(
        source_name, text_position(text, *bad), "",
        fmt::format("invalid UTF-8 (byte 0x{:02X})", static_cast<unsigned char>(text[*bad])));
  }
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    return spec_error(source_name, SourcePos{e.mark.line + 1, e.mark.column + 1}, "",
                      "YAML syntax error: " + e.msg);
  }
  Doc doc(source_name);
  const At top(root, "", SourcePos{1, 1});
  if (auto ok = doc.expect_map(top); !ok) return ok.error();
  const At jobs = doc.child(top, "job_specifications");
  if (auto ok = doc.expect_seq(jobs); !ok) return ok.error();
  PyRandom rng;  // Shipyard used the module-global generator for the whole file
  std::vector<JobSpec> out;
  for (std::size_t i = 0; i < jobs.node.size(); ++i) {
    std::vector<Unmapped> unmapped;
    Context ctx{doc, options, rng, unmapped, At{}, "task-", 5};
    auto job = read_job(ctx, doc.item(jobs, i));
    if (!job) return job.error();
    job->unmapped = std::move(unmapped);
    out.push_back(std::move(*job));
  }
  return out;
}

}  // namespace trainyard::spec
