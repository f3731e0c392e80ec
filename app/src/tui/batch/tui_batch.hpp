// Internal: what the TUI's Batch actions share: the account's command worker, forms and
// confirmations that queue a change, and refreshing a changed entity into the store.
#pragma once

#include <optional>
#include <string>

#include "azure/batch_client.hpp"
#include "batch_action.hpp"
#include "spec/spec_model.hpp"
#include "sync/command_runner.hpp"
#include "sync/entity_refresh.hpp"
#include "tui_state.hpp"

namespace trainyard {

/// `Msg()` when a field is valid, else why not.
using FieldError = std::optional<std::string>;

/// A whole number of at most 6 digits, or nullopt.
std::optional<int> whole_number(const std::string& v);
/// Validators: an optional count, a Batch id, a required text.
FieldError count_field(const std::string& v);
FieldError id_field(const std::string& v);
FieldError required_field(const std::string& v);

/// On a Batch account: queues on its worker the reading of the top frame's job's unread task
/// logs into their cache copies (a completed task's to its end), for `purpose` (`grep`,
/// `sweep`), which the status line names with what was read (tui_job_logs_fetch.cpp).
void fetch_job_logs(AppContext& ctx, TuiState& st, const std::string& purpose);
/// The same for `runs` (of the top frame's account) only: each one's unread logs.
void fetch_run_logs(AppContext& ctx, TuiState& st, const std::vector<RunRef>& runs,
                    const std::string& purpose);

/// Queues `command` on the focused account's worker (refused, with a status message, when the
/// account is read-only or unknown); the status bar shows `what…` until it answers.
/// `change` false: a read, allowed on a read-only account.
/// `reply`, when given, runs on the UI thread with the outcome.
void run_batch(AppContext& ctx, TuiState& st, const std::string& what, BatchCommand command,
               bool change = true, BatchReply reply = {});
/// Queues a catalogue action on the focused account's worker, as run_batch does; its outcome
/// is the action's own text.
void queue_action(AppContext& ctx, TuiState& st, BatchAction action, BatchReply reply = {});
/// Asks first (default No), then queues the action.
void confirm_then(AppContext& ctx, TuiState& st, std::string title, std::string question,
                  BatchAction action);
/// Shows `form`; on a valid submit, `on_submit` gets it (and the form closes).
void open_form(TuiState& st, Form form, std::function<void(const Form&)> on_submit);
/// A change a form sends: its name (`create pool gpu`) and the command.
struct FormChange {
  std::string what;
  BatchCommand command;
};
/// The change a form sends for a catalogue action.
FormChange form_change(AppContext& ctx, BatchAction action);
/// A form's change that fails on the worker with `error` (a request that could not be built),
/// so the form comes back with it.
FormChange refused_change(std::string what, Error error);

/// What a Batch form sends (tui_batch_forms.cpp).
struct BatchForm {
  std::function<FormChange(const Form&)> change;  ///< what Enter sends
  std::string json_name;                          ///< `pool.json`; empty: no ^O
  /// ^O's pre-fill: the request the form's current values stand for.
  std::function<nlohmann::json(const Form&)> to_json;
  /// What an edited request sends; an error (nothing sent) when it is not one.
  std::function<Result<FormChange>(const nlohmann::json&)> json_change;
  /// ^T: tries the form's values (empty: no ^T).
  std::function<void(const Form&)> evaluate;
};
/// Shows a Batch form. A refusal (from the service or before it) brings the form back with what
/// was typed and the error under the field it names, or under the form.
void open_batch_form(AppContext& ctx, TuiState& st, Form form, BatchForm spec);

/// True when the focused account takes changes; else says why in the status bar.
bool account_writable(AppContext& ctx, TuiState& st);

/// `:submit` on a Batch account (tui_submit_batch.cpp): each job created (or resumed) and its
/// tasks added on the account's worker, as `submit --account A` does, then cached.
void submit_specs_to_batch(AppContext& ctx, TuiState& st, const std::vector<spec::JobSpec>& specs);

/// Asks to connect to a node (a temporary user with the SSH key, how long, a tunnel); on
/// Enter adds the user on the account's worker, then runs ssh in the terminal (tui_connect.cpp).
void open_connect_form(AppContext& ctx, TuiState& st, const std::string& pool,
                       const std::string& node);

/// Pane actions (tui_batch_pools.cpp).
void open_pool_form(AppContext& ctx, TuiState& st);
/// Reads the pool's autoscale settings, then shows them in a form (tui_batch_autoscale.cpp).
void open_autoscale_form(AppContext& ctx, TuiState& st, const std::string& pool);

/// An edited request: JSON text that must hold an object; a parse error names `name` with its
/// line and column (`pool.json:3:5: …`).
Result<nlohmann::json> parse_request_json(const std::string& name, const std::string& text);

}  // namespace trainyard
