// libFuzzer: SharedKey on both sides and the account key decoder. Input lines: method, target
// (path and query as received), then `name: value` headers; the client canonicalises it as a
// request to send, the emulator as one received and checks its signature.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "azure/credentials.hpp"
#include "azure/http.hpp"
#include "emulator/shared_key_check.hpp"

using namespace trainyard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::istringstream in(text);
  emu::ReceivedRequest req;
  std::getline(in, req.method);
  std::getline(in, req.target);
  for (std::string line; std::getline(in, line);) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    req.headers.emplace_back(line.substr(0, colon), line.substr(colon + 1));
  }
  (void)emu::check_shared_key(req, "acct", "a2V5", Timestamp{});
  // The 403 diagnosis tries every variant of the canonical string: costly, so half the inputs.
  if (size % 2 == 1) (void)emu::candidate_strings_to_sign(req, "acct");
  azure::HttpRequest out;
  out.method = req.method;
  out.url = "https://acct.region.batch.azure.com" + req.target;
  out.headers = req.headers;
  (void)azure::shared_key_string_to_sign(out, "acct");
  (void)azure::is_valid_account_key(text);
  (void)emu::hmac_sha256_base64(req.target, req.method);
  (void)emu::parse_rfc1123(req.method);
  return 0;
}
