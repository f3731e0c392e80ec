// The autoscale form: it starts from the pool's own formula (read from the service first), ^T
// evaluates the typed formula without enabling it, and Enter enables it; the service's error
// (a formula's line and column) shows in the form.
#include <memory>

#include "azure/batch_actions.hpp"
#include "core/sanitizer.hpp"
#include "tui_batch.hpp"

namespace trainyard {
namespace {

const char* const kExampleFormula = "$TargetDedicatedNodes = min(4, $PendingTasks.GetSample(1));";

std::vector<std::string> result_lines(const std::string& results) {
  std::vector<std::string> out;
  for (std::size_t pos = 0; pos < results.size();) {
    auto semi = std::min(results.find(';', pos), results.size());
    if (semi > pos) out.push_back(sanitize_text(results.substr(pos, semi - pos)));
    pos = semi + 1;
  }
  return out;
}

// Shown only while the evaluated form is still the one open: the user may have moved on.
void show_evaluation(TuiState& st, const std::string& title, const Result<std::string>& r,
                     const azure::AutoScaleEvaluation& eval) {
  if (st.modal.mode != Mode::Form || !st.modal.form || st.modal.form->title != title) return;
  auto& form = *st.modal.form;
  form.clear_errors();
  form.note.clear();
  if (!r) {
    form.error = service_error_text(r.error().message);
    return;
  }
  if (!eval.error.empty()) {
    // `Code: summary (Line L, Col C: what)`: the place first, where the width cuts least.
    auto open = eval.error.find(" (");
    form.note.push_back(sanitize_text(eval.error.substr(0, open)));
    if (open != std::string::npos && eval.error.back() == ')')
      form.error = sanitize_text(eval.error.substr(open + 2, eval.error.size() - open - 3));
    return;
  }
  form.note = result_lines(eval.results);
  if (form.note.empty()) form.note.push_back("(no results)");
}

void evaluate_formula(AppContext& ctx, TuiState& st, const std::string& pool, const Form& form) {
  auto eval = std::make_shared<azure::AutoScaleEvaluation>();
  const std::string title = form.title;
  queue_action(
      ctx, st, act::evaluate_autoscale(pool, form.value("Formula"), eval),
      [&st, title, eval](const Result<std::string>& r) { show_evaluation(st, title, r, *eval); });
}

Form autoscale_form(const std::string& pool, const azure::PoolAutoScale& current) {
  Form f;
  f.title = "Autoscale pool " + pool;
  f.add("Formula", current.formula.empty() ? kExampleFormula : current.formula, "autoscale formula",
        required_field)
      .sets("autoScaleFormula");
  f.add("Interval", current.interval.empty() ? "PT5M" : current.interval,
        "evaluation interval (ISO 8601, at least PT5M)")
      .sets("autoScaleEvaluationInterval");
  if (!current.enabled)
    f.note.push_back("autoscale is off here: the service evaluates (^T) only once it is on");
  return f;
}

void show_autoscale_form(AppContext& ctx, TuiState& st, const std::string& pool,
                         const azure::PoolAutoScale& current) {
  BatchForm spec;
  spec.change = [&ctx, pool](const Form& form) {
    auto interval = parse_iso_duration(form.value("Interval"));
    std::optional<Duration> every;
    if (interval) every = *interval;
    return form_change(ctx, act::enable_autoscale(pool, form.value("Formula"), every));
  };
  spec.evaluate = [&ctx, &st, pool](const Form& form) { evaluate_formula(ctx, st, pool, form); };
  open_batch_form(ctx, st, autoscale_form(pool, current), std::move(spec));
}

}  // namespace

void open_autoscale_form(AppContext& ctx, TuiState& st, const std::string& pool) {
  if (!account_writable(ctx, st)) return;
  auto current = std::make_shared<azure::PoolAutoScale>();
  run_batch(
      ctx, st, "read the autoscale formula of " + pool,
      [pool, current](azure::BatchClient& c, Store&) -> Result<std::string> {
        auto r = azure::get_pool_autoscale(c, pool);
        if (!r) return r.error();
        *current = *r;
        return "autoscale of " + pool + (current->enabled ? ": on" : ": off");
      },
      false,
      [&ctx, &st, pool, current](const Result<std::string>& r) {
        // A key pressed meanwhile opened something else: that stays.
        if (r && st.modal.mode == Mode::Normal) show_autoscale_form(ctx, st, pool, *current);
      });
}

}  // namespace trainyard
