// `trainyard rm`: finished runs (named, a job's, every one; the N best of each job kept), jobs
// left without runs, and Batch tasks.
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "app/context.hpp"
#include "cmd_wait_stop_batch.hpp"
#include "commands.hpp"
#include "local/task_environment.hpp"
#include "local_action.hpp"
#include "output.hpp"
#include "run_ranking.hpp"

namespace trainyard {
namespace {

using TaskRef = std::pair<std::string, std::string>;

struct RmOptions {
  std::string account, job;
  std::vector<std::string> refs;  ///< JOB/TASK, or JOB for a job without runs
  bool finished = false, yes = false, dry_run = false;
  int keep_best = -1;                           ///< -1: every selected run goes
  std::string metric, direction, by = "final";  ///< what --keep-best ranks by
};

/// What one `rm` would remove, and what --keep-best keeps.
struct RmPlan {
  std::vector<TaskRef> runs;
  std::vector<std::string> jobs;
  std::vector<std::string> rules;  ///< how each job's runs were ranked (--keep-best)
  std::vector<std::string> kept;   ///< `JOB/TASK (final loss 0.4)` lines
  bool bulk = false;               ///< chosen by --finished or --job: asked for first
};

bool bulk(const RmOptions& o) {
  return o.finished || !o.job.empty();
}

uint64_t disk_usage(const std::string& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec)) total += it->file_size(ec);
  }
  return total;
}

double megabytes(AppContext& ctx, const TaskRef& r) {
  return static_cast<double>(disk_usage(run_paths(ctx.data_dir, r.first, r.second).dir)) / 1e6;
}

std::string runs_text(size_t n) {
  return fmt::format("{} run{}", n, n == 1 ? "" : "s");
}

Result<std::vector<Task>> tasks_of(AppContext& ctx, const std::string& job, bool finished_only) {
  TaskQuery q;
  q.account = kLocalAccount;
  q.job = job;
  if (finished_only) q.state = TaskState::Completed;
  return ctx.store->tasks(q);
}

RankingRule ranking_rule(const RmOptions& o) {
  return {o.metric, o.direction, o.by == "best" ? RankBy::Best : RankBy::Final};
}

// `job cb: keeping its 3 best, best by final val_loss ↓ min (…)`: the rule, said before acting.
std::string keep_rule_text(const std::string& job, int keep, const SweepMetric& m) {
  constexpr const char* kNever = "a run that failed or has no value is never kept";
  return fmt::format("job {}: keeping its {} best, {} ({})", job, keep, sweep_metric_title(m),
                     kNever);
}

// --keep-best: each job's finished runs but its N best by the one ranking of runs.
Result<void> plan_keep_best(AppContext& ctx, const RmOptions& o, const std::vector<Task>& finished,
                            RmPlan& plan) {
  std::map<std::string, std::vector<Task>> by_job;
  for (const auto& t : finished) by_job[t.job_id].push_back(t);
  for (const auto& [job, runs] : by_job) {
    auto all = tasks_of(ctx, job, false);
    if (!all) return all.error();
    auto ranked = rank_runs(ctx, job, runs, *all, ranking_rule(o), o.keep_best);
    if (!ranked) return ranked.error();
    if (ranked->metric.name.empty()) {
      auto what = o.metric.empty() ? std::string("no metric") : "no metric '" + o.metric + "'";
      out::eprint("trainyard: rm: job {} has {} to rank its runs by; its {} stay", job, what,
                  runs_text(runs.size()));
      continue;
    }
    const auto& m = ranked->metric;
    plan.rules.push_back(keep_rule_text(job, o.keep_best, m));
    for (const auto& r : ranked->kept)
      plan.kept.push_back(fmt::format("{}/{} ({} {} {:g})", job, r.task.id, to_string(m.by), m.name,
                                      *ranked_value(m, r)));
    for (const auto& r : ranked->rest) plan.runs.emplace_back(job, r.task.id);
  }
  return ok_result();
}

Result<void> plan_bulk(AppContext& ctx, const RmOptions& o, RmPlan& plan) {
  plan.bulk = true;
  auto finished = tasks_of(ctx, o.job, true);
  if (!finished) return finished.error();
  if (o.keep_best >= 0) return plan_keep_best(ctx, o, *finished, plan);
  for (const auto& t : *finished) plan.runs.emplace_back(t.job_id, t.id);
  return ok_result();
}

Result<RmPlan> make_plan(AppContext& ctx, const RmOptions& o) {
  if (o.keep_best >= 0 && !bulk(o))
    return make_error(ErrorKind::Usage,
                      "rm --keep-best N: choose the runs with --finished or --job J");
  if (o.keep_best < 0 && (!o.metric.empty() || !o.direction.empty() || o.by != "final"))
    return make_error(ErrorKind::Usage, "rm: --metric, --direction and --by go with --keep-best");
  RmPlan plan;
  for (const auto& r : o.refs) {
    if (r.find('/') == std::string::npos) {
      plan.jobs.push_back(r);
      continue;
    }
    auto ref = split_task_ref(r);
    if (!ref) return ref.error();
    plan.runs.push_back(*ref);
  }
  if (bulk(o)) TY_TRY(plan_bulk(ctx, o, plan));
  if (o.refs.empty() && !bulk(o))
    return make_error(ErrorKind::Usage, "rm: name JOB/TASK... or JOB, --job J or --finished");
  return plan;
}

