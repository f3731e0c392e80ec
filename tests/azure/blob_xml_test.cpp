// The Blob service's XML answers: listings (folders, encoded names, markers), containers and
// errors, from fixtures in the service's shape.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "azure/batch_client.hpp"
#include "azure/blob_client.hpp"

namespace trainyard::azure::blob_xml_test {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(TRAINYARD_SOURCE_DIR "/tests/azure/fixtures/blob/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(BlobXml, ListingWithFoldersEncodedNamesAndAMarker) {
  auto page = parse_blob_list(fixture("list_blobs_folders.xml"));
  ASSERT_TRUE(page) << page.error().message;
  ASSERT_EQ(page->blobs.size(), 2u);
  const auto& out = page->blobs[0];
  EXPECT_EQ(out.name, "task-1/stdout.txt");
  EXPECT_EQ(out.size, 1048577u);
  EXPECT_EQ(out.etag, "0x8DD0E2B5C1A2B3C");
  EXPECT_EQ(out.content_md5, "XrY7u+Ae7tCTyyK7j1rNww==");
  EXPECT_EQ(out.content_type, "text/plain");
  ASSERT_TRUE(out.last_modified);
  EXPECT_EQ(format_iso8601(*out.last_modified), "2026-11-26T09:14:07.0000000Z");
  // Encoded="true": %01 is the byte 0x01, which XML 1.0 cannot carry.
  EXPECT_EQ(page->blobs[1].name, std::string("task-1/odd\x01name.txt"));
  EXPECT_EQ(page->blobs[1].size, 0u);
  EXPECT_EQ(page->prefixes, std::vector<std::string>{"task-1/$TaskOutput/"});
  EXPECT_EQ(page->next_marker, "2!88!MDAwMDE4IXRhc2stMS9vdXQudHh0");
}

TEST(BlobXml, TheLastPageHasNoMarkerAndTheLargestSizeFits) {
  auto page = parse_blob_list(fixture("list_blobs_last_page.xml"));
  ASSERT_TRUE(page) << page.error().message;
  ASSERT_EQ(page->blobs.size(), 1u);
  EXPECT_EQ(page->blobs[0].size, 18446744073709551615u);
  EXPECT_EQ(page->blobs[0].etag, "\"0x1F2E3D4C5B6A798\"");
  EXPECT_TRUE(page->next_marker.empty());
  EXPECT_TRUE(page->prefixes.empty());
}

TEST(BlobXml, Containers) {
  std::string marker;
  auto list = parse_container_list(fixture("list_containers.xml"), &marker);
  ASSERT_TRUE(list) << list.error().message;
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].name, "job-train-1");
  EXPECT_EQ(format_iso8601(*(*list)[0].last_modified), "2026-11-25T18:30:00.0000000Z");
  EXPECT_EQ((*list)[1].name, "inputs");
  EXPECT_EQ(marker, "inputs2");
}

TEST(BlobXml, MalformedListingsSayWhere) {
  auto truncated = parse_blob_list(fixture("malformed_truncated.xml"));
  ASSERT_FALSE(truncated);
  EXPECT_EQ(truncated.error().kind, ErrorKind::Parse);
  EXPECT_NE(truncated.error().message.find("not XML at byte"), std::string::npos);
  auto size = parse_blob_list(fixture("malformed_size.xml"));
  ASSERT_FALSE(size);
  EXPECT_EQ(size.error().message, "blob \"weights.pt\": Content-Length \"-5\" is not a size");
  auto other = parse_blob_list("<Error><Code>X</Code></Error>");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().message, "no EnumerationResults element");
}

TEST(BlobXml, ErrorsKeepTheCodeAndDropTheStringToSign) {
  HttpResponse r;
  r.status = 403;
  r.body = fixture("error_auth.xml");
  r.headers = {{"x-ms-request-id", "6c3b2a1f"}};
  auto e = storage_error_from_response(r);
  EXPECT_EQ(e.kind, ErrorKind::Auth);
  EXPECT_EQ(e.message,
            "AuthenticationFailed: Server failed to authenticate the request. Make sure the value "
            "of Authorization header is formed correctly including the signature. The MAC "
            "signature found in the HTTP request 'abc=' is not the same as any computed signature. "
            "(HTTP 403, request-id 6c3b2a1f)");
}

TEST(BlobXml, AHeadAnswerHasOnlyTheHeaderCode) {
  HttpResponse r;
  r.status = 404;
  r.headers = {{"x-ms-error-code", "BlobNotFound"}};
  auto e = storage_error_from_response(r);
  EXPECT_EQ(e.kind, ErrorKind::NotFound);
  EXPECT_EQ(e.message, "BlobNotFound (HTTP 404)");
  r.status = 416;
  r.headers = {};
  EXPECT_EQ(storage_error_from_response(r).kind, ErrorKind::Conflict);
  EXPECT_EQ(storage_error_from_response(r).message, "no Storage error code (HTTP 416)");
}

// Found by fuzz_blob_xml: a Last-Modified in the year 1013 overflowed the nanosecond clock
// (undefined behaviour) on its way to a Timestamp. A date outside 1970..9999 is no date.
TEST(BlobXml, ALastModifiedOutsideTheClocksRangeIsNoDate) {
  EXPECT_FALSE(parse_http_date("Fri, 27 Nov 1013 06:00:00 GMT"));
  EXPECT_FALSE(parse_http_date("Sat, 01 Jan 99999 00:00:00 GMT"));
  auto last = parse_http_date("Fri, 31 Dec 9999 23:59:59 GMT");
  ASSERT_TRUE(last);
  // 253402300799 s since 1970: the last second of 9999, as `date -ud 9999-12-31T23:59:59 +%s`.
  EXPECT_EQ(last->time_since_epoch().count(), 253402300799LL * 1000000);
  auto page = parse_blob_list(
      "<EnumerationResults><Blobs><Blob><Name>a</Name><Properties>"
      "<Last-Modified>Fri, 27 Nov 1013 06:00:00 GMT</Last-Modified><Content-Length>1"
      "</Content-Length></Properties></Blob></Blobs></EnumerationResults>");
  ASSERT_TRUE(page) << page.error().message;
  ASSERT_EQ(page->blobs.size(), 1u);
  EXPECT_FALSE(page->blobs[0].last_modified);
}

TEST(BlobXml, ContentMd5IsBase64OfTheDigest) {
  // md5("") = d41d8cd98f00b204e9800998ecf8427e; base64 of those 16 bytes.
  EXPECT_EQ(content_md5(""), "1B2M2Y8AsgTpgAmY7PhCfg==");
  // md5("abc") = 900150983cd24fb0d6963f7d28e17f72.
  EXPECT_EQ(content_md5("abc"), "kAFQmDzST7DWlj99KOF/cg==");
}

TEST(BlobXml, UserDelegationKeyAsTheServiceIndentsIt) {
  auto k = parse_user_delegation_key(fixture("user_delegation_key.xml"));
  ASSERT_TRUE(k.ok()) << k.error().message;
  EXPECT_EQ(k->signed_tid, "72f988bf-86f1-41af-91ab-2d7cd011db47");
  EXPECT_EQ(k->signed_start, "2026-11-27T05:45:00Z");
  EXPECT_EQ(k->signed_service, "b");
  EXPECT_EQ(k->signed_version, "2021-08-06");
}

}  // namespace
}  // namespace trainyard::azure::blob_xml_test
