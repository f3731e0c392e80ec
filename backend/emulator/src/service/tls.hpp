// A generated certificate authority and server certificate for `--tls`.
#pragma once

#include <string>

#include "core/result.hpp"

namespace trainyard::emu {

/// Paths of the files `make_tls_files` writes.
struct TlsFiles {
  std::string ca_cert;      ///< what clients trust (`--cacert`, REQUESTS_CA_BUNDLE)
  std::string server_cert;  ///< leaf for 127.0.0.1 / localhost / ::1, signed by the CA
  std::string server_key;   ///< mode 0600
};

/// Generates a fresh CA and a server certificate for `host` into `dir`.
Result<TlsFiles> make_tls_files(const std::string& dir, const std::string& host);

}  // namespace trainyard::emu
