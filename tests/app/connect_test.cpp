// Connect: the ssh command and the user it logs in as, the SSH public key it reads, TensorBoard
// as a supervised child, and the Nodes pane's connect form (it asks before anything is sent).
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "core/child_process.hpp"
#include "node_connect.hpp"
#include "store/store.hpp"
#include "tensorboard.hpp"
#include "tui_screen.hpp"

namespace trainyard::connect_test {
namespace {

using namespace std::chrono_literals;

TEST(NodeConnectTest, TheUserIsTyAndTheLoginsLettersAndDigits) {
  EXPECT_EQ(connect_user_name("Alice.B"), "ty-aliceb");
  EXPECT_EQ(connect_user_name("bob_2-x"), "ty-bob_2-x");
  EXPECT_EQ(connect_user_name("..."), "ty-user");
  EXPECT_EQ(connect_user_name(std::string(40, 'a')), "ty-" + std::string(29, 'a'));
}

TEST(NodeConnectTest, SshGetsThePortTheTunnelAndTheUserNoSecret) {
  azure::RemoteLogin at{"10.1.2.3", 50001};
  EXPECT_EQ(ssh_command("ssh", at, "ty-alice", std::nullopt),
            (std::vector<std::string>{"ssh", "-p", "50001", "ty-alice@10.1.2.3"}));
  EXPECT_EQ(ssh_command("/opt/ssh", at, "ty-alice", 6006),
            (std::vector<std::string>{"/opt/ssh", "-p", "50001", "-L", "6006:localhost:6006",
                                      "ty-alice@10.1.2.3"}));
}

TEST(NodeConnectTest, TunnelPortsAreOneTo65535) {
  EXPECT_EQ(*tunnel_port("6006"), 6006);
  EXPECT_EQ(*tunnel_port("65535"), 65535);
  for (const char* bad : {"0", "65536", "60o6", "", "-1", "123456"})
    EXPECT_FALSE(tunnel_port(bad).ok()) << bad;
}

class KeyFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = ::testing::TempDir() + "connect-home-" + std::to_string(::getpid());
    std::filesystem::create_directories(home_ + "/.ssh");
  }
  void TearDown() override { std::filesystem::remove_all(home_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(home_ + "/.ssh/" + name) << text;
  }
  std::string home_;
};

TEST_F(KeyFiles, Ed25519IsPreferredAndItsLineIsRead) {
  write("id_rsa.pub", "ssh-rsa AAAAB3Nza rsa@box\n");
  auto rsa = find_ssh_public_key(home_);
  ASSERT_TRUE(rsa.ok()) << rsa.error().message;
  EXPECT_EQ(rsa->text, "ssh-rsa AAAAB3Nza rsa@box");
  write("id_ed25519.pub", "ssh-ed25519 AAAAC3Nz me@box\n");
  auto ed = find_ssh_public_key(home_);
  ASSERT_TRUE(ed.ok());
  EXPECT_EQ(ed->path, home_ + "/.ssh/id_ed25519.pub");
  EXPECT_EQ(ed->text, "ssh-ed25519 AAAAC3Nz me@box");
}

TEST_F(KeyFiles, NoKeyOrAPrivateKeyIsRefusedByName) {
  auto none = find_ssh_public_key(home_);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().kind, ErrorKind::Usage);
  EXPECT_NE(none.error().message.find("ssh-keygen"), std::string::npos);
  write("id_ecdsa.pub", "-----BEGIN OPENSSH PRIVATE KEY-----\n");
  auto bad = find_ssh_public_key(home_);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, home_ +
                                     "/.ssh/id_ecdsa.pub:1: not an OpenSSH public key "
                                     "(ssh-ed25519 AAAA… expected)");
  EXPECT_EQ(bad.error().message.find("PRIVATE"), std::string::npos);  // never echoed
}

TEST(NodeConnectTest, TheProgramsExitStatusComesBackAndAMissingOneIsAnError) {
  EXPECT_EQ(*run_foreground({"sh", "-c", "exit 5"}, {"PATH=/usr/bin:/bin"}), 5);
  auto missing = run_foreground({"/nonexistent/ssh"}, {});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot run /nonexistent/ssh"), std::string::npos);
}

bool alive(pid_t pid) {
  return ::kill(pid, 0) == 0;
}

