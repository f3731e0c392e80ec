// RemoteLogTail against `trainyard emulator`: byte-for-byte copies of growing task and node
// files, resumption, crash repair, replaced files, missing files, metrics.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "azure/batch_client.hpp"
#include "emulator_client.hpp"
#include "emulator_process.hpp"
#include "store/store.hpp"
#include "sync/entity_refresh.hpp"
#include "sync/remote_log.hpp"

namespace trainyard::remote_log_test {
namespace {

namespace fs = std::filesystem;
using azuretest::EmulatorProcess;
using nlohmann::json;

std::string make_temp_dir() {
  std::string tmpl = (fs::temp_directory_path() / "trainyard-remote-log-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_file(const fs::path& p, const std::string& bytes, bool append = false) {
  std::ofstream out(p, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  out << bytes;
}

bool wait_until(const std::function<bool()>& fn, int seconds = 30) {
  for (int i = 0; i < seconds * 20; ++i) {
    if (fn()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// Bytes no two tests share and no rewrite repeats (so a replaced file really differs).
std::string pattern(size_t n, char seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + seed * 7 + i / 97) & 0xff);
  return s;
}

// An emulator whose sandboxes live in a temp dir (so a test can write a node's files itself),
// a store and a client.
struct Fixture {
  Fixture() : dir(make_temp_dir()), emu({"--state", dir + "/emu.json"}) {
    auto opened = Store::open(dir + "/cache.db");
    if (!opened) throw std::runtime_error(opened.error().message);
    store = std::move(opened.value());
    client = azuretest::emulator_client(emu, clock);
  }
  ~Fixture() {
    store.reset();
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

  void post(const std::string& path, const json& body) {
    auto r = client->call("POST", path, {}, body.dump(), {}, false);
    ASSERT_TRUE(r.ok()) << path << ": " << r.error().message;
  }
  // A pool of `nodes` nodes, waited for until every one is in `state`; returns the first node.
  std::string pool(const std::string& id, int nodes, NodeState state = NodeState::Idle,
                   json extra = json::object()) {
    json body{{"id", id}, {"vmSize", "standard_d2s_v3"}, {"targetDedicatedNodes", nodes}};
    body.update(extra);
    post("/pools", body);
    std::string first;
    EXPECT_TRUE(wait_until([&] {
      auto ns = client->nodes(id);
      if (!ns || static_cast<int>(ns->size()) != nodes || ns->empty()) return false;
      first = ns->front().id;
      for (const auto& n : *ns)
        if (n.state != state) return false;
      return true;
    })) << "pool "
        << id;
    return first;
  }
  void job(const std::string& id, const std::string& pool_id) {
    post("/jobs", {{"id", id}, {"poolInfo", {{"poolId", pool_id}}}});
  }
  void task(const std::string& job_id, const std::string& id, const std::string& command) {
    auto r = client->add_task(job_id, {{"id", id}, {"commandLine", command}});
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  bool completed(const std::string& job_id, const std::string& id) {
    auto t = cache_task(*store, *client, job_id, id);
    return t && *t && (*t)->state == TaskState::Completed;
  }
  // The remote file as the service serves it whole (no ocp-range).
  std::string remote(const RemoteFileRef& ref) {
    std::string path = ref.is_node_file()
                           ? "/pools/" + ref.pool + "/nodes/" + ref.node + "/files/" + ref.path
                           : "/jobs/" + ref.job + "/tasks/" + ref.task + "/files/" + ref.path;
    auto r = client->call("GET", path);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r ? r->body : std::string();
  }
  RemoteFileRef task_file(const std::string& job_id, const std::string& id,
                          const std::string& path = "stdout.txt") {
    return RemoteFileRef{emu.account(), job_id, id, "", "", path};
  }
  RemoteFileRef node_file(const std::string& pool_id, const std::string& node,
                          const std::string& path) {
    return RemoteFileRef{emu.account(), "", "", pool_id, node, path};
  }
  // Where the emulator keeps a node's files on this machine.
  fs::path sandbox(const std::string& node) const { return dir + "/emu.json.d/nodes/" + node; }
  RemoteLogTail tail(const RemoteFileRef& ref, uint64_t chunk = uint64_t{4} << 20) {
    RemoteLogOptions o;
    o.chunk_bytes = chunk;
    auto t = RemoteLogTail::open(*store, *client, dir + "/data", ref, o);
    if (!t) throw std::runtime_error(t.error().message);
    return std::move(*t);
  }

  std::string dir;
  EmulatorProcess emu;
  SystemClock clock;
  std::unique_ptr<Store> store;
  std::unique_ptr<azure::BatchClient> client;
};

TEST(RemoteLog, TailsAGrowingTaskToCompletionByteForByte) {
  Fixture f;
  f.pool("p", 1);
  f.job("j", "p");
  // 30 bursts of 100 000 random bytes (any byte value), 100 ms apart: about 3 MB.
  f.task("j", "big",
         "/bin/sh -c 'i=0; while [ $i -lt 30 ]; do head -c 100000 /dev/urandom; sleep 0.1; "
         "i=$((i+1)); done'");
  auto tail = f.tail(f.task_file("j", "big"), 256 << 10);
  int growing_steps = 0;
  ASSERT_TRUE(wait_until(
      [&] {
        if (f.completed("j", "big")) return true;
        auto st = tail.step();
        EXPECT_TRUE(st.ok()) << st.error().message;
        if (st && st->new_bytes > 0) ++growing_steps;
        return false;
      },
      60));
  auto last = tail.finish();
  ASSERT_TRUE(last.ok()) << last.error().message;
  EXPECT_EQ(last->remote_size, 3000000u);
  EXPECT_GE(growing_steps, 2) << "the file was not read while it grew";
  auto copy = read_all(tail.cache_path());
  EXPECT_EQ(copy.size(), 3000000u);
  EXPECT_TRUE(copy == f.remote(f.task_file("j", "big"))) << "the copy differs from the node's file";
  auto offset = f.store->log_offset(f.emu.account(), "j", "big", "cache:stdout.txt");
  ASSERT_TRUE(offset.ok());
  EXPECT_EQ(*offset, 3000000);
  struct stat st {};
  ASSERT_EQ(::stat(tail.cache_path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat(tail.cache_path().parent_path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  auto cached = f.store->task(f.emu.account(), "j", "big");
  ASSERT_TRUE(cached.ok() && cached->has_value());
  EXPECT_EQ((*cached)->state, TaskState::Completed);
}

TEST(RemoteLog, ResumesWithOnlyNewBytesAfterARestart) {
  Fixture f;
  auto node = f.pool("p", 1);
  auto ref = f.node_file("p", node, "shared/train.log");
  const auto file = f.sandbox(node) / "shared/train.log";
  fs::create_directories(file.parent_path());
  write_file(file, pattern(100000, 1));
  {
    auto first = f.tail(ref);
    auto st = first.step();
    ASSERT_TRUE(st.ok()) << st.error().message;
    EXPECT_EQ(st->new_bytes, 100000u);
  }
  write_file(file, pattern(5000, 2), true);
  const auto before = f.client->stats();
  auto second = f.tail(ref);  // a new process, as after a restart
  auto st = second.step();
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(st->new_bytes, 5000u);
  EXPECT_FALSE(st->reset);
  EXPECT_EQ(f.client->stats().requests - before.requests, 2u);  // HEAD, one GET
  // The GET asks for the new bytes only: the creation time tells the file is the one copied.
  EXPECT_EQ(f.client->stats().bytes - before.bytes, 5000u);
  EXPECT_TRUE(read_all(second.cache_path()) == read_all(file));
  // Nothing new: a HEAD alone.
  const auto idle = f.client->stats().requests;
  ASSERT_TRUE(second.step().ok());
  EXPECT_EQ(f.client->stats().requests - idle, 1u);
}

TEST(RemoteLog, CutsBackACopyLongerThanItsOffset) {
  Fixture f;
  auto node = f.pool("p", 1);
  auto ref = f.node_file("p", node, "shared/x.log");
  const auto file = f.sandbox(node) / "shared/x.log";
  fs::create_directories(file.parent_path());
  write_file(file, pattern(1000, 3));
  auto tail = f.tail(ref);
  ASSERT_TRUE(tail.step().ok());
  // A crash after an append and before its offset was recorded leaves extra bytes.
  write_file(tail.cache_path(), "half-written chunk", true);
  write_file(file, pattern(10, 4), true);
  auto st = f.tail(ref).step();
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(st->new_bytes, 10u);
  EXPECT_FALSE(st->reset);
  EXPECT_TRUE(read_all(tail.cache_path()) == read_all(file));
  // A copy deleted by hand is fetched again.
  fs::remove(tail.cache_path());
  st = tail.step();
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(st->new_bytes, 1010u);
  EXPECT_TRUE(read_all(tail.cache_path()) == read_all(file));
}

TEST(RemoteLog, RestartsTheCopyWhenTheRemoteFileShrinksOrIsReplaced) {
  Fixture f;
  auto node = f.pool("p", 1);
  auto ref = f.node_file("p", node, "shared/attempt.log");
  const auto file = f.sandbox(node) / "shared/attempt.log";
  fs::create_directories(file.parent_path());
  write_file(file, pattern(1000, 5));
  auto tail = f.tail(ref);
  ASSERT_TRUE(tail.step().ok());
  write_file(file, "second attempt\n");
  auto st = tail.step();
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_TRUE(st->reset);
  EXPECT_EQ(read_all(tail.cache_path()), "second attempt\n");
  // Replaced by a longer file (a new file, created a second later: a new creation time).
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  fs::remove(file);
  write_file(file, pattern(3000, 6));
  st = tail.step();
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_TRUE(st->reset);
  EXPECT_EQ(st->new_bytes, 3000u);
  EXPECT_TRUE(read_all(tail.cache_path()) == read_all(file));
  // Plain growth is not a replacement.
  write_file(file, pattern(10, 7), true);
  st = tail.step();
  ASSERT_TRUE(st.ok());
  EXPECT_FALSE(st->reset);
  EXPECT_EQ(st->new_bytes, 10u);
}

// The file's ocp-creation-time as the service gives it.
std::string creation_time(Fixture& f, const RemoteFileRef& ref) {
  auto r =
      f.client->call("HEAD", "/pools/" + ref.pool + "/nodes/" + ref.node + "/files/" + ref.path);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r ? r->header("ocp-creation-time") : std::string();
}

TEST(RemoteLog, NoByteIsFetchedTwiceWhileAFileGrows) {
  Fixture f;
  auto node = f.pool("p", 1);
  auto ref = f.node_file("p", node, "shared/grow.log");
  const auto file = f.sandbox(node) / "shared/grow.log";
  fs::create_directories(file.parent_path());
  write_file(file, pattern(700, 8));
  auto tail = f.tail(ref, 1024);
  const auto before = f.client->stats();
  uint64_t size = 0;
  for (int i = 0; i < 6; ++i) {
    auto st = tail.step();
    ASSERT_TRUE(st.ok()) << st.error().message;
    EXPECT_FALSE(st->reset) << "step " << i;
    size += st->new_bytes;
    write_file(file, pattern(300 + 500 * i, static_cast<char>(9 + i)), true);
  }
  // Each step took everything there was: 700, then each append before it.
  EXPECT_EQ(size, 700u + 300u + 800u + 1300u + 1800u + 2300u);
  ASSERT_TRUE(tail.step().ok());
  // 700 + 300 + 800 + 1300 + 1800 + 2300 + 2800 bytes, each fetched once: the ranges asked for
  // were contiguous and never overlapped.
  EXPECT_EQ(fs::file_size(file), 10000u);
  EXPECT_EQ(f.client->stats().bytes - before.bytes, 10000u);
  EXPECT_TRUE(read_all(tail.cache_path()) == read_all(file));
}

TEST(RemoteLog, AReplacedFileIsToldByItsCreationTime) {
  Fixture f;
  auto node = f.pool("p", 1);
  auto ref = f.node_file("p", node, "shared/retry.log");
  const auto file = f.sandbox(node) / "shared/retry.log";
  fs::create_directories(file.parent_path());
  const std::string first = pattern(1000, 20);
  write_file(file, first);
  auto tail = f.tail(ref);
  ASSERT_TRUE(tail.step().ok());
  const auto created = creation_time(f, ref);
  ASSERT_FALSE(created.empty());
  // Appends a second later leave the creation time as it was (as on a node).
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  write_file(file, "appended\n", true);
  EXPECT_EQ(creation_time(f, ref), created);
  auto st = tail.step();
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_FALSE(st->reset);
  EXPECT_EQ(st->new_bytes, 9u);
  // A new file that begins with the old one's bytes: only its creation time tells it apart.
  fs::remove(file);
  write_file(file, first + "appended\n" + pattern(500, 21));
  EXPECT_NE(creation_time(f, ref), created);
  const auto before = f.client->stats();
  st = tail.step();
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_TRUE(st->reset);
  EXPECT_EQ(st->new_bytes, 1509u);
  EXPECT_EQ(f.client->stats().bytes - before.bytes, 1509u);
  EXPECT_TRUE(read_all(tail.cache_path()) == read_all(file));
}

TEST(RemoteLog, AStepWithABudgetSaysWhenItCameBackFull) {
  Fixture f;
  auto node = f.pool("p", 1);
  auto ref = f.node_file("p", node, "shared/backlog.log");
  const auto file = f.sandbox(node) / "shared/backlog.log";
  fs::create_directories(file.parent_path());
  write_file(file, pattern(3000, 30));
  RemoteLogOptions o;
  o.chunk_bytes = 1024;
  o.max_step_bytes = 1024;
  auto t = RemoteLogTail::open(*f.store, *f.client, f.dir + "/data", ref, o);
  ASSERT_TRUE(t.ok()) << t.error().message;
  // 3000 bytes in 1024-byte reads: full, full, then the last 952 bytes and nothing more.
  for (uint64_t expected : {1024u, 1024u, 952u}) {
    auto st = t->step();
    ASSERT_TRUE(st.ok()) << st.error().message;
    EXPECT_EQ(st->new_bytes, expected);
    EXPECT_EQ(st->more, expected == 1024u);
  }
  // The final read has no budget: all that is left, at once.
  write_file(file, pattern(2500, 31), true);
  auto last = t->finish();
  ASSERT_TRUE(last.ok()) << last.error().message;
  EXPECT_EQ(last->new_bytes, 2500u);
  EXPECT_FALSE(last->more);
  EXPECT_TRUE(read_all(t->cache_path()) == read_all(file));
}

TEST(RemoteLog, AMissingFileBeforeTheTaskStartsIsNoError) {
  Fixture f;
  f.post("/pools", {{"id", "empty"}, {"vmSize", "standard_d2s_v3"}, {"targetDedicatedNodes", 0}});
  f.job("j", "empty");
  f.task("j", "waiting", "/bin/sh -c 'echo never'");
  auto tail = f.tail(f.task_file("j", "waiting"));
  auto st = tail.step();
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_TRUE(st->missing);
  EXPECT_EQ(st->new_bytes, 0u);
  // A task that does not exist is an error, though.
  auto none = f.tail(f.task_file("j", "nope")).step();
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().kind, ErrorKind::NotFound);
  EXPECT_NE(none.error().message.find("TaskNotFound"), std::string::npos) << none.error().message;
}

TEST(RemoteLog, CachePathsStayInsideTheCache) {
  RemoteFileRef ok{"acct", "job-1", "task_2", "", "", "wd/out/log.txt"};
  auto p = remote_cache_path("/data", ok);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->string(), "/data/remote/acct/jobs/job-1/task_2/wd/out/log.txt");
  RemoteFileRef node{"acct", "", "", "pool", "tvm-1", "startup/stderr.txt"};
  EXPECT_EQ(remote_cache_path("/data", node)->string(),
            "/data/remote/acct/pools/pool/nodes/tvm-1/startup/stderr.txt");
  for (const std::string& bad :
       std::vector<std::string>{"../x", "a/../../b", "..", "", "/etc/passwd", "a//b", "a/", "./a",
                                std::string("a\0b", 3), "a\nb"}) {
    auto ref = ok;
    ref.path = bad;
    auto r = remote_cache_path("/data", ref);
    ASSERT_FALSE(r.ok()) << "path '" << bad << "' accepted";
    EXPECT_EQ(r.error().kind, ErrorKind::Usage);
  }
  for (const std::string& bad :
       std::vector<std::string>{"..", "a/b", "", "a.b", std::string(65, 'x')}) {
    auto ref = ok;
    ref.job = bad;
    EXPECT_FALSE(remote_cache_path("/data", ref).ok()) << "job '" << bad << "' accepted";
    ref = node;
    ref.node = bad;
    EXPECT_FALSE(remote_cache_path("/data", ref).ok()) << "node '" << bad << "' accepted";
  }
  auto both = ok;
  both.pool = "pool";
  both.node = "n";
  EXPECT_FALSE(remote_cache_path("/data", both).ok());
}

TEST(RemoteLog, TailsTheStartTaskStderrOfAFailedNode) {
  Fixture f;
  json start{{"startTask",
              {{"commandLine", "/bin/sh -c 'echo cannot mount /data >&2; exit 3'"},
               {"waitForSuccess", true}}}};
  auto node = f.pool("p", 1, NodeState::StartTaskFailed, start);
  ASSERT_FALSE(node.empty());
  auto tail = f.tail(f.node_file("p", node, "startup/stderr.txt"));
  auto st = tail.step();
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(read_all(tail.cache_path()), "cannot mount /data\n");
  EXPECT_EQ(tail.cache_path(), fs::path(f.dir) / "data/remote" / f.emu.account() / "pools/p/nodes" /
                                   node / "startup/stderr.txt");
}

TEST(RemoteLog, MetricPointsReachTheStoreOnce) {
  Fixture f;
  f.pool("p", 1);
  f.job("j", "p");
  // The last record has no line end: only the final read parses it.
  f.task("j", "train", "/bin/sh -c 'printf \"loss=0.5\\nloss=0.25\\nloss=0.125\"'");
  ASSERT_TRUE(wait_until([&] { return f.completed("j", "train"); }));
  auto points = [&] {
    auto p = f.store->metric_points(f.emu.account(), "j", "train", "loss");
    EXPECT_TRUE(p.ok());
    return p ? p->size() : 0u;
  };
  auto tail = f.tail(f.task_file("j", "train"));
  ASSERT_TRUE(tail.step().ok());
  EXPECT_EQ(points(), 2u);
  ASSERT_TRUE(tail.finish().ok());
  EXPECT_EQ(points(), 3u);
  auto values = f.store->metric_points(f.emu.account(), "j", "train", "loss");
  ASSERT_TRUE(values.ok());
  EXPECT_DOUBLE_EQ(values->back().value, 0.125);
  // Another tail of the same file (another process) adds nothing twice.
  ASSERT_TRUE(f.tail(f.task_file("j", "train")).finish().ok());
  ASSERT_TRUE(tail.finish().ok());
  EXPECT_EQ(points(), 3u);
}

TEST(RemoteLog, DeferredMetricsWaitForFeedMetrics) {
  Fixture f;
  f.pool("p", 1);
  f.job("j", "p");
  f.task("j", "train", "/bin/sh -c 'printf \"loss=0.5\\nloss=0.25\\nloss=0.125\"'");
  ASSERT_TRUE(wait_until([&] { return f.completed("j", "train"); }));
  auto points = [&] {
    auto p = f.store->metric_points(f.emu.account(), "j", "train", "loss");
    EXPECT_TRUE(p.ok());
    return p ? p->size() : 0u;
  };
  RemoteLogOptions o;
  o.deferred_metrics = true;
  auto tail =
      RemoteLogTail::open(*f.store, *f.client, f.dir + "/data", f.task_file("j", "train"), o);
  ASSERT_TRUE(tail.ok()) << tail.error().message;
  auto st = tail->step();
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(st->new_bytes, 29u);  // "loss=0.5\n" "loss=0.25\n" "loss=0.125"
  EXPECT_EQ(points(), 0u) << "the step parsed metrics";
  ASSERT_TRUE(tail->feed_metrics(false).ok());
  EXPECT_EQ(points(), 2u);
  ASSERT_TRUE(tail->finish().ok());
  EXPECT_EQ(points(), 2u);
  ASSERT_TRUE(tail->feed_metrics(true).ok());
  EXPECT_EQ(points(), 3u);
}

}  // namespace
}  // namespace trainyard::remote_log_test
