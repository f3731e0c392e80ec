#include "node_connect.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "core/child_process.hpp"

namespace trainyard {
namespace {

bool looks_like_public_key(const std::string& line) {
  for (const char* prefix : {"ssh-", "ecdsa-", "sk-"})
    if (line.rfind(prefix, 0) == 0) return line.find(' ') != std::string::npos;
  return false;
}

}  // namespace

std::string home_dir() {
  const char* home = std::getenv("HOME");
  return home && *home ? home : ".";
}

Result<PublicKey> read_ssh_public_key(const std::string& path) {
  std::ifstream in(path);
  if (!in) return make_error(ErrorKind::Usage, path + ": cannot read it");
  std::string line;
  std::getline(in, line);
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  if (!looks_like_public_key(line))
    return make_error(ErrorKind::Usage,
                      path + ":1: not an OpenSSH public key (ssh-ed25519 AAAA… expected)");
  return PublicKey{path, line};
}

Result<PublicKey> find_ssh_public_key(const std::string& home) {
  for (const char* name : {"id_ed25519.pub", "id_ecdsa.pub", "id_rsa.pub"}) {
    const auto path = home + "/.ssh/" + name;
    if (::access(path.c_str(), F_OK) == 0) return read_ssh_public_key(path);
  }
  return make_error(ErrorKind::Usage, "no SSH public key in " + home +
                                          "/.ssh (id_ed25519.pub, id_ecdsa.pub, id_rsa.pub): "
                                          "make one with ssh-keygen -t ed25519, or pass --key");
}

std::string connect_user_name(const std::string& login) {
  std::string out = "ty-";
  for (char ch : login) {
    auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '-' || c == '_') out += static_cast<char>(std::tolower(c));
    if (out.size() == 32) break;
  }
  return out.size() > 3 ? out : out + "user";
}

std::string local_login() {
  if (const char* user = std::getenv("USER"); user && *user) return user;
  const passwd* pw = ::getpwuid(::getuid());
  return pw && pw->pw_name ? pw->pw_name : "user";
}

std::string ssh_program() {
  const char* v = std::getenv("TRAINYARD_SSH");
  return v && *v ? v : "ssh";
}

std::vector<std::string> ssh_command(const std::string& program, const azure::RemoteLogin& at,
                                     const std::string& user, std::optional<int> tunnel) {
  std::vector<std::string> argv{program, "-p", std::to_string(at.port)};
  if (tunnel) argv.insert(argv.end(), {"-L", fmt::format("{0}:localhost:{0}", *tunnel)});
  argv.push_back(user + "@" + at.ip);
  return argv;
}

Result<int> tunnel_port(const std::string& text) {
  int port = 0;
  bool digits = !text.empty() && text.size() <= 5;
  for (char c : text) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  if (digits) port = std::stoi(text);
  if (port < 1 || port > 65535)
    return make_error(ErrorKind::Usage, "--tunnel: a port from 1 to 65535, not '" + text + "'");
  return port;
}

}  // namespace trainyard
