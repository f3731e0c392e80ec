// The submit prompt: a spec file path with Tab completion, then a preview to confirm; the specs
// go to the focused account (a Batch one's through its worker, tui_submit_batch.cpp).
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "local/task_environment.hpp"
#include "spec/load.hpp"
#include "spec_to_local.hpp"
#include "tui_batch.hpp"

namespace trainyard {
namespace {

namespace fs = std::filesystem;

// `~` and `~/…` as the shell reads them: the home directory ($HOME).
std::string expand_home(const std::string& path) {
  const char* home = std::getenv("HOME");
  if (!home || !*home || path.empty() || path[0] != '~') return path;
  if (path.size() == 1 || path[1] == '/') return home + path.substr(1);
  return path;
}

// Directory part (with its slash) and the name prefix being typed.
std::pair<std::string, std::string> split_path(const std::string& text) {
  auto slash = text.rfind('/');
  if (slash == std::string::npos) return {"", text};
  return {text.substr(0, slash + 1), text.substr(slash + 1)};
}

std::string longest_common_prefix(const std::vector<std::string>& names) {
  if (names.empty()) return "";
  std::string prefix = names.front();
  for (const auto& n : names) {
    size_t i = 0;
    while (i < prefix.size() && i < n.size() && prefix[i] == n[i]) ++i;
    prefix.resize(i);
  }
  return prefix;
}

std::string preview_text(const std::vector<spec::JobSpec>& specs, const std::string& account) {
  std::string out;
  for (const auto& s : specs) {
    out += fmt::format("{}: {} task(s). ", s.job.id, s.tasks.size());
    if (!s.tasks.empty()) out += fmt::format("First: {}. ", s.tasks.front().commandLine);
    if (!s.unmapped.empty()) out += fmt::format("{} field(s) not mapped. ", s.unmapped.size());
  }
  return out + "Submit to " + account + "?";
}

void submit_specs(AppContext& ctx, TuiState& st, const std::vector<spec::JobSpec>& specs) {
  if (st.top().account != kLocalAccount) return submit_specs_to_batch(ctx, st, specs);
  std::error_code ec;
  auto cwd = fs::current_path(ec).string();
  for (const auto& s : specs) {
    auto reqs = local_requests(s, cwd, current_environment());
    if (!reqs) return set_status(st, reqs.error().message, StatusLevel::Error);
    run_local(st,
              [requests = std::move(*reqs), job = local_job(s),
               id = s.job.id](LocalEngine& e) -> Result<std::string> {
                auto done = e.submit_all(requests, job);
                if (!done) return done.error();
                return fmt::format("{}: {} task(s) queued", id, done->size());
              });
  }
}

void load_and_preview(AppContext& ctx, TuiState& st, const std::string& typed) {
  st.modal.mode = Mode::Normal;
  const std::string path = expand_home(typed);
  auto specs = spec::load_job_specs(path, st.top().account == kLocalAccount
                                              ? local_load_options(ctx.data_dir)
                                              : spec::LoadOptions{});
  if (!specs) return set_status(st, specs.error().message, StatusLevel::Error);
  st.modal.confirm = DialogVm{"Submit " + fs::path(path).filename().string(),
                              preview_text(*specs, st.top().account)};
  st.modal.on_confirm = [&ctx, &st, loaded = std::move(*specs)] { submit_specs(ctx, st, loaded); };
  st.modal.mode = Mode::Confirm;
}

}  // namespace

std::vector<std::string> path_candidates(const std::string& text) {
  auto [dir, prefix] = split_path(expand_home(text));
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir.empty() ? "." : dir, ec)) {
    auto name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || (prefix.empty() && name[0] == '.')) continue;
    out.push_back(name + (e.is_directory(ec) ? "/" : ""));
  }
  std::sort(out.begin(), out.end());
  return out;
}

void open_submit_prompt(AppContext& ctx, TuiState& st) {
  if (st.top().account != kLocalAccount && !account_writable(ctx, st)) return;
  std::error_code ec;
  st.modal.input.set_text(fs::current_path(ec).string() + "/");
  st.modal.mode = Mode::SubmitPath;
}

namespace {

// `/` or `~` typed right after a `/` starts a new path (as Emacs' file prompts do): the prompt
// starts at the working directory, and a typed absolute path must not land under it.
bool restarts_path(const LineEdit& input, const KeyEvent& key) {
  if (!key.is_text() || (key.ch != '/' && key.ch != '~')) return false;
  const std::string& text = input.text();
  return input.cursor() == text.size() && !text.empty() && text.back() == '/';
}

}  // namespace

void handle_submit_key(AppContext& ctx, TuiState& st, const KeyEvent& key) {
  if (key.key == Key::Tab) {
    auto [dir, prefix] = split_path(st.modal.input.text());
    auto common = longest_common_prefix(path_candidates(st.modal.input.text()));
    if (common.size() > prefix.size()) st.modal.input.set_text(dir + common);
    return;
  }
  if (restarts_path(st.modal.input, key))
    return st.modal.input.set_text(std::string(1, static_cast<char>(key.ch)));
  auto r = st.modal.input.handle(key);
  if (r == Reaction::Cancel) st.modal.mode = Mode::Normal;
  if (r == Reaction::Submit) load_and_preview(ctx, st, st.modal.input.text());
}

}  // namespace trainyard
