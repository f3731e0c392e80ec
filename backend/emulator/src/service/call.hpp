// One request being answered: its ids, the checks every Batch operation makes, and replies.
#pragma once

#include <httplib.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "errors.hpp"
#include "json_out.hpp"
#include "model.hpp"

namespace trainyard::emu {

/// A `values` entry of a BatchError.
using ErrorValue = std::pair<std::string, std::string>;

/// The request, its response, and what the handlers need to answer in the service's shape.
struct Call {
  const httplib::Request& req;
  httplib::Response& res;
  std::string base_url;  ///< `http://127.0.0.1:PORT`, for `url` and `odata.nextLink`
  Micros now = 0;

  /// Answers a BatchError body with `status`.
  void error(int status, std::string_view code, std::string_view message,
             const std::vector<ErrorValue>& values = {});
  /// Answers a BatchError from the catalogue (errors.hpp).
  void error(const ErrorText& e, const std::vector<ErrorValue>& values = {}) {
    error(e.status, e.code, e.message, values);
  }
  /// Answers JSON text.
  void json(int status, std::string body);
  /// Answers with no body (201/202/204 actions), with DataServiceId when given.
  void empty(int status, const std::string& data_service_id = "");
  /// Sets ETag and Last-Modified from an entity.
  void version_headers(const Versioned& v);
  /// A query parameter (case-insensitive name); empty when absent.
  std::string param(std::string_view name) const;
  bool has_param(std::string_view name) const;
  /// The JSON body; answers 400 and returns discarded json when it is not an object.
  bool body_object(nlohmann::json& out);
  /// Applies If-Match / If-None-Match / If-(Un)Modified-Since; answers 304/412 and returns
  /// false when the request must not proceed.
  bool conditions_pass(const Versioned& v, bool is_write);
};

/// What is wrong with a request body: the error and the property it names; no error when the
/// body is valid.
struct BodyError {
  const ErrorText* error = nullptr;
  std::string property;
  explicit operator bool() const { return error != nullptr; }
};

/// A missing or invalid property in a request body (kMissingRequiredProperty or
/// kInvalidPropertyValue), naming the property and, when given, why.
void bad_property(Call& c, const ErrorText& e, std::string_view property,
                  std::string_view reason = "");

/// A fresh opaque ETag (`0x8D…`), unique within this process.
std::string next_etag();
/// Marks an entity changed at `now`.
void touch(Versioned& v, Micros now);
/// A random GUID in the usual text form.
std::string new_guid();

}  // namespace trainyard::emu
