// The TUI's Batch actions' shared parts: each change runs on the account's command worker, and
// its outcome comes back to the status bar; the UI thread never waits on the network.
#include <fmt/format.h>

#include "account_lookup.hpp"
#include "azure/batch_actions.hpp"
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
  auto& slot = st.runners[config->name];
  if (!slot) {
    const Clock& clock = ctx.clock;
    slot = std::make_unique<CommandRunner>(
        ctx.data_dir, [cfg = *config, &clock] { return open_batch_client(cfg, clock); },
        [q = &st.events](StatusMessage m) { q->post(std::move(m)); });
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

std::optional<std::string> selected_row(TuiState& st) {
  auto& c = st.top().cursor;
  if (c.selected < c.first || c.selected - c.first >= st.page.keys.size()) return std::nullopt;
  return st.page.keys[c.selected - c.first];
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

void confirm_then(AppContext& ctx, TuiState& st, std::string title, std::string question,
                  std::string what, BatchCommand command) {
  if (!account_writable(ctx, st)) return;
  st.confirm = DialogVm{std::move(title), std::move(question)};
  st.on_confirm = [&ctx, &st, what = std::move(what), command = std::move(command)] {
    run_batch(ctx, st, what, command);
  };
  st.mode = Mode::Confirm;
}

void open_form(TuiState& st, Form form, std::function<void(const Form&)> on_submit) {
  st.form = std::move(form);
  st.on_form_submit = std::move(on_submit);
  st.form_hooks = {};
  st.mode = Mode::Form;
}

Result<void> recache_task(Store& s, azure::BatchClient& c, const std::string& job,
                          const std::string& task) {
  auto r = cache_task(s, c, job, task);
  if (!r) return r.error();
  return {};
}

// `refresh` is a function so it runs after the change: arguments are evaluated in no set order.
Result<std::string> changed(Result<void> change, const std::function<Result<void>()>& refresh,
                            std::string done) {
  if (!change) return change.error();
  if (auto r = refresh(); !r) return done + " (cache refresh failed: " + r.error().message + ")";
  return done;
}

}  // namespace trainyard