// The rule of each job, then the runs it keeps: said before anything goes.
void print_kept(const RmPlan& plan) {
  for (const auto& rule : plan.rules) out::print("{}", rule);
  for (const auto& k : plan.kept) out::print("keeping {}", k);
}

void print_plan(AppContext& ctx, const RmPlan& plan) {
  print_kept(plan);
  for (const auto& r : plan.runs)
    out::print("would remove {}/{} ({:.1f} MB)", r.first, r.second, megabytes(ctx, r));
  for (const auto& j : plan.jobs) out::print("would remove job {}", j);
}

// A bulk removal is asked for on a terminal and refused without one unless --yes.
Result<void> confirm(AppContext& ctx, const RmPlan& plan, bool yes) {
  if (!plan.bulk || plan.runs.empty()) return ok_result();
  double mb = 0;
  for (const auto& r : plan.runs) mb += megabytes(ctx, r);
  auto what = fmt::format("{} ({:.1f} MB)", runs_text(plan.runs.size()), mb);
  auto ok = confirm_typed("Removing " + what + " and their files", "yes", yes);
  if (!ok)
    return make_error(ErrorKind::Usage,
                      fmt::format("rm: {} would be removed; {}", what, ok.error().message));
  return ok_result();
}

int remove_planned(AppContext& ctx, const RmPlan& plan) {
  LocalEngine engine(*ctx.store, ctx.engine, ctx.clock);
  int rc = kExitOk;
  print_kept(plan);
  for (const auto& r : plan.runs) {
    auto mb = megabytes(ctx, r);
    auto done = act::remove_run(r.first, r.second).run(engine);
    if (!done) {
      rc = report(done.error());
      continue;
    }
    out::print("{} ({:.1f} MB)", *done, mb);
  }
  for (const auto& j : plan.jobs) {
    if (auto done = engine.remove_job(j); !done) {
      rc = report(done.error());
      continue;
    }
    out::print("removed job {}", j);
  }
  return rc;
}

int rm_local(const CliState& st, const RmOptions& o) {
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  auto plan = make_plan(**ctx, o);
  if (!plan) return report(plan.error());
  if (plan->runs.empty() && plan->jobs.empty()) {
    print_kept(*plan);
    out::print("nothing to remove");
    return kExitOk;
  }
  if (o.dry_run) {
    print_plan(**ctx, *plan);
    return kExitOk;
  }
  if (auto ok = confirm(**ctx, *plan, o.yes); !ok) return report(ok.error());
  return remove_planned(**ctx, *plan);
}

int rm_command(const CliState& st, const RmOptions& o) {
  if (auto a = check_account(o.account, st.data_dir); !a) return report(a.error());
  if (!is_batch_account(o.account)) return rm_local(st, o);
  if (bulk(o) || o.dry_run || o.keep_best >= 0)
    return report(
        make_error(ErrorKind::Usage, "rm --account: name the Batch tasks (JOB/TASK...) to delete"));
  std::vector<TaskRef> tasks;
  for (const auto& r : o.refs) {
    auto ref = split_task_ref(r);
    if (!ref) return report(ref.error());
    tasks.push_back(*ref);
  }
  return rm_batch(st, o.account, tasks);
}

}  // namespace

void register_rm(CLI::App& app, CliState& st) {
  auto o = std::make_shared<RmOptions>();
  auto* cmd = app.add_subcommand("rm", "Remove finished runs and their files, or empty jobs");
  cmd->add_option("tasks", o->refs, "JOB/TASK ..., or JOB (a job without runs left)");
  cmd->add_option("--account", o->account, "Account");
  cmd->add_option("--job", o->job, "Every finished task of this job");
  cmd->add_flag("--finished", o->finished, "Every finished local task");
  cmd->add_option("--keep-best", o->keep_best,
                  "With --finished or --job: keep the N best runs of each job, ranked as "
                  "`sweep` ranks them (runs that failed are never kept)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--metric", o->metric,
                  "--keep-best ranks by this metric (default: the job's main)");
  cmd->add_option("--direction", o->direction, "min or max is best (default: by the name)")
      ->check(CLI::IsMember({"min", "max"}));
  cmd->add_option("--by", o->by, "Rank by each run's final value (default) or its best")
      ->check(CLI::IsMember({"final", "best"}));
  cmd->add_flag("--dry-run", o->dry_run, "List what would be removed; remove nothing");
  cmd->add_flag("--yes", o->yes, "Remove --finished/--job runs without asking");
  cmd->callback([&st, o] { st.action = [&st, o] { return rm_command(st, *o); }; });
}

}  // namespace trainyard
