// Internal: connecting to a Batch node over SSH, as `trainyard node connect` and the Nodes
// pane's key both do it: a temporary user with the user's SSH public key (never a password),
// then `ssh` in the terminal, optionally forwarding a port (TensorBoard).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "azure/batch_actions.hpp"
#include "core/result.hpp"

namespace trainyard {

/// An SSH public key file and its one line.
struct PublicKey {
  std::string path;
  std::string text;
};

/// The first of `home`/.ssh/id_ed25519.pub, id_ecdsa.pub, id_rsa.pub that exists; a Usage error
/// when none does (saying how to make one).
Result<PublicKey> find_ssh_public_key(const std::string& home);
/// Reads a public key file; a Usage error naming it when it is not one OpenSSH public key line.
Result<PublicKey> read_ssh_public_key(const std::string& path);

/// The node user connect makes for `login` (a local login name): `ty-` and its letters, digits,
/// `-` and `_`, lower case, at most 32 characters in all.
std::string connect_user_name(const std::string& login);
/// This process's login name: $USER, else the password database's, else `user`.
std::string local_login();

/// The program connect runs: $TRAINYARD_SSH when set (a wrapper, a test's stub), else `ssh`.
std::string ssh_program();
/// `PROGRAM -p PORT [-L T:localhost:T] USER@IP`: no secret, since the key authenticates.
std::vector<std::string> ssh_command(const std::string& program, const azure::RemoteLogin& at,
                                     const std::string& user, std::optional<int> tunnel);

/// A local port to forward: 1 to 65535; else a Usage error naming `--tunnel`.
Result<int> tunnel_port(const std::string& text);

/// $HOME, or "." when it is unset or empty.
std::string home_dir();

}  // namespace trainyard
