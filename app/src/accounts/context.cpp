#include "app/context.hpp"

#include "account_lookup.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "gpu_probe.hpp"
#include "local/process.hpp"
#include "local/task_environment.hpp"
#include "output.hpp"

namespace trainyard {
namespace {

// The environment wins over config.json, so a variable picked up from a tmux server's
// environment is named wherever the count is shown.
std::pair<int, std::string> cpu_slots(const Settings& s) {
  const char* v = std::getenv("TRAINYARD_CPU_SLOTS");
  if (v && *v && std::atoi(v) > 0)
    return {std::atoi(v), fmt::format("TRAINYARD_CPU_SLOTS={} in the environment", std::atoi(v))};
  if (s.cpu_slots > 0) return {s.cpu_slots, "local.cpuSlots in config.json"};
  return {1, "the default"};
}

}  // namespace

const Clock& wall_clock() {
  static const SystemClock clock;
  return clock;
}

Result<std::unique_ptr<AppContext>> open_context(const std::string& data_dir_flag,
                                                 const Clock& clock) {
  auto ctx = std::make_unique<AppContext>(clock);
  auto settings = load_settings(default_config_path());
  if (!settings) return settings.error();
  ctx->settings = std::move(*settings);
  ctx->data_dir = resolve_data_dir(data_dir_flag);
  ctx->settings.data_dir = ctx->data_dir;  // where discovered accounts are cached
  if (auto r = make_directories(ctx->data_dir); !r) return r.error();
  ::chmod(ctx->data_dir.c_str(), 0700);
  auto store = Store::open(ctx->data_dir + "/cache.db");
  if (!store) return store.error();
  ctx->store = std::move(*store);
  ctx->engine.data_dir = ctx->data_dir;
  ctx->engine.trainyard_exe = self_executable();
  std::tie(ctx->engine.cpu_slots, ctx->cpu_slots_source) = cpu_slots(ctx->settings);
  ctx->engine.gpu_probe = make_gpu_probe(*ctx->store);
  ctx->engine.secret_variables = secret_variable_names(ctx->settings);
  return ctx;
}

int exit_code_for(const Error& e) {
  return e.kind == ErrorKind::Usage || e.kind == ErrorKind::Parse ? 2 : 1;
}

int report(const Error& e) {
  out::eprint("trainyard: {}", e.message);
  return exit_code_for(e);
}

Result<std::pair<std::string, std::string>> split_task_ref(const std::string& ref) {
  auto slash = ref.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == ref.size() ||
      ref.find('/', slash + 1) != std::string::npos)
    return make_error(ErrorKind::Usage, fmt::format("'{}': expected JOB/TASK", ref));
  return std::pair{ref.substr(0, slash), ref.substr(slash + 1)};
}

bool cached_account(Store* store, const std::string& account) {
  auto accounts =
      store ? store->accounts() : Result<std::vector<Account>>(make_error(ErrorKind::Internal, ""));
  if (!accounts) return false;
  return std::any_of(accounts->begin(), accounts->end(),
                     [&](const Account& a) { return a.name == account; });
}

Result<void> check_account(const std::string& account, const std::string& data_dir_flag) {
  if (account.empty() || account == kLocalAccount) return ok_result();
  auto settings = load_settings(default_config_path());
  if (!settings) return settings.error();
  settings->data_dir = resolve_data_dir(data_dir_flag);  // discovered accounts are cached there
  auto found = find_account(*settings, account);
  if (!found) return found.error();
  return ok_result();
}

}  // namespace trainyard
