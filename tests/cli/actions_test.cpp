// `trainyard pool|node|job|task …` against `trainyard emulator`, an account in config.json: each
// subcommand once, the store refreshed after each, read-only refusals that send nothing, pool
// delete without --yes, malformed JSON files.
#include <sys/stat.h>
#include <unistd.h>

#include "../azure/emulator_client.hpp"
#include "../azure/emulator_process.hpp"
#include "azure/batch_client.hpp"
#include "cli_fixture.hpp"

namespace trainyard::clitest::actions_test {
namespace {

class Actions : public Cli {
 protected:
  Actions() {
    write_config(false);
    client_ = azuretest::emulator_client(emu_, clock_);
  }

  void write_config(bool readonly) {
    const std::string dir = root() + "/xdg-config/trainyard";
    fs::create_directories(dir);
    json account{{"name", emu_.account()},
                 {"kind", "emulator"},
                 {"endpoint", emu_.endpoint()},
                 {"readonly", readonly},
                 {"auth", {{"key", emu_.key()}}}};
    write(dir + "/config.json", json{{"version", 1}, {"accounts", {account}}}.dump(2));
    ::chmod((dir + "/config.json").c_str(), 0600);  // it holds a key inline
  }

  void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

  // `trainyard ARGS... --account A [-- COMMAND...]`
  Outcome act(std::vector<std::string> args) {
    args.insert(std::find(args.begin(), args.end(), "--"), {"--account", emu_.account()});
    return ty(args);
  }

  json offline(const std::string& what, std::vector<std::string> extra = {}) {
    extra.insert(extra.end(), {"--account", emu_.account(), "--offline"});
    return ls_json(what, extra);
  }

  static bool has_id(const json& list, const std::string& id) {
    for (const auto& e : list)
      if (e.value("id", "") == id) return true;
    return false;
  }

  // Requests the emulator served, its control endpoint left out.
  int64_t served() {
    const json paths = azuretest::served_paths(*client_);
    int64_t n = 0;
    for (const auto& [path, c] : paths.items())
      if (path.find("/__trainyard/") == std::string::npos) n += c.value("requests", int64_t{0});
    return n;
  }

  // Waits for the pool to be steady with `nodes` idle nodes; returns their ids.
  std::vector<std::string> steady(const std::string& pool, size_t nodes) {
    for (int i = 0; i < 400; ++i) {
      auto p = client_->call("GET", "/pools/" + pool);
      auto n = client_->nodes(pool);
      bool idle = n.ok() && n->size() == nodes;
      for (size_t k = 0; idle && k < n->size(); ++k) idle = (*n)[k].state == NodeState::Idle;
      if (p.ok() && json::parse(p->body).value("allocationState", "") == "steady" && idle) {
        std::vector<std::string> ids;
        for (const auto& node : *n) ids.push_back(node.id);
        return ids;
      }
      std::this_thread::sleep_for(50ms);
    }
    ADD_FAILURE() << "pool " << pool << " never became steady with " << nodes << " nodes";
    return {};
  }

  void expect_ok(const Outcome& r, const std::string& out_has = "") {
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(out_has), std::string::npos) << r.out;
  }