TEST_F(KeyFiles, TensorBoardIsFoundOnPathAndStoppedWithItsChildren) {
  const auto bin = home_ + "/bin";
  std::filesystem::create_directories(bin);
  const auto pids = home_ + "/pids";
  // A stand-in that records its arguments and starts a child of its own, as TensorBoard does.
  std::ofstream(bin + "/tensorboard") << "#!/bin/sh\necho \"$@\" > " << home_
                                      << "/args\nsleep 60 & echo $! > " << pids << "\nwait\n";
  ::chmod((bin + "/tensorboard").c_str(), 0755);
  EXPECT_FALSE(find_on_path("tensorboard", "/nonexistent:/also-not").has_value());
  auto program = find_on_path("tensorboard", "/nonexistent:" + bin);
  ASSERT_EQ(program, bin + "/tensorboard");
  pid_t tb = 0, child = 0;
  {
    TensorBoard board;
    auto url = board.start(*program, "/data/run 1", {"PATH=/usr/bin:/bin"});
    ASSERT_TRUE(url.ok()) << url.error().message;
    EXPECT_TRUE(url->starts_with("http://127.0.0.1:60")) << *url;
    EXPECT_EQ(*board.start(*program, "/data/run 1", {}), *url);  // the same one again
    tb = board.pid();
    for (int i = 0; i < 100 && !std::ifstream(pids).good(); ++i) std::this_thread::sleep_for(20ms);
    std::ifstream(pids) >> child;
    ASSERT_GT(child, 0);
    EXPECT_TRUE(alive(child));
    std::ifstream args(home_ + "/args");
    std::string line;
    std::getline(args, line);
    EXPECT_TRUE(line.starts_with("--logdir /data/run 1 --host 127.0.0.1 --port 60")) << line;
  }  // its end stops the group
  EXPECT_FALSE(alive(tb));
  for (int i = 0; i < 100 && alive(child); ++i) std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(alive(child));
}

// The Nodes pane of a Batch account in config.json, with an SSH key in $HOME.
class TuiConnect : public apptest::TuiScreen {
 protected:
  void SetUp() override {
    auto& s = *fixture_.ctx().store;
    Pool p;
    p.account = "contoso";
    p.id = "gpu";
    p.vm_size = "standard_nc24ads_a100_v4";
    ASSERT_TRUE(s.upsert_pool(p).ok());
    Node n;
    n.account = "contoso";
    n.pool_id = "gpu";
    n.id = "tvm-1";
    n.state = NodeState::Idle;
    n.ip_address = "10.0.0.4";
    ASSERT_TRUE(s.upsert_node(n).ok());
    azure::AccountConfig a;
    a.name = "contoso";
    a.endpoint = "https://contoso.westeurope.batch.azure.com";
    fixture_.ctx().settings.accounts = {a};
    home_ = fixture_.dir() + "/home";
    std::filesystem::create_directories(home_ + "/.ssh");
    std::ofstream(home_ + "/.ssh/id_ed25519.pub") << "ssh-ed25519 AAAAC3Nz me@box\n";
    saved_home_ = std::getenv("HOME") ? std::getenv("HOME") : "";
    saved_user_ = std::getenv("USER") ? std::getenv("USER") : "";
    ::setenv("HOME", home_.c_str(), 1);
    ::setenv("USER", "alice", 1);
  }
  void TearDown() override {
    ::setenv("HOME", saved_home_.c_str(), 1);
    ::setenv("USER", saved_user_.c_str(), 1);
  }
  void open_nodes(TermSize size) {
    term_ = std::make_unique<HeadlessTerminal>(size);
    TuiOptions o;
    o.view = "pools";
    o.account = "contoso";
    tui_ = std::make_unique<Tui>(fixture_.ctx(), *term_, o);
    tui_->draw();
    keys("Enter");  // the pool's nodes
  }
  std::string screen() { return term_->last_frame().to_text(); }
  std::string home_, saved_home_, saved_user_;
};

TEST_F(TuiConnect, LAsksFirstSayingWhatItWillDo80x24) {
  open_nodes(apptest::kNormal);
  keys("L");
  EXPECT_NE(screen().find("Connect to node tvm-1"), std::string::npos) << screen();
  EXPECT_NE(screen().find("ty-alice"), std::string::npos) << screen();
  expect("connect_form_80x24");
  keys("Escape");  // nothing was sent: the account has no endpoint that answers
  EXPECT_EQ(screen().find("Connect to node"), std::string::npos) << screen();
}

TEST_F(TuiConnect, LAsksFirstSayingWhatItWillDo200x60) {
  open_nodes({200, 60});
  keys("L");
  expect("connect_form_200x60");
}

TEST_F(TuiConnect, WithoutAKeyLSaysHowToMakeOne) {
  std::filesystem::remove(home_ + "/.ssh/id_ed25519.pub");
  open_nodes(apptest::kNormal);
  keys("L");
  EXPECT_NE(screen().find("no SSH public key in"), std::string::npos) << screen();
}

TEST_F(TuiConnect, TOnALocalRunSaysWhenTensorBoardIsNotInstalled) {
  const std::string saved_path = std::getenv("PATH");
  ::setenv("PATH", "/nonexistent", 1);
  open(apptest::kNormal, "tasks", "resnet-sweep");
  keys("T");
  ::setenv("PATH", saved_path.c_str(), 1);
  EXPECT_NE(screen().find("TensorBoard is not installed (no tensorboard on PATH)"),
            std::string::npos)
      << screen();
}

}  // namespace
}  // namespace trainyard::connect_test
