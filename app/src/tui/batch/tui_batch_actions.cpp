// The TUI's Batch actions' shared parts: each change runs on the account's command worker, and
// its outcome comes back to the status bar; the UI thread never waits on the network.
#include <fmt/format.h>

#include "account_lookup.hpp"
#include "tui_batch.hpp"

namespace trainyard {
namespace {

// The account's config, or nullopt with the reason in the status bar.
std::optional<azure::AccountConfig> account_config(AppContext& ctx, TuiState& st, bool change) {
  const auto& account = st.top().account;
  if (account == kLocalAccount) {
    set_status(st, "that action is for Batch accounts", StatusLevel::Error);
    return std::nullopt;
  }
  auto config = find_account(ctx.settings, account);
  if (!config) {
    set_status(st, config.error().message, StatusLevel::Error);
    return std::nullopt;
  }
  if (change && (config->readonly || st.options.readonly)) {
    set_status(st,
               fmt::format("account {} is read-only ({})", account,
                           config->readonly ? "\"readonly\": true in config.json" : "--readonly"),
               StatusLevel::Error);
    return std::nullopt;
  }
  return *config;
}

CommandRunner* runner_for(AppContext& ctx, TuiState& st, bool change) {
  auto config = account_config(ctx, st, change);
  if (!config) return nullptr;
  auto& slot = st.work.runners[config->name];
  if (!slot) {
    const Clock& clock = ctx.clock;
    slot = std::make_unique<CommandRunner>(
        ctx.data_dir, [cfg = *config, &clock] { return open_batch_client(cfg, clock); },
        [q = &st.work.events](StatusMessage m) { q->post(std::move(m)); });
  }
  return slot.get();
}

}  // namespace

std::optional<int> whole_number(const std::string& v) {
  if (v.empty() || v.size() > 6 || v.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoi(v);
}

FieldError count_field(const std::string& v) {
  return v.empty() || whole_number(v) ? FieldError() : FieldError("a whole number");
}

FieldError id_field(const std::string& v) {
  return is_valid_batch_id(v) ? FieldError() : FieldError("ids: 1-64 letters, digits, - and _");
}

FieldError required_field(const std::string& v) {
  return v.empty() ? FieldError("this field is needed") : FieldError();
}

bool account_writable(AppContext& ctx, TuiState& st) {
  return account_config(ctx, st, true).has_value();
}

void run_batch(AppContext& ctx, TuiState& st, const std::string& what, BatchCommand command,
               bool change, BatchReply reply) {
  auto* runner = runner_for(ctx, st, change);
  if (!runner) return;
  runner->submit(what, std::move(command), status_origin(st), std::move(reply));
  set_status(st, what + "…");
}

void queue_action(AppContext& ctx, TuiState& st, BatchAction action, BatchReply reply) {
  const bool change = action.kind == ActionKind::Change;
  std::string what = action.what;
  run_batch(ctx, st, what, as_command(std::move(action), ctx.clock), change, std::move(reply));
}

void confirm_then(AppContext& ctx, TuiState& st, std::string title, std::string question,
                  BatchAction action) {
  if (!account_writable(ctx, st)) return;
  st.modal.confirm = DialogVm{std::move(title), std::move(question)};
  st.modal.on_confirm = [&ctx, &st, action = std::move(action)] { queue_action(ctx, st, action); };
  st.modal.mode = Mode::Confirm;
}

FormChange form_change(AppContext& ctx, BatchAction action) {
  std::string what = action.what;
  return {std::move(what), as_command(std::move(action), ctx.clock)};
}

FormChange refused_change(std::string what, Error error) {
  return {std::move(what),
          [error](azure::BatchClient&, Store&) -> Result<std::string> { return error; }};
}

void open_form(TuiState& st, Form form, std::function<void(const Form&)> on_submit) {
  st.modal.form = std::move(form);
  st.modal.on_form_submit = std::move(on_submit);
  st.modal.form_hooks = {};
  st.modal.mode = Mode::Form;
}

}  // namespace trainyard
