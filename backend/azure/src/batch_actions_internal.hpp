// Internal: how batch_actions*.cpp send one action and read its answer.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "azure/batch_client.hpp"

namespace trainyard::azure::detail {

/// One action request.
struct Action {
  std::string method = "POST";
  std::string path;
  nlohmann::json body;  ///< null: no body
  Query query;
  bool idempotent = true;
  /// Batch error codes that, after a retry, mean an earlier attempt of this very request was
  /// applied (e.g. `PoolNotSteady` for a resize whose first answer was lost): success.
  std::initializer_list<std::string_view> landed = {};
};

/// Sends `a`; see Action::landed. A landed answer gives an empty response with status 0.
Result<HttpResponse> send_action(BatchClient& client, const Action& a);
/// The outcome of a request whose answer carries nothing more: it worked, or why not.
inline Result<void> done(const Result<HttpResponse>& r) {
  if (!r) return r.error();
  return {};
}

/// The Batch error code an Error from BatchClient::call starts with (`PoolNotFound`), or empty.
std::string error_code(const Error& e);

/// `/segment/` joined, each id percent-encoded: path("pools", id, "nodes", node).
std::string path(std::initializer_list<std::string_view> parts);

/// Parses a response body and reads it with `read`, which returns Result<T>.
template <typename T, typename F>
Result<T> read_body(const Result<HttpResponse>& r, F read) {
  if (!r) return r.error();
  auto doc = parse_json_body(r->body);
  if (!doc) return doc.error();
  return read(*doc);
}

}  // namespace trainyard::azure::detail
