// `:save PATH` on the Logs pane: the log on screen copied to a file; an existing file is only
// replaced after the user agrees.
#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "log_save.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

void report(TuiState& st, const Result<std::filesystem::path>& r) {
  if (!r) return set_status(st, sanitize_text(r.error().message), StatusLevel::Error);
  set_status(st, fmt::format("log saved to {}", sanitize_text(r->string())), StatusLevel::Ok);
}

}  // namespace

void save_log_command(AppContext&, TuiState& st, const std::string& path) {
  if (st.top().view != View::Logs)
    return set_status(st, "save: open a log first (l on a task)", StatusLevel::Error);
  std::string source = log_state(st).path;
  auto r = save_log_copy(source, path, false);
  if (r || r.error().kind != ErrorKind::Conflict) return report(st, r);
  auto target = std::filesystem::absolute(path).string();
  st.modal.confirm = DialogVm{
      "Overwrite file", fmt::format("{} exists. Replace it with this log?", sanitize_text(target))};
  st.modal.on_confirm = [&st, source, target] { report(st, save_log_copy(source, target, true)); };
  st.modal.mode = Mode::Confirm;
}

}  // namespace trainyard
