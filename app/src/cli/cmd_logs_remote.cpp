// `trainyard logs --account A JOB/TASK [-f] [--stderr] [--raw] [--offline]` and
// `trainyard logs --account A --node POOL/NODE PATH`: Batch files, read into their cache copy
// (sync/remote_log.hpp) and printed from it.
#include "cmd_logs_remote.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "account_lookup.hpp"
#include "app/cli.hpp"
#include "app/context.hpp"
#include "core/sanitizer.hpp"
#include "log_printer.hpp"
#include "output.hpp"
#include "sync/entity_refresh.hpp"
#include "sync/remote_log.hpp"

namespace trainyard {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

constexpr auto kPollInterval = 1s;
// The task's state costs a request of its own: asked less often than the file is read.
constexpr auto kTaskRefreshInterval = 3s;

Error usage(std::string message) {
  return make_error(ErrorKind::Usage, std::move(message));
}

// One line on stderr. Service messages are remote text, so the line goes through the sanitizer;
// bad input exits 2, anything the service or the disk did exits 1.
int fail(const std::string& what, const Error& e) {
  out::eprint("trainyard: {}: {}", what, e.message);
  return e.kind == ErrorKind::Usage ? kExitUsage : kExitFailure;
}

Result<std::pair<std::string, std::string>> split_node_ref(const std::string& text) {
  auto slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size() ||
      text.find('/', slash + 1) != std::string::npos)
    return usage(fmt::format("--node '{}': expected POOL/NODE", text));
  return std::pair{text.substr(0, slash), text.substr(slash + 1)};
}

Result<void> fill_task_file(RemoteFileRef& ref, const RemoteLogsRequest& r) {
  if (r.target.empty()) return usage("expected JOB/TASK");
  auto jt = split_task_ref(r.target);
  if (!jt) return jt.error();
  ref.job = jt->first;
  ref.task = jt->second;
  ref.path = r.stderr_stream ? "stderr.txt" : "stdout.txt";
  return ok_result();
}

Result<void> fill_node_file(RemoteFileRef& ref, const RemoteLogsRequest& r) {
  if (r.stderr_stream) return usage("--stderr is for a task's output; name the node's file");
  if (r.target.empty()) return usage("expected the file's path on the node (startup/stderr.txt)");
  auto pn = split_node_ref(r.node);
  if (!pn) return pn.error();
  ref.pool = pn->first;
  ref.node = pn->second;
  ref.path = r.target;
  return ok_result();
}

Result<RemoteFileRef> file_ref(const RemoteLogsRequest& r) {
  if (r.offline && r.follow) return usage("--offline prints the cached copy; it cannot follow");
  RemoteFileRef ref;
  ref.account = r.account;
  TY_TRY(r.node.empty() ? fill_task_file(ref, r) : fill_node_file(ref, r));
  TY_TRY(check_remote_file_ref(ref));
  return ref;
}

std::string describe(const RemoteFileRef& ref) {
  if (ref.is_node_file())
    return fmt::format("logs {} of node {}/{} in {}", ref.path, ref.pool, ref.node, ref.account);
  return fmt::format("logs {} of task {}/{} in {}", ref.path, ref.job, ref.task, ref.account);
}

// Prints the copy from `offset` to its end; returns the new offset. A copy now shorter than
// `offset` was restarted (by this process or another): it is printed again from its start.
int64_t print_from(const fs::path& path, int64_t offset, LogPrinter& out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return offset;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size < offset) offset = 0;
  char buf[1 << 16];
  for (ssize_t n; (n = ::pread(fd, buf, sizeof buf, offset)) > 0; offset += n)
    out.write(std::string_view(buf, static_cast<size_t>(n)));
  ::close(fd);
  return offset;
}

int print_offline(const fs::path& cache, const RemoteFileRef& ref, bool raw) {
  std::error_code ec;
  if (!fs::exists(cache, ec))
    return fail(describe(ref),
                make_error(ErrorKind::NotFound, "nothing cached yet (run it without --offline)"));
  LogPrinter printer(stdout, raw);
  print_from(cache, 0, printer);
  printer.finish();
  return kExitOk;
}

bool cached_as_completed(Store& store, const RemoteFileRef& ref) {
  if (ref.is_node_file()) return false;
  auto t = store.task(ref.account, ref.job, ref.task);
  return t && t->has_value() && (*t)->state == TaskState::Completed;
}

