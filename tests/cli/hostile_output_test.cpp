// Text from outside that would drive a terminal (window-title OSC, conceal, C1 CSI, bidi override,
// zero-width space, invalid UTF-8, line breaks) in every field the CLI shows: each command's human
// output holds only inert placeholders, on one line per field; `--json` keeps the exact text.
#include <gtest/gtest.h>
#include <httplib.h>

#include <thread>

#include "cli_fixture.hpp"

namespace trainyard::clitest::hostile_output_test {
namespace {

// ESC ] 0;PWNED BEL, CSI 8m, C1 CSI (UTF-8), U+202E, U+200B, a newline: what JSON can carry.
const std::string kHostileUtf8 =
    "x\x1b]0;PWNED\x07\x1b[8m\xc2\x9b"
    "2J\xe2\x80\xae"
    "exe.txt\xe2\x80\x8b"
    "\ny";
// The same with a raw C1 byte (invalid UTF-8) before the newline: what a command line can carry.
const std::string kHostile =
    "x\x1b]0;PWNED\x07\x1b[8m\xc2\x9b"
    "2J\xe2\x80\xae"
    "exe.txt\xe2\x80\x8b\x9b"
    "\ny";
// How the CLI shows them: the OSC as `^[]0;PWNED`, SGR dropped, code points as `<U+XXXX>`, the
// bad byte as U+FFFD, the line break as ` ⏎ `.
const std::string kShownUtf8 = "x^[]0;PWNED<U+009B>2J<U+202E>exe.txt<U+200B> \u23CE y";
const std::string kShown = "x^[]0;PWNED<U+009B>2J<U+202E>exe.txt<U+200B>\uFFFD \u23CE y";
// An id for the fake service: no line break, so it is one path segment.
const std::string kHostileId = "id\x1b]0;PWNED\x07\xe2\x80\xae";
const std::string kShownId = "id^[]0;PWNED<U+202E>";

// Decodes one well-formed UTF-8 sequence; false for anything else.
bool decode(const std::string& s, size_t& i, char32_t& cp) {
  auto b = static_cast<unsigned char>(s[i]);
  size_t n = b < 0x80             ? 1
             : (b & 0xE0) == 0xC0 ? 2
             : (b & 0xF0) == 0xE0 ? 3
             : (b & 0xF8) == 0xF0 ? 4
                                  : 0;
  if (n == 0 || i + n > s.size() || (n == 2 && b < 0xC2)) return false;
  cp = n == 1 ? b : b & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return false;
    cp = (cp << 6) | (c & 0x3F);
  }
  static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  i += n;
  return cp >= kMin[n] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
}

bool reorders_or_hides(char32_t cp) {
  return (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029 || cp == 0x2060 ||
         cp == 0xFEFF || cp == 0x061C || (cp >= 0xE0000 && cp <= 0xE007F);
}

// The first thing in `s` a terminal would act on or that hides text, or "" when there is none.
std::string first_unsafe(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const size_t at = i;
    char32_t cp = 0;
    if (!decode(s, i, cp)) return "invalid UTF-8 at byte " + std::to_string(at);
    if ((cp < 0x20 && cp != '\n') || (cp >= 0x7F && cp <= 0x9F) || reorders_or_hides(cp))
      return "code point " + std::to_string(cp) + " at byte " + std::to_string(at);
  }
  return "";
}

void expect_inert(const std::string& what, const Outcome& r) {
  EXPECT_EQ(first_unsafe(r.out), "") << what << ": stdout\n" << r.out;
  EXPECT_EQ(first_unsafe(r.err), "") << what << ": stderr\n" << r.err;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class HostileCli : public Cli {
 protected:
  void write_config(const json& config) {
    fs::create_directories(root() + "/xdg-config/trainyard");
    std::ofstream(root() + "/xdg-config/trainyard/config.json") << config.dump(2);
  }
};

TEST_F(HostileCli, LocalRunListedLoggedAndReported) {
  auto ref = submit({"--id", "t1", "--name", kHostile}, {"printf", "%s", kHostile});
  ASSERT_EQ(ty({"wait", ref}).code, 0);
  auto tasks = ty({"ls", "tasks"});
  expect_inert("ls tasks", tasks);
  EXPECT_TRUE(has(tasks.out, "printf %s '" + kShown + "'")) << tasks.out;
  for (const char* what : {"jobs", "pools", "nodes", "accounts"})
    expect_inert(what, ty({"ls", what}));

  auto as_json = ty({"ls", "tasks", "--json"});
  expect_inert("ls tasks --json", as_json);
  auto t = task_json(ref);
  const std::string with_fffd =
      "x\x1b]0;PWNED\x07\x1b[8m\xc2\x9b"
      "2J\xe2\x80\xae"
      "exe.txt\xe2\x80\x8b\uFFFD\ny";
  EXPECT_EQ(t.value("commandLine", ""), "printf %s '" + with_fffd + "'");
  EXPECT_EQ(t.value("displayName", ""), with_fffd);

  auto logs = ty({"logs", ref});
  expect_inert("logs", logs);
  EXPECT_EQ(logs.out, "x^[]0;PWNED<U+009B>2J<U+202E>exe.txt<U+200B>\uFFFD\ny\n");
  EXPECT_EQ(ty({"logs", "--raw", ref}).out, kHostile) << "--raw is what the user asked for";
}

TEST_F(HostileCli, ErrorsNamingWhatTheUserTypedAreInert) {
  auto bad_job = ty({"run", "--job", kHostile, "--", "true"});
  EXPECT_EQ(bad_job.code, 2);
  expect_inert("run --job", bad_job);
  EXPECT_TRUE(has(bad_job.err, kShown)) << bad_job.err;
  auto bad_account = ty({"ls", "tasks", "--account", kHostile});
  EXPECT_EQ(bad_account.code, 2);
  expect_inert("ls --account", bad_account);
  auto bad_word = ty({"ls", kHostile});
  EXPECT_EQ(bad_word.code, 2);
  expect_inert("ls WORD", bad_word);
  auto bad_ref = ty({"wait", kHostile});
  expect_inert("wait REF", bad_ref);
  EXPECT_NE(bad_ref.code, 0);
}

TEST_F(HostileCli, SubmitDryRunPreview) {
  json spec{{"job", {{"id", "sj"}, {"poolInfo", {{"poolId", "local"}}}}},
            {"tasks", {{{"id", "t1"}, {"commandLine", kHostileUtf8}}}}};
  const std::string path = root() + "/job.json";
  std::ofstream(path) << spec.dump();
  auto preview = ty({"submit", path, "--dry-run"});
  EXPECT_EQ(preview.code, 0) << preview.err;
  expect_inert("submit --dry-run", preview);
  EXPECT_TRUE(has(preview.out, "  t1  " + kShownUtf8 + "\n")) << preview.out;
  auto exact = ty({"submit", path, "--dry-run", "--json"});
  expect_inert("submit --dry-run --json", exact);
  EXPECT_EQ(json::parse(exact.out)["tasks"][0]["commandLine"], kHostileUtf8);
}

// A Batch service on 127.0.0.1 whose every text is hostile. Requests signed as account `broken`
// are refused with a hostile error (code, message and a multi-line AuthenticationErrorDetail).
class FakeBatch {
 public:
  FakeBatch() {
    auto handler = [this](const httplib::Request& q, httplib::Response& r) { answer(q, r); };
    server_.Get(".*", handler);
    server_.Post(".*", handler);
    server_.set_tcp_nodelay(true);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 5000 && !server_.is_running(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~FakeBatch() {
    server_.stop();
    thread_.join();
  }
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  static json task() {
    return {{"id", kHostileId},
            {"displayName", kHostileUtf8},
            {"commandLine", kHostileUtf8},
            {"state", "completed"},
            {"executionInfo",
             {{"retryCount", 0},
              {"result", "failure"},
              {"failureInfo",
               {{"category", "servererror"}, {"code", kHostileUtf8}, {"message", kHostileUtf8}}}}}};
  }
  static json entity(const std::vector<std::string>& parts) {
    if (parts.size() == 1 && parts[0] == "pools")
      return {{"value",
               {{{"id", kHostileId},
                 {"displayName", kHostileUtf8},
                 {"vmSize", kHostileUtf8},
                 {"state", "active"},
                 {"allocationState", "steady"}}}}};
    if (parts.size() == 3 && parts[2] == "nodes")
      return {{"value",
               {{{"id", kHostileId},
                 {"state", "idle"},
                 {"ipAddress", kHostileUtf8},
                 {"vmSize", kHostileUtf8}}}}};
    if (parts.size() == 1 && parts[0] == "jobs")
      return {{"value",
               {{{"id", kHostileId},
                 {"displayName", kHostileUtf8},
                 {"state", "active"},
                 {"poolInfo", {{"poolId", kHostileUtf8}}}}}}};
    if (parts.size() == 2 && parts[0] == "jobs")
      return {{"id", kHostileId}, {"state", "active"}, {"poolInfo", {{"poolId", kHostileUtf8}}}};
    if (parts.size() == 3 && parts[2] == "tasks") return {{"value", {task()}}};
    if (parts.size() == 4 && parts[2] == "tasks") return task();
    return nullptr;
  }
  static void refuse(httplib::Response& r, int status) {
    json error{{"code", kHostileUtf8},
               {"message", {{"lang", "en-US"}, {"value", kHostileUtf8}}},
               {"values",
                {{{"key", "AuthenticationErrorDetail"},
                  {"value", "string to sign: 'GET\n\n\x1b]0;PWNED\x07\n\xe2\x80\xae/pools'"}}}}};
    r.status = status;
    r.set_content(error.dump(), "application/json");
  }
  void answer(const httplib::Request& q, httplib::Response& r) {
    if (has(q.get_header_value("Authorization"), "SharedKey broken:")) return refuse(r, 403);
    std::vector<std::string> parts;
    for (size_t start = 1; start <= q.path.size();) {
      size_t slash = q.path.find('/', start);
      if (slash == std::string::npos) slash = q.path.size();
      parts.push_back(q.path.substr(start, slash - start));
      start = slash + 1;
    }
    json body = entity(parts);
    if (body.is_null()) return refuse(r, 404);
    r.set_content(body.dump(), "application/json");
  }

  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

class HostileBatchCli : public HostileCli {
 protected:
  HostileBatchCli() {
    json account{{"kind", "batch"},
                 {"endpoint", fake_.endpoint()},
                 {"auth", {{"type", "sharedKey"}, {"keyEnv", "FAKE_KEY"}}}};
    json fake = account, broken = account, odd = account;
    fake["name"] = "fake";
    broken["name"] = "broken";
    odd["name"] = kHostileUtf8;
    odd["endpoint"] = "http://127.0.0.1:1";
    write_config({{"accounts", {fake, broken, odd}}});
    set_env("FAKE_KEY", "a2V5LWtleS1rZXkta2V5LWtleQ==");
  }
  FakeBatch fake_;
};

TEST_F(HostileBatchCli, EveryListingOfTheServiceIsInert) {
  auto pools = ty({"ls", "pools", "--account", "fake"});
  EXPECT_EQ(pools.code, 0) << pools.err;
  expect_inert("ls pools", pools);
  EXPECT_TRUE(has(pools.out, kShownId) && has(pools.out, kShownUtf8)) << pools.out;
  auto nodes = ty({"ls", "nodes", "--account", "fake", "--pool", kHostileId});
  expect_inert("ls nodes", nodes);
  EXPECT_TRUE(has(nodes.out, kShownUtf8)) << nodes.out;
  auto jobs = ty({"ls", "jobs", "--account", "fake"});
  expect_inert("ls jobs", jobs);
  EXPECT_TRUE(has(jobs.out, kShownId) && has(jobs.out, kShownUtf8)) << jobs.out;
  auto tasks = ty({"ls", "tasks", "--account", "fake", "--job", kHostileId});
  expect_inert("ls tasks", tasks);
  EXPECT_TRUE(has(tasks.out, kShownId + "/" + kShownId) && has(tasks.out, kShownUtf8)) << tasks.out;
  auto exact = ty({"ls", "tasks", "--account", "fake", "--job", kHostileId, "--json", "--offline"});
  expect_inert("ls tasks --json", exact);
  auto parsed = json::parse(exact.out, nullptr, false);
  ASSERT_TRUE(parsed.is_array() && parsed.size() == 1) << exact.out;
  EXPECT_EQ(parsed[0]["commandLine"], kHostileUtf8);
  EXPECT_EQ(parsed[0]["executionInfo"]["failureInfo"]["message"], kHostileUtf8);
  expect_inert("ls accounts", ty({"ls", "accounts"}));
  auto accounts = ty({"accounts", "ls"});
  expect_inert("accounts ls", accounts);
  EXPECT_TRUE(has(accounts.out, kShownUtf8)) << accounts.out;
}

TEST_F(HostileBatchCli, WaitShowsTheFailureInertOnOneLine) {
  auto r = ty({"wait", kHostileId + "/" + kHostileId, "--account", "fake"});
  EXPECT_EQ(r.code, 1);
  expect_inert("wait", r);
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(has(r.err, kShownUtf8 + ": " + kShownUtf8)) << r.err;
}

TEST_F(HostileBatchCli, ServiceErrorsAreInertOnOneLine) {
  // The detail quotes the string the service signed: the one-line error leaves it out.
  auto test = ty({"accounts", "test", "broken"});
  EXPECT_EQ(test.code, 1);
  expect_inert("accounts test", test);
  EXPECT_TRUE(has(test.out, "FAIL broken: " + kShownUtf8 + ": " + kShownUtf8 + " (HTTP 403"))
      << test.out;
  EXPECT_FALSE(has(test.out, "string to sign")) << test.out;
  auto sync = ty({"sync", "--account", "broken"});
  EXPECT_EQ(sync.code, 1);
  expect_inert("sync", sync);
  EXPECT_EQ(lines_of(sync.err).size(), 1u) << sync.err;
  auto ls = ty({"ls", "pools", "--account", "broken"});
  EXPECT_EQ(ls.code, 1) << ls.out;
  expect_inert("ls pools (credentials refused)", ls);
  EXPECT_EQ(lines_of(ls.err).size(), 1u) << ls.err;
  EXPECT_TRUE(has(ls.err, kShownUtf8 + ": " + kShownUtf8)) << ls.err;
  auto resize = ty({"pool", "resize", "p", "--dedicated", "2", "--account", "broken"});
  EXPECT_EQ(resize.code, 1) << resize.err;
  expect_inert("pool resize", resize);
  auto unreachable = ty({"ls", "pools", "--account", kHostileUtf8});
  expect_inert("ls pools (unreachable account)", unreachable);
}

}  // namespace
}  // namespace trainyard::clitest::hostile_output_test
