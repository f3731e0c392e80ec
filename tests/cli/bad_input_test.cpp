// Bad input changes nothing: a malformed config, theme, spec or account key gets one line naming
// the file and the place, exit code 2, and the data directory stays byte for byte as it was.
#include <unistd.h>

#include <chrono>
#include <map>
#include <thread>

#include "cli_fixture.hpp"

namespace trainyard::clitest::bad_input_test {
namespace {

/// Every file under `dir` with its content (empty map when `dir` does not exist).
std::map<std::string, std::string> tree_of(const std::string& dir) {
  std::map<std::string, std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = read_file(e.path());
  return out;
}

class BadInput : public Cli {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    auto path = root() + "/" + name;
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << text;
    fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
    return path;
  }
  std::string config(const std::string& text) {
    return write("xdg-config/trainyard/config.json", text);
  }
  // Runs `args` and checks the refusal: exit 2, one line holding every fragment, no change.
  void expect_refused(const std::vector<std::string>& args,
                      const std::vector<std::string>& fragments) {
    auto before = tree_of(data());
    auto r = ty(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
    for (const auto& f : fragments) EXPECT_NE(r.err.find(f), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "an escape from the file reached stderr";
    EXPECT_TRUE(tree_of(data()) == before) << "the data directory changed";
  }
};

TEST_F(BadInput, AMalformedConfigCreatesNoDataDirectory) {
  auto file = config("{\n  \"version\": 1,\n  \"local\": {\"cpuSlots\": 4\n}\n");
  expect_refused({"ls", "tasks"}, {file + ":5:1:", "syntax error"});
  EXPECT_FALSE(fs::exists(data()));
  config("{\"version\": 1, \"local\": {\"cpuSlots\": \"four\"}}");
  expect_refused({"run", "--", "true"}, {"config.json", "/local/cpuSlots"});
  config("{\"version\": 1, \"theme\": \"dark\",\n \x1b]0;owned\x07 }");
  expect_refused({"ls", "jobs"}, {"config.json:2:2:"});
  EXPECT_FALSE(fs::exists(data()));
}

// Found by fuzz_spec: a number too large for a double aborted the program (JSON out_of_range).
TEST_F(BadInput, ANumberTooLargeIsAnErrorAtItsPlace) {
  auto file = config("{\"version\": 1,\n \"local\": {\"cpuSlots\": 1e999}}");
  expect_refused({"ls", "tasks"}, {file + ":2:24:", "1e999"});
  fs::remove(file);
  auto spec = write("big.json", "{\"job\": {\"id\": \"x\", \"priority\": -4e400}}");
  expect_refused({"submit", spec}, {spec + ":1:33:", "-4e400"});
  auto pool = write("pool.json", "{\"id\": \"p\", \"targetDedicatedNodes\": 9e9999}");
  expect_refused({"pool", "create", "--account", "local", "--json", pool},
                 {pool + ":1:", "9e9999"});
}

// A working directory that cannot be examined (a loop of links, a name too long, a directory
// the user may not enter) made std::filesystem throw, and the uncaught exception aborted.
TEST_F(BadInput, AWorkdirThatCannotBeExaminedIsOneLineNotAnAbort) {
  auto loop = root() + "/loop";
  fs::create_symlink(loop, loop);
  std::vector<std::string> bad = {loop, root() + "/" + std::string(5000, 'a')};
  if (::geteuid() != 0) {  // root may enter any directory
    fs::create_directories(root() + "/locked/inside");
    fs::permissions(root() + "/locked", fs::perms::none);
    bad.push_back(root() + "/locked/inside");
  }
  for (const auto& dir : bad) {
    auto r = ty({"run", "--workdir", dir, "--", "true"});
    EXPECT_TRUE(r.code == 1 || r.code == 2) << r.code << " " << r.err.substr(0, 300);
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err.substr(0, 300);
    EXPECT_EQ(r.err.rfind("trainyard: ", 0), 0u) << r.err.substr(0, 300);
    EXPECT_NE(r.err.find("--workdir"), std::string::npos) << r.err.substr(0, 300);
  }
  if (::geteuid() != 0) fs::permissions(root() + "/locked", fs::perms::owner_all);
}

// `wait` returns once the run's end is stored; its supervisor then still logs its last line and
// closes the store (a checkpoint of the WAL). Under TSan that took long enough to land inside a
// refusal below, and the data directory "changed". This waits until it stays the same a while.
void wait_until_quiet(const std::string& dir) {
  auto last = tree_of(dir);
  for (int i = 0; i < 100; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    auto now = tree_of(dir);
    if (now == last) return;
    last = std::move(now);
  }
}

TEST_F(BadInput, ExistingRunsAreUntouchedByEveryBadFile) {
  ASSERT_EQ(ty({"run", "--job", "kept", "--id", "t", "--", "echo", "kept"}).code, 0);
  ASSERT_EQ(ty({"wait", "kept/t"}).code, 0);
  wait_until_quiet(data());
  auto theme = write("bad-theme.json", "{\"name\": \"x\", \"roles\": {\"border\": {\"fg\": 300}}}");
  expect_refused({"--theme", theme, "--dump-frame", "80x24"}, {theme, "/roles/border/fg"});
  expect_refused({"--theme", "no-such-theme", "--dump-frame", "80x24"}, {"no-such-theme"});
  auto spec = write("bad.json", "{\"job\": {\"id\": \"x\"},\n \"tasks\": [{\"id\": \"a b\"}]}");
  expect_refused({"submit", spec}, {spec + ":2:", "/tasks/0/id"});
  auto yaml = write("bad.yaml", "job_specifications:\n- id: j\n  tasks:\n  - command: [unclosed\n");
  expect_refused({"submit", yaml}, {yaml + ":"});
  config(
      "{\"version\": 1, \"accounts\": [{\"name\": \"b\", \"endpoint\": "
      "\"https://b.eastus.batch.azure.com\", \"auth\": {\"key\": \"not*base64!\"}}]}");
  expect_refused({"ls", "pools", "--account", "b"}, {"config.json", "/accounts/0/auth/key"});
  fs::remove(root() + "/xdg-config/trainyard/config.json");
  EXPECT_EQ(ty({"logs", "kept/t"}).out, "kept\n");
}

}  // namespace
}  // namespace trainyard::clitest::bad_input_test
