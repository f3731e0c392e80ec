// `trainyard sync [--account A] [--job J] [--full] [--json]`: one pass of Batch accounts into the
// cache, incremental where the cache holds a watermark.
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "account_lookup.hpp"
#include "app/cli.hpp"
#include "app/context.hpp"
#include "commands.hpp"
#include "output.hpp"
#include "sync/batch_sync.hpp"

namespace trainyard {
namespace {

struct SyncFlags {
  std::string account, job;
  bool json = false;
  bool full = false;
};

std::string sync_line(const std::string& what, const SyncStats& s) {
  return fmt::format("synced {}: {} pass, {} entities, {} deleted, {} requests, {} bytes, {:.2f} s",
                     what, pass_kind(s), s.entities, s.deleted, s.requests, s.bytes, s.seconds);
}

Result<SyncStats> sync_one(AppContext& ctx, const azure::AccountConfig& a, const SyncFlags& f) {
  auto client = open_batch_client(a, ctx.clock);
  if (!client) return client.error();
  SyncScope scope{a.name, a.emulator ? AccountKind::Emulator : AccountKind::Batch, a.endpoint,
                  f.job};
  scope.full = f.full;
  return full_sync(*ctx.store, **client, scope);
}

int sync_command(const CliState& st, const SyncFlags& f) {
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  std::vector<azure::AccountConfig> targets;
  if (!f.account.empty()) {
    auto a = find_account((*ctx)->settings, f.account);
    if (!a) return report(a.error());
    targets.push_back(*a);
  } else {
    std::vector<std::string> notes;
    targets = known_accounts((*ctx)->settings, notes);
    for (const auto& n : notes) out::eprint("trainyard: {}", n);
    if (targets.empty())
      return report(
          make_error(ErrorKind::Usage, "no Batch account to sync (see trainyard accounts add)"));
  }
  if (!f.job.empty() && targets.size() != 1)
    return report(make_error(ErrorKind::Usage, "--job needs --account"));
  int failures = 0;
  for (const auto& a : targets) {
    auto stats = sync_one(**ctx, a, f);
    if (!stats) {
      out::eprint("trainyard: sync {}: {}", a.name, stats.error().message);
      ++failures;
      continue;
    }
    const std::string what = f.job.empty() ? a.name : a.name + "/" + f.job;
    if (f.json) {
      out::json(nlohmann::json{{"synced", what},
                               {"pass", pass_kind(*stats)},
                               {"entities", stats->entities},
                               {"deleted", stats->deleted},
                               {"requests", stats->requests},
                               {"bytes", stats->bytes},
                               {"seconds", stats->seconds}},
                -1);
    } else {
      out::line(stdout, sync_line(what, *stats));
    }
  }
  return failures ? kExitFailure : kExitOk;
}

}  // namespace

void register_sync(CLI::App& app, CliState& st) {
  auto f = std::make_shared<SyncFlags>();
  auto* cmd = app.add_subcommand(
      "sync", "Fetch Batch accounts into the cache (only what changed since the last pass)");
  cmd->add_option("--account", f->account, "Only this account (default: every Batch account)");
  cmd->add_option("--job", f->job, "Only this job and its tasks");
  cmd->add_flag("--full", f->full, "List every task, even of jobs the cache holds a watermark for");
  cmd->add_flag("--json", f->json, "Print the figures as JSON");
  cmd->callback([&st, f] { st.action = [&st, f] { return sync_command(st, *f); }; });
}

}  // namespace trainyard
