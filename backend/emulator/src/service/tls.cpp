#include "tls.hpp"

#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <memory>

#include <fmt/format.h>

namespace trainyard::emu {

namespace {

using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using Cert = std::unique_ptr<X509, decltype(&X509_free)>;

Key new_key() {
  return Key(EVP_EC_gen("P-256"), EVP_PKEY_free);
}

void add_ext(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  if (ext) {
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
  }
}

Cert new_cert(EVP_PKEY* key, const std::string& cn, X509* issuer, EVP_PKEY* issuer_key, bool ca,
              const std::string& host) {
  Cert cert(X509_new(), X509_free);
  X509_set_version(cert.get(), 2);
  unsigned char serial[16];
  RAND_bytes(serial, sizeof serial);
  serial[0] &= 0x7f;
  BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
  BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get()));
  BN_free(bn);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 60L * 60 * 24 * 825);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("trainyard emulator"), -1, -1,
                             0);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
  X509* signer = issuer ? issuer : cert.get();
  X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
  if (ca) {
    add_ext(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE,pathlen:0");
    add_ext(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
    add_ext(cert.get(), signer, NID_subject_key_identifier, "hash");
  } else {
    add_ext(cert.get(), signer, NID_basic_constraints, "critical,CA:FALSE");
    add_ext(cert.get(), signer, NID_key_usage, "critical,digitalSignature,keyEncipherment");
    add_ext(cert.get(), signer, NID_ext_key_usage, "serverAuth");
    add_ext(cert.get(), signer, NID_authority_key_identifier, "keyid:always");
    std::string san = "DNS:localhost,IP:127.0.0.1,IP:::1";
    if (host != "127.0.0.1" && host != "localhost" && host != "::1" && !host.empty()) {
      san += (host.find_first_not_of("0123456789.") == std::string::npos ? ",IP:" : ",DNS:") + host;
    }
    add_ext(cert.get(), signer, NID_subject_alt_name, san);
  }
  X509_sign(cert.get(), issuer_key ? issuer_key : key, EVP_sha256());
  return cert;
}

Result<void> write_pem(const std::string& path, int mode, const std::function<int(FILE*)>& write) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return make_error(ErrorKind::Io, fmt::format("{}: cannot write", path));
  ::fchmod(fileno(f), static_cast<mode_t>(mode));
  int ok = write(f);
  std::fclose(f);
  if (!ok) return make_error(ErrorKind::Io, fmt::format("{}: cannot write the PEM data", path));
  return {};
}

}  // namespace

Result<TlsFiles> make_tls_files(const std::string& dir, const std::string& host) {
  ::mkdir(dir.c_str(), 0700);
  Key ca_key = new_key(), server_key = new_key();
  if (!ca_key || !server_key) return make_error(ErrorKind::Internal, "cannot generate TLS keys");
  Cert ca = new_cert(ca_key.get(), "trainyard emulator CA", nullptr, nullptr, true, host);
  Cert leaf = new_cert(server_key.get(), host.empty() ? "localhost" : host, ca.get(), ca_key.get(),
                       false, host);
  TlsFiles files{dir + "/ca.pem", dir + "/server.pem", dir + "/server.key"};
  if (auto ok =
          write_pem(files.ca_cert, 0644, [&](FILE* f) { return PEM_write_X509(f, ca.get()); });
      !ok)
    return ok.error();
  if (auto ok = write_pem(files.server_cert, 0644,
                          [&](FILE* f) { return PEM_write_X509(f, leaf.get()); });
      !ok)
    return ok.error();
  if (auto ok = write_pem(files.server_key, 0600,
                          [&](FILE* f) {
                            return PEM_write_PrivateKey(f, server_key.get(), nullptr, nullptr, 0,
                                                        nullptr, nullptr);
                          });
      !ok) {
    return ok.error();
  }
  return files;
}

}  // namespace trainyard::emu