  azuretest::EmulatorProcess emu_;
  SystemClock clock_;
  std::unique_ptr<azure::BatchClient> client_;
};

TEST_F(Actions, PoolSubcommands) {
  expect_ok(act({"pool", "create", "--id", "p", "--vm-size", "standard_d2s_v3", "--image",
                 "canonical:0001-com-ubuntu-server-jammy:22_04-lts", "--node-agent-sku",
                 "batch.node.ubuntu 22.04", "--dedicated", "1", "--task-slots", "2"}),
            "created pool p");
  EXPECT_TRUE(has_id(offline("pools"), "p"));
  steady("p", 1);
  expect_ok(act({"pool", "resize", "p", "--dedicated", "2", "--spot", "0"}), "resizing pool p");
  expect_ok(act({"pool", "stop-resize", "p"}));
  expect_ok(act({"pool", "autoscale", "enable", "p", "--formula", "$TargetDedicatedNodes = 1;",
                 "--interval", "PT5M"}));
  expect_ok(act({"pool", "autoscale", "eval", "p", "--formula", "$TargetDedicatedNodes = 2;"}),
            "$TargetDedicatedNodes=2\n");
  auto bad = act({"pool", "autoscale", "eval", "p", "--formula", "$TargetDedicatedNodes = (;"});
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.out.find("error: AutoScalingFormulaSyntaxError"), std::string::npos) << bad.out;
  expect_ok(act({"pool", "autoscale", "disable", "p"}));
  expect_ok(act({"pool", "images"}), "batch.node.ubuntu 22.04");
  write(root() + "/pool.json", R"({"id": "q", "vmSize": "standard_d2s_v3"})");
  expect_ok(act({"pool", "create", "--json", root() + "/pool.json"}), "created pool q");
  // Not a terminal, no --yes: refused, nothing deleted.
  auto refused = act({"pool", "delete", "p"});
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.err.find("--yes"), std::string::npos) << refused.err;
  EXPECT_EQ(json::parse(client_->call("GET", "/pools/p")->body)["state"], "active");
  expect_ok(act({"pool", "delete", "p", "--yes"}), "deleting pool p");
  EXPECT_FALSE(has_id(offline("pools"), "p"));
  auto missing = act({"pool", "resize", "nope", "--dedicated", "1"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("trainyard: resize pool nope: PoolNotFound: "), std::string::npos)
      << missing.err;
  EXPECT_NE(missing.err.find("(HTTP 404, request-id "), std::string::npos) << missing.err;
}

