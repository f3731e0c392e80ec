// The run form (local runs): command, job, name, GPUs, directory, retries, wall-clock limit and
// instances; ^O opens the run as a Batch task in $EDITOR (environment, resource files…), checked
// as `trainyard submit` checks a task file before anything is queued.
#include <filesystem>

#include <fmt/format.h>

#include "local/task_environment.hpp"
#include "spec/batch_json.hpp"
#include "spec_to_local.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

using Msg = std::optional<std::string>;

std::optional<int> positive_int(const std::string& s) {
  try {
    size_t used = 0;
    int v = std::stoi(s, &used);
    if (used == s.size() && v > 0) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// -1: retried without limit, as Batch's maxTaskRetryCount.
std::optional<int> retries(const std::string& s) {
  if (s == "0") return 0;
  if (s == "-1") return -1;
  return positive_int(s);
}

std::optional<Duration> wall_clock(const std::string& s) {
  if (s.empty()) return std::nullopt;
  auto d = parse_human_duration(s);
  return d ? std::optional<Duration>(*d) : std::nullopt;
}

Msg check_wall_clock(const std::string& v) {
  if (v.empty() || parse_human_duration(v)) return std::nullopt;
  return Msg("a duration such as 30m, 2h or 1d (empty: no limit)");
}

// The form stays open until the worker answers, so a refused run keeps what the user typed.
void run_form_submitted(TuiState& st, const Result<std::string>& r) {
  st.work.run_form_pending = false;
  bool open = st.modal.mode == Mode::Form && st.modal.form && !st.modal.on_form_submit;
  if (!r && open) {
    st.modal.form->clear_errors();
    st.modal.form->error = r.error().message;
    return;
  }
  set_status(st, r ? *r : r.error().message, r ? StatusLevel::Ok : StatusLevel::Error);
  if (!r || !open) return;
  close_form(st);
}

void queue_runs(TuiState& st, std::vector<SubmitRequest> requests, std::optional<Job> job) {
  st.work.run_form_pending = true;
  st.work.local->submit(
      [requests = std::move(requests), job](LocalEngine& e) -> Result<std::string> {
        auto done = e.submit_all(requests, job);
        if (!done) return done.error();
        if (done->size() == 1)
          return fmt::format("queued {}/{}", done->front().job_id, done->front().id);
        return fmt::format("queued {} runs", done->size());
      },
      [&st](const Result<std::string>& r) { run_form_submitted(st, r); });
}

nlohmann::json run_request(const Form& f, Timestamp now) {
  nlohmann::json task{{"id", fmt::format("run-{}", to_micros(now) / 1000)},
                      {"commandLine", f.value("Command")}};
  if (!f.value("Name").empty()) task["displayName"] = f.value("Name");
  if (auto gpus = positive_int(f.value("GPUs")); gpus && *gpus > 1) task["requiredSlots"] = *gpus;
  nlohmann::json limits{{"maxTaskRetryCount", retries(f.value("Retries")).value_or(0)}};
  if (auto wall = wall_clock(f.value("Wall clock")))
    limits["maxWallClockTime"] = format_iso_duration(*wall);
  task["constraints"] = limits;
  if (auto n = positive_int(f.value("Instances")); n && *n > 1)
    task["multiInstanceSettings"] = {{"numberOfInstances", *n}};
  return task;
}

// Checked as a task file is (line and column on error); nothing is queued unless it passes.
Result<void> send_run_json(TuiState& st, const std::string& text, const Form& f) {
  if (st.work.run_form_pending) return make_error(ErrorKind::Conflict, "the run is being queued");
  spec::BatchJsonOptions options;
  options.job_id = f.value("Job");
  auto spec = spec::parse_batch_json("run.json", text, options);
  if (!spec) return spec.error();
  auto requests = local_requests(*spec, f.value("Directory"), current_environment());
  if (!requests) return requests.error();
  st.modal.form_hooks.draft = text;  // a refusal from the engine reopens this text with ^O
  queue_runs(st, std::move(*requests), local_job(*spec));
  return {};
}

}  // namespace

void submit_run_form(TuiState& st) {
  if (st.work.run_form_pending) return;  // Enter twice must not queue the run twice
  const Form& f = *st.modal.form;
  SubmitRequest req;
  req.command_line = f.value("Command");
  req.job = f.value("Job");
  req.display_name = f.value("Name");
  req.gpus = positive_int(f.value("GPUs")).value_or(1);
  req.workdir = f.value("Directory");
  req.max_retries = retries(f.value("Retries")).value_or(0);
  req.max_wall = wall_clock(f.value("Wall clock"));
  req.instances = positive_int(f.value("Instances")).value_or(1);
  req.environment = current_environment();
  queue_runs(st, {req}, std::nullopt);
}

void open_run_form(AppContext& ctx, TuiState& st) {
  if (st.top().account != kLocalAccount)
    return set_status(st, "runs start on the local account for now", StatusLevel::Error);
  Form f;
  f.title = "Start a run";
  std::error_code ec;
  auto cwd = std::filesystem::current_path(ec).string();
  f.add("Command", st.options.demo_command, "shell command line",
        [](const std::string& v) { return v.empty() ? Msg("a command is needed") : Msg(); });
  f.add("Job", st.top().job.empty() ? "default" : st.top().job, "job id", [](const std::string& v) {
    return is_valid_batch_id(v) ? Msg() : Msg("job ids: letters, digits, - and _");
  });
  f.add("Name", "", "display name (optional)");
  f.add("GPUs", "1", "slots", [](const std::string& v) {
    return positive_int(v) ? Msg() : Msg("GPUs must be a whole number >= 1");
  });
  f.add("Directory", cwd, "working directory");
  f.add("Retries", "0", "runs again after a failure (-1: no limit)", [](const std::string& v) {
    return retries(v) ? Msg() : Msg("a whole number >= 0, or -1 for no limit");
  });
  f.add("Wall clock", "", "time limit per attempt, e.g. 2h (empty: none)", check_wall_clock);
  f.add("Instances", "1", "instances of a multi-instance run",
        [](const std::string& v) { return positive_int(v) ? Msg() : Msg("a whole number >= 1"); });
  f.keys_hint = "^O edit JSON";
  st.modal.form = std::move(f);
  st.modal.on_form_submit = nullptr;
  st.modal.form_hooks = {};
  st.modal.form_hooks.json_name = "run.json";
  st.modal.form_hooks.to_json = [&clock = ctx.clock](const Form& form) {
    return run_request(form, clock.now()).dump(2) + "\n";
  };
  st.modal.form_hooks.send_json = [&st](const std::string& text, const Form& form) {
    return send_run_json(st, text, form);
  };
  st.modal.mode = Mode::Form;
}

}  // namespace trainyard
