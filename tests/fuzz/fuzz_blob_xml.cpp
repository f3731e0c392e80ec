// libFuzzer: Blob service answers through the listing, container, user delegation key and error
// parsers.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "azure/blob_client.hpp"

using namespace trainyard::azure;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  (void)parse_blob_list(body);
  std::string marker;
  (void)parse_container_list(body, &marker);
  (void)parse_user_delegation_key(body);
  HttpResponse r;
  r.status = 403;
  r.body = std::string(body);
  (void)storage_error_from_response(r);
  return 0;
}
