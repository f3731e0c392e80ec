// The Blob service's XML answers: List Blobs, List Containers and the error body.
#include <cctype>

#include <fmt/format.h>
#include <pugixml.hpp>

#include "azure/batch_client.hpp"
#include "azure/blob_auth.hpp"
#include "azure/blob_client.hpp"
#include "azure/retry.hpp"
#include "parse_values.hpp"
#include "signing.hpp"

namespace trainyard::azure {

namespace {

Result<pugi::xml_document> load_xml(std::string_view xml) {
  pugi::xml_document doc;
  auto parsed = doc.load_buffer(xml.data(), xml.size(), pugi::parse_default, pugi::encoding_utf8);
  if (!parsed)
    return make_error(ErrorKind::Parse,
                      fmt::format("not XML at byte {}: {}", parsed.offset, parsed.description()));
  return doc;
}

std::string name_of(const pugi::xml_node& item) {
  auto name = item.child("Name");
  std::string text = name.text().as_string();
  return name.attribute("Encoded").as_bool() ? signing::percent_decode(text) : text;
}

Result<uint64_t> content_length(const pugi::xml_node& props, const std::string& blob) {
  std::string_view text = props.child("Content-Length").text().as_string();
  auto n = detail::size_value(text);
  if (!n)
    return make_error(ErrorKind::Parse,
                      fmt::format("blob \"{}\": Content-Length \"{}\" is not a size", blob, text));
  return *n;
}

Result<BlobProperties> blob_of(const pugi::xml_node& item) {
  BlobProperties b;
  b.name = name_of(item);
  if (b.name.empty()) return make_error(ErrorKind::Parse, "a Blob has no Name");
  auto props = item.child("Properties");
  auto size = content_length(props, b.name);
  if (!size) return size.error();
  b.size = *size;
  b.last_modified = parse_http_date(props.child("Last-Modified").text().as_string());
  b.etag = props.child("Etag").text().as_string();
  b.content_md5 = props.child("Content-MD5").text().as_string();
  b.content_type = props.child("Content-Type").text().as_string();
  return b;
}

}  // namespace

Result<BlobListPage> parse_blob_list(std::string_view xml) {
  auto doc = load_xml(xml);
  if (!doc) return doc.error();
  auto root = doc->child("EnumerationResults");
  if (!root) return make_error(ErrorKind::Parse, "no EnumerationResults element");
  BlobListPage page;
  for (auto item : root.child("Blobs").children()) {
    if (std::string_view(item.name()) == "BlobPrefix") {
      page.prefixes.push_back(name_of(item));
      continue;
    }
    if (std::string_view(item.name()) != "Blob") continue;
    auto blob = blob_of(item);
    if (!blob) return blob.error();
    page.blobs.push_back(std::move(*blob));
  }
  page.next_marker = root.child("NextMarker").text().as_string();
  return page;
}

Result<std::vector<ContainerInfo>> parse_container_list(std::string_view xml,
                                                        std::string* next_marker) {
  auto doc = load_xml(xml);
  if (!doc) return doc.error();
  auto root = doc->child("EnumerationResults");
  if (!root) return make_error(ErrorKind::Parse, "no EnumerationResults element");
  std::vector<ContainerInfo> out;
  for (auto item : root.child("Containers").children("Container")) {
    ContainerInfo c{name_of(item), {}};
    if (c.name.empty()) return make_error(ErrorKind::Parse, "a Container has no Name");
    c.last_modified =
        parse_http_date(item.child("Properties").child("Last-Modified").text().as_string());
    out.push_back(std::move(c));
  }
  if (next_marker) *next_marker = root.child("NextMarker").text().as_string();
  return out;
}

namespace {

// The detail up to the sentence quoting the string the service signed (lines of headers).
std::string detail_before_string_to_sign(std::string detail) {
  auto at = detail.find("string to sign");
  if (at == std::string::npos) at = detail.find("string-to-sign");
  if (at != std::string::npos) {
    auto sentence = detail.rfind(". ", at);
    detail = detail.substr(0, sentence == std::string::npos ? 0 : sentence + 1);
  }
  for (auto& c : detail)
    if (c == '\n' || c == '\r') c = ' ';
  return detail.substr(0, 200);
}

}  // namespace

Error storage_error_from_response(const HttpResponse& r) {
  std::string code = r.header("x-ms-error-code");
  std::string message;
  if (auto doc = load_xml(r.body); doc) {
    auto e = doc->child("Error");
    if (code.empty()) code = e.child("Code").text().as_string();
    message = e.child("Message").text().as_string();
    // The message's second line onwards is the request id and time, already given below.
    message = message.substr(0, message.find('\n'));
    std::string detail =
        detail_before_string_to_sign(e.child("AuthenticationErrorDetail").text().as_string());
    if (!detail.empty()) message += " " + detail;
  }
  while (!message.empty() && (message.back() == '\r' || message.back() == ' ')) message.pop_back();
  // A HEAD answer has no body: its code is all there is.
  std::string what = code.empty() ? "no Storage error code" : code;
  if (!message.empty()) what += ": " + message;
  auto request_id = r.header("x-ms-request-id");
  return make_error(r.status == 416 ? ErrorKind::Conflict : http_error_kind(r.status),
                    fmt::format("{} (HTTP {}{}{})", what, r.status,
                                request_id.empty() ? "" : ", request-id ", request_id));
}

Result<UserDelegationKey> parse_user_delegation_key(std::string_view xml) {
  auto doc = load_xml(xml);
  if (!doc) return doc.error();
  auto root = doc->child("UserDelegationKey");
  if (!root) return make_error(ErrorKind::Parse, "no UserDelegationKey element");
  UserDelegationKey k;
  const std::pair<const char*, std::string*> fields[] = {{"SignedOid", &k.signed_oid},
                                                         {"SignedTid", &k.signed_tid},
                                                         {"SignedStart", &k.signed_start},
                                                         {"SignedExpiry", &k.signed_expiry},
                                                         {"SignedService", &k.signed_service},
                                                         {"SignedVersion", &k.signed_version},
                                                         {"Value", &k.value}};
  for (const auto& [name, field] : fields) {
    *field = root.child(name).text().as_string();
    if (field->empty())
      return make_error(ErrorKind::Parse, fmt::format("UserDelegationKey has no {}", name));
  }
  return k;
}

}  // namespace trainyard::azure