// Without -f: one read (the final one when the cache already knows the task completed), then
// the whole copy.
int print_once(Store& store, RemoteLogTail& tail, bool raw) {
  auto st = cached_as_completed(store, tail.ref()) ? tail.finish() : tail.step();
  if (!st) return fail(describe(tail.ref()), st.error());
  LogPrinter printer(stdout, raw);
  print_from(tail.cache_path(), 0, printer);
  printer.finish();
  return kExitOk;
}

// What `logs -f` keeps between polls.
struct Follow {
  Store& store;
  azure::BatchClient& client;
  RemoteLogTail& tail;
  LogPrinter printer;
  int64_t printed = 0;
  SteadyClock::time_point refreshed{};
};

// Returns whether the read came back full (more is there to read at once).
Result<bool> read_and_print(Follow& f, bool final_pass) {
  auto st = final_pass ? f.tail.finish() : f.tail.step();
  if (!st) return st.error();
  if (st->reset) {
    // The new copy may already be longer than what was printed of the old one.
    f.printed = 0;
    out::eprint("trainyard: {} was replaced on the node; printing it from its start",
                f.tail.ref().path);
  }
  f.printed = print_from(f.tail.cache_path(), f.printed, f.printer);
  if (!st->missing) TY_TRY(f.tail.feed_metrics(final_pass));
  return st->more;
}

// Whether the task has completed: asks the service (and updates the cache) every few seconds.
// A node file has no task: it is followed until interrupted.
Result<bool> task_completed(Follow& f) {
  const auto& ref = f.tail.ref();
  if (ref.is_node_file() || SteadyClock::now() - f.refreshed < kTaskRefreshInterval) return false;
  f.refreshed = SteadyClock::now();
  auto t = cache_task(f.store, f.client, ref.job, ref.task);
  if (!t) return t.error();
  if (!*t) return make_error(ErrorKind::NotFound, "task " + ref.job + "/" + ref.task + " is gone");
  return (*t)->state == TaskState::Completed;
}

// The read after `last`: one interval later, on the same beat, so the time a read takes does not
// add to the interval (a read longer than an interval skips beats).
SteadyClock::time_point next_beat(SteadyClock::time_point last) {
  const auto now = SteadyClock::now();
  last += kPollInterval;
  if (last <= now) last += (now - last) / kPollInterval * kPollInterval + kPollInterval;
  return last;
}

int follow(Follow& f) {
  auto beat = SteadyClock::now();
  for (;;) {
    auto done = task_completed(f);
    if (!done) return fail(describe(f.tail.ref()), done.error());
    auto more = read_and_print(f, *done);
    if (!more) return fail(describe(f.tail.ref()), more.error());
    if (*done) break;
    if (*more) continue;  // a backlog is printed chunk by chunk, without waiting between them
    beat = next_beat(beat);
    std::this_thread::sleep_until(beat);
  }
  f.printer.finish();
  return kExitOk;
}

Result<std::unique_ptr<azure::BatchClient>> connect(AppContext& ctx, const std::string& name) {
  auto account = find_account(ctx.settings, name);
  if (!account) return account.error();
  auto client = open_batch_client(*account, ctx.clock);
  if (!client) return client.error();
  auto kind = account->emulator ? AccountKind::Emulator : AccountKind::Batch;
  TY_TRY(ctx.store->upsert_account(Account{account->name, kind, account->endpoint}));
  return client;
}

int read_remote(AppContext& ctx, const RemoteFileRef& ref, const RemoteLogsRequest& r) {
  auto client = connect(ctx, ref.account);
  if (!client) return fail(describe(ref), client.error());
  RemoteLogOptions options;
  options.metric_patterns = ctx.settings.metric_patterns;
  // Following: one chunk a read, so a long backlog shows as it arrives, not after all of it; and
  // new lines are printed before their metrics are parsed.
  if (r.follow) {
    options.max_step_bytes = options.chunk_bytes;
    options.deferred_metrics = true;
  }
  auto tail = RemoteLogTail::open(*ctx.store, **client, ctx.data_dir, ref, options);
  if (!tail) return fail(describe(ref), tail.error());
  if (!r.follow) return print_once(*ctx.store, *tail, r.raw);
  Follow f{*ctx.store, **client, *tail, LogPrinter(stdout, r.raw)};
  return follow(f);
}

}  // namespace

int remote_logs_command(const CliState& st, const RemoteLogsRequest& r) {
  auto ref = file_ref(r);
  if (!ref) return fail("logs", ref.error());
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  auto cache = remote_cache_path((*ctx)->data_dir, *ref);
  if (!cache) return fail("logs", cache.error());
  if (r.offline) return print_offline(*cache, *ref, r.raw);
  return read_remote(**ctx, *ref, r);
}

}  // namespace trainyard