TEST_F(Actions, NodeSubcommands) {
  expect_ok(act({"pool", "create", "--id", "p", "--vm-size", "standard_d2s_v3", "--image",
                 "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest", "--node-agent-sku",
                 "batch.node.ubuntu 22.04", "--dedicated", "2"}));
  auto ids = steady("p", 2);
  ASSERT_EQ(ids.size(), 2u);
  const std::string a = ids[0], b = ids[1];
  expect_ok(act({"node", "disable-scheduling", "p", a, "--option", "taskcompletion"}));
  auto nodes = offline("nodes", {"--pool", "p"});
  ASSERT_EQ(nodes.size(), 1u) << nodes.dump();  // only the refreshed node is in the cache yet
  EXPECT_EQ(nodes[0]["schedulingState"], "disabled");
  expect_ok(act({"node", "enable-scheduling", "p", a}));
  auto login = act({"node", "remote-login", "p", a, b});
  expect_ok(login, a + "  127.0.0.1:");
  EXPECT_NE(login.out.find("(ssh -p "), std::string::npos) << login.out;  // as the TUI's L says
  expect_ok(act({"node", "reboot", "p", a}));
  expect_ok(act({"node", "reimage", "p", b, "--option", "terminate"}));
  steady("p", 2);
  expect_ok(act({"node", "remove", "p", a}), "removing 1 node(s) from pool p");
  auto bad = act({"node", "reboot", "p", a, "--option", "later"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("unknown node option 'later'"), std::string::npos) << bad.err;
}

// The node user connect makes for USER=Alice.B: `ty-` and its letters, lower case.
const std::string kConnectUser = "ty-aliceb";

TEST_F(Actions, NodeConnectAddsAUserWithTheKeyThenRunsSshWithNoSecretInItsArgv) {
  expect_ok(act({"pool", "create", "--id", "p", "--vm-size", "standard_d2s_v3", "--image",
                 "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest", "--node-agent-sku",
                 "batch.node.ubuntu 22.04", "--dedicated", "1"}));
  auto ids = steady("p", 1);
  ASSERT_EQ(ids.size(), 1u);
  const std::string node = ids[0];
  fs::create_directories(root() + "/home/.ssh");
  write(root() + "/home/.ssh/id_ed25519.pub", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKey me@box\n");
  // The stub records its arguments and environment, and exits 3 as ssh would with the session's
  // last status.
  const std::string stub = root() + "/ssh-stub";
  write(stub, "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$0.argv\"\nenv > \"$0.env\"\nexit 3\n");
  ::chmod(stub.c_str(), 0755);
  set_env("TRAINYARD_SSH", stub);
  set_env("USER", "Alice.B");
  auto settings =
      json::parse(client_->call("GET", "/pools/p/nodes/" + node + "/remoteloginsettings")->body);
  const int port = settings["remoteLoginPort"];
  auto r = act({"node", "connect", "p", node, "--tunnel", "6006", "--yes"});
  EXPECT_EQ(r.code, 3) << r.err;  // ssh's own exit status
  EXPECT_NE(r.out.find("user " + kConnectUser + " may log in to node p/" + node + " until "),
            std::string::npos)
      << r.out;
  std::ifstream argv_file(stub + ".argv");
  std::string argv((std::istreambuf_iterator<char>(argv_file)), {});
  EXPECT_EQ(argv, "-p\n" + std::to_string(port) + "\n-L\n6006:localhost:6006\n" + kConnectUser +
                      "@127.0.0.1\n");
  std::ifstream env_file(stub + ".env");
  std::string env((std::istreambuf_iterator<char>(env_file)), {});
  EXPECT_EQ(env.find(emu_.key()), std::string::npos);  // the account key reaches no child
  // A second connect renews the same user (its key and expiry) rather than failing.
  EXPECT_EQ(act({"node", "connect", "p", node, "--yes"}).code, 3);
  // The user is there: deleting it works once.
  EXPECT_TRUE(client_->call("DELETE", "/pools/p/nodes/" + node + "/users/" + kConnectUser).ok());
  EXPECT_FALSE(client_->call("DELETE", "/pools/p/nodes/" + node + "/users/" + kConnectUser).ok());
}

TEST_F(Actions, NodeConnectWithoutAKeyOrWithABadTunnelSendsNothing) {
  const auto before = served();
  auto no_key = act({"node", "connect", "p", "n1", "--yes"});
  EXPECT_EQ(no_key.code, 2);
  EXPECT_NE(
      no_key.err.find("trainyard: node connect: no SSH public key in " + root() + "/home/.ssh"),
      std::string::npos)
      << no_key.err;
  auto bad_port = act({"node", "connect", "p", "n1", "--tunnel", "70000", "--yes"});
  EXPECT_EQ(bad_port.code, 2);
  EXPECT_NE(bad_port.err.find("--tunnel: a port from 1 to 65535, not '70000'"), std::string::npos)
      << bad_port.err;
  fs::create_directories(root() + "/home/.ssh");
  write(root() + "/home/.ssh/id_rsa.pub", "-----BEGIN PRIVATE KEY-----\n");
  auto bad_key = act({"node", "connect", "p", "n1", "--yes"});
  EXPECT_NE(bad_key.err.find(root() + "/home/.ssh/id_rsa.pub:1: not an OpenSSH public key"),
            std::string::npos)
      << bad_key.err;
  EXPECT_EQ(served(), before);
}

TEST_F(Actions, JobAndTaskSubcommands) {
  ASSERT_TRUE(
      client_->call("POST", "/pools", {}, R"({"id":"p","vmSize":"standard_d2s_v3"})", {}, false)
          .ok());
  expect_ok(act({"job", "create", "--id", "j", "--pool", "p"}), "created job j");
  auto jobs = offline("jobs");
  ASSERT_TRUE(has_id(jobs, "j"));
  write(root() + "/job.json", R"({"id": "k", "poolInfo": {"poolId": "p"}})");
  expect_ok(act({"job", "create", "--json", root() + "/job.json"}), "created job k");
  auto submitted = json::parse(client_->call("GET", "/jobs/k")->body)["metadata"];
  ASSERT_EQ(submitted.size(), 1u);
  EXPECT_EQ(submitted[0]["name"], "submittedBy");
  auto one = act({"task", "add", "j", "--id", "t1", "--", "echo", "hello world"});
  expect_ok(one, "added 1 task(s) to job j");
  EXPECT_EQ(json::parse(client_->call("GET", "/jobs/j/tasks/t1")->body)["commandLine"],
            "echo 'hello world'");
  write(root() + "/tasks.json", R"([{"id": "t2", "commandLine": "true"},
                                    {"id": "t3", "commandLine": "true"}])");
  expect_ok(act({"task", "add", "j", "--json", root() + "/tasks.json"}), "added 2 task(s)");
  EXPECT_EQ(offline("tasks", {"--job", "j"}).size(), 3u);
  expect_ok(act({"task", "terminate", "j/t1"}));
  expect_ok(act({"task", "reactivate", "j/t1"}));
  expect_ok(act({"task", "delete", "j/t1"}));
  EXPECT_FALSE(has_id(offline("tasks", {"--job", "j"}), "t1"));
  expect_ok(act({"job", "disable", "j", "--tasks", "wait"}));
  expect_ok(act({"job", "enable", "j"}));
  expect_ok(act({"job", "terminate", "j", "--reason", "enough"}));
  expect_ok(act({"job", "delete", "j"}));
  EXPECT_FALSE(has_id(offline("jobs"), "j"));
}

TEST_F(Actions, ReadonlyFlagRefusesBeforeAnyRequest) {
  const auto before = served();
  for (auto args : std::vector<std::vector<std::string>>{
           {"--readonly", "pool", "resize", "p", "--dedicated", "1"},
           {"job", "delete", "j", "--readonly"},
           {"--readonly", "task", "add", "j", "--id", "t", "--", "true"}}) {
    auto r = act(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err, "trainyard: account " + emu_.account() +
                         " is read-only (--readonly was given; run without it to change it)\n");
  }
  EXPECT_EQ(served(), before);
  expect_ok(act({"--readonly", "pool", "images"}), "batch.node");  // reading is allowed
}

TEST_F(Actions, ReadonlyAccountRefusesBeforeAnyRequest) {
  write_config(true);
  const auto before = served();
  auto r = act({"job", "create", "--id", "j", "--pool", "p"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("trainyard: account " + emu_.account() + " is read-only (", 0), 0u)
      << r.err;
  EXPECT_NE(r.err.find("config.json; set it to false there"), std::string::npos) << r.err;
  EXPECT_EQ(served(), before);
}

TEST_F(Actions, MalformedJsonFileNamesThePlaceAndSendsNothing) {
  const std::string file = root() + "/bad.json";
  write(file, "{\n  \"id\": \"p\",\n  \"vmSize\": ,\n}\n");
  const auto before = served();
  auto r = act({"pool", "create", "--json", file});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(file + ":3:13: not valid JSON"), std::string::npos) << r.err;
  auto tasks = act({"task", "add", "j", "--json", file});
  EXPECT_EQ(tasks.code, 2);
  EXPECT_NE(tasks.err.find(file + ":3:13:"), std::string::npos) << tasks.err;
  EXPECT_EQ(served(), before);
}

TEST_F(Actions, LocalAccountIsBatchOnly) {
  auto r = ty({"pool", "resize", "--account", "local", "local", "--dedicated", "2"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("pool resize is Batch-only"), std::string::npos) << r.err;
  auto n = ty({"node", "reboot", "--account", "local", "local", "n"});
  EXPECT_EQ(n.code, 2);
  EXPECT_NE(n.err.find("node reboot is Batch-only"), std::string::npos) << n.err;
}

// The CLI's and the TUI's pool create are one action: an image's node agent SKU comes from
// supportedimages when not given, on the flags and in a --json file.
TEST_F(Actions, PoolCreateFillsTheNodeAgentSkuFromSupportedImages) {
  expect_ok(act({"pool", "create", "--id", "p", "--vm-size", "standard_d2s_v3", "--image",
                 "canonical:0001-com-ubuntu-server-jammy:22_04-lts"}),
            "created pool p");
  auto p = json::parse(client_->call("GET", "/pools/p")->body);
  EXPECT_EQ(p["virtualMachineConfiguration"]["nodeAgentSKUId"], "batch.node.ubuntu 22.04");
  write(root() + "/pool.json", R"({"id": "q", "vmSize": "standard_d2s_v3",
    "virtualMachineConfiguration": {"imageReference":
      {"publisher": "canonical", "offer": "ubuntu-24_04-lts", "sku": "server"}}})");
  expect_ok(act({"pool", "create", "--json", root() + "/pool.json"}), "created pool q");
  auto q = json::parse(client_->call("GET", "/pools/q")->body);
  EXPECT_EQ(q["virtualMachineConfiguration"]["nodeAgentSKUId"], "batch.node.ubuntu 24.04");
  // supportedimages lists marketplace images only: a custom image's agent is the user's to name.
  auto custom = act({"pool", "create", "--id", "c", "--vm-size", "standard_d2s_v3",
                     "--custom-image", "/subscriptions/s/images/i"});
  EXPECT_EQ(custom.code, 2);
  EXPECT_NE(custom.err.find("--custom-image needs --node-agent-sku"), std::string::npos)
      << custom.err;
}

// The emulator lists ubuntu 20.04's node agent with its end of support, 2025-04-30.
TEST_F(Actions, PoolCreateWarnsOfAnImagePastItsEndOfSupport) {
  auto r = act({"pool", "create", "--id", "old", "--vm-size", "standard_d2s_v3", "--image",
                "microsoft-azure-batch:ubuntu-server-container:20-04-lts"});
  expect_ok(r, "created pool old");
  EXPECT_NE(r.err.find("trainyard: warning: microsoft-azure-batch:ubuntu-server-container:20-04-lts"
                       " is past its end of support (2025-04-30)"),
            std::string::npos)
      << r.err;
  auto p = json::parse(client_->call("GET", "/pools/old")->body);
  EXPECT_EQ(p["virtualMachineConfiguration"]["nodeAgentSKUId"], "batch.node.ubuntu 20.04");
}

// A request file without an id is refused before anything is sent, as the TUI's ^O refuses it.
TEST_F(Actions, RequestFilesWithoutAnIdSendNothing) {
  const std::string pool = root() + "/pool.json", job = root() + "/job.json";
  const std::string tasks = root() + "/tasks.json";
  write(pool, R"({"vmSize": "standard_d2s_v3"})");
  write(job, R"({"poolInfo": {"poolId": "p"}})");
  write(tasks, R"([{"id": "t1", "commandLine": "true"}, {"id": "t2"}])");
  const auto before = served();
  auto p = act({"pool", "create", "--json", pool});
  EXPECT_EQ(p.code, 2);
  EXPECT_EQ(p.err, "trainyard: pool create: " + pool +
                       ": /id: a pool id (1-64 letters, digits, - and _) is needed\n");
  auto j = act({"job", "create", "--json", job});
  EXPECT_EQ(j.code, 2);
  EXPECT_EQ(j.err, "trainyard: job create: " + job +
                       ": /id: a job id (1-64 letters, digits, - and _) is needed\n");
  auto t = act({"task", "add", "j", "--json", tasks});
  EXPECT_EQ(t.code, 2);
  EXPECT_EQ(t.err,
            "trainyard: task add: " + tasks + ": /1/commandLine: a command line is needed\n");
  EXPECT_EQ(served(), before);
}

// Enabling autoscale says what the formula does now, as the TUI's form does.
TEST_F(Actions, AutoscaleEnableShowsTheEvaluation) {
  ASSERT_TRUE(
      client_->call("POST", "/pools", {}, R"({"id":"p","vmSize":"standard_d2s_v3"})", {}, false)
          .ok());
  auto r = act({"pool", "autoscale", "enable", "p", "--formula", "$TargetDedicatedNodes = 3;"});
  expect_ok(r, "autoscale enabled on pool p: $TargetDedicatedNodes=3");
}

// config.json and AZURE_BATCH_ACCOUNT name the same account: `ls` says once which one it uses.
TEST_F(Actions, LsWarnsOnceWhenTheEnvironmentNamesAConfiguredAccount) {
  auto r = bare({"--data-dir", data(), "ls", "pools", "--account", emu_.account(), "--offline"},
                {"AZURE_BATCH_ACCOUNT=" + emu_.account(), "AZURE_BATCH_ENDPOINT=http://127.0.0.1:9",
                 "AZURE_BATCH_ACCESS_KEY=" + emu_.key()});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string warning = "trainyard: warning: AZURE_BATCH_ACCOUNT names '" + emu_.account() +
                              "', which config.json also defines: trainyard uses config.json's";
  auto first = r.err.find(warning);
  EXPECT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(warning, first + 1), std::string::npos) << r.err;
  // Without the variables, nothing is said.
  auto quiet = ty({"ls", "pools", "--account", emu_.account(), "--offline"});
  EXPECT_EQ(quiet.err.find("AZURE_BATCH_ACCOUNT"), std::string::npos) << quiet.err;
}

}  // namespace
}  // namespace trainyard::clitest::actions_test
