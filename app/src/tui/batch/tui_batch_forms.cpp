// Batch forms: Enter (or ^O's edited request) queues the change on the account's worker, and a
// refusal brings the form back with what was typed and the error under the field it concerns.
#include "azure/batch_client.hpp"
#include "tui_batch.hpp"

namespace trainyard {
namespace {

// Back with the error where the user can mend it, unless another form or dialog is open now
// (then the status bar alone says it).
void reopen_with_error(AppContext& ctx, TuiState& st, const Form& form, const BatchForm& spec,
                       const Error& error, const std::string& draft) {
  if (st.modal.mode != Mode::Normal) return;
  open_batch_form(ctx, st, form, spec);
  st.modal.form->show_error(azure::property_at_fault(error), service_error_text(error.message));
  st.modal.form_hooks.draft = draft;
}

// `draft`: the edited request this change came from ("" for the form's own).
void send_form_change(AppContext& ctx, TuiState& st, const Form& form, const BatchForm& spec,
                      FormChange change, const std::string& draft) {
  run_batch(ctx, st, change.what, std::move(change.command), true,
            [&ctx, &st, form, spec, draft](const Result<std::string>& r) {
              if (!r) reopen_with_error(ctx, st, form, spec, r.error(), draft);
            });
}

FormHooks hooks_for(AppContext& ctx, TuiState& st, const BatchForm& spec) {
  FormHooks h;
  h.evaluate = spec.evaluate;
  if (spec.json_name.empty()) return h;
  h.json_name = spec.json_name;
  h.to_json = [spec](const Form& f) { return spec.to_json(f).dump(2) + "\n"; };
  h.send_json = [&ctx, &st, spec](const std::string& text, const Form& f) -> Result<void> {
    auto request = parse_request_json(spec.json_name, text);
    if (!request) return request.error();
    auto change = spec.json_change(*request);
    if (!change)
      return make_error(change.error().kind, spec.json_name + ": " + change.error().message);
    close_form(st);
    send_form_change(ctx, st, f, spec, std::move(*change), text);
    return {};
  };
  return h;
}

std::string keys_hint(const BatchForm& spec) {
  std::string out;
  if (!spec.json_name.empty()) out = "^O edit JSON";
  if (spec.evaluate) out += std::string(out.empty() ? "" : " · ") + "^T evaluate";
  return out;
}

}  // namespace

void open_batch_form(AppContext& ctx, TuiState& st, Form form, BatchForm spec) {
  form.keys_hint = keys_hint(spec);
  open_form(st, std::move(form), [&ctx, &st, spec](const Form& f) {
    send_form_change(ctx, st, f, spec, spec.change(f), "");
  });
  st.modal.form_hooks = hooks_for(ctx, st, spec);
}

}  // namespace trainyard
