// SharedKey checker against signatures made by real clients: vectors recorded from Debian's
// Python azure-batch 13.0.1 and npm @azure/batch 10.2.0 (fixtures/shared_key/make_*vectors.*),
// plus replays of the .NET / @azure/batch 13 / docs algorithms written in Python.
#include "emulator/shared_key_check.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace trainyard::emu::shared_key_check_test {
namespace {

using namespace std::chrono_literals;

const std::string kFixtures =
    std::string(TRAINYARD_SOURCE_DIR) + "/tests/emulator/fixtures/shared_key/";

struct Vector {
  std::string name, client, account, key, string_to_sign, now, expect;
  ReceivedRequest req;
};

// gtest prints parameters; the name is what helps.
void PrintTo(const Vector& v, std::ostream* os) {
  *os << v.name;
}

std::vector<Vector> load(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  auto doc = nlohmann::json::parse(in);
  std::vector<Vector> out;
  for (const auto& v : doc["vectors"]) {
    Vector x{v["name"],
             v["client"],
             doc["account"],
             doc["key"],
             v["string_to_sign"],
             v["now"],
             v.value("expect", "ok"),
             ReceivedRequest{v["method"], v["target"], {}}};
    for (const auto& h : v["headers"]) x.req.headers.emplace_back(h[0], h[1]);
    out.push_back(std::move(x));
  }
  return out;
}

const std::vector<Vector>& all_vectors() {
  static const std::vector<Vector> all = [] {
    auto v = load(kFixtures + "vectors_python.json");
    auto js = load(kFixtures + "vectors_js.json");
    v.insert(v.end(), js.begin(), js.end());
    return v;
  }();
  return all;
}

const Vector& vec(std::string_view name) {
  for (const auto& v : all_vectors()) {
    if (v.name == name) return v;
  }
  throw std::runtime_error("no vector " + std::string(name));
}

Timestamp at(std::string_view rfc1123) {
  auto t = parse_rfc1123(rfc1123);
  EXPECT_TRUE(t.ok()) << rfc1123;
  return t.value_or(Timestamp{});
}

bool same_name(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](unsigned char x, unsigned char y) {
    return std::tolower(x) == std::tolower(y);
  });
}

// The request with header `name` (any case) set to `value` in its old place, or removed.
ReceivedRequest with(ReceivedRequest req, std::string_view name, std::optional<std::string> value) {
  auto& h = req.headers;
  auto pos =
      std::find_if(h.begin(), h.end(), [&](const auto& x) { return same_name(x.first, name); }) -
      h.begin();
  std::erase_if(h, [&](const auto& x) { return same_name(x.first, name); });
  if (value) h.insert(h.begin() + std::min(pos, std::ssize(h)), {std::string(name), *value});
  return req;
}

std::string header_of(const ReceivedRequest& req, std::string_view name) {
  for (const auto& [n, v] : req.headers) {
    if (same_name(n, name)) return v;
  }
  return "";
}

std::string signature_of(const ReceivedRequest& req) {
  auto auth = header_of(req, "Authorization");
  return auth.substr(auth.find(':') + 1);
}

std::string date_of(const ReceivedRequest& req) {
  auto d = header_of(req, "ocp-date");
  return d.empty() ? header_of(req, "Date") : d;
}

AuthFailure check(const Vector& v, const ReceivedRequest& req, Timestamp now) {
  return check_shared_key(req, v.account, v.key, now);
}
// A variation of a recorded request, judged at the time it claims: only the signature counts.
AuthFailure check(const Vector& v, const ReceivedRequest& req) {
  return check(v, req, at(date_of(req)));
}
// A recorded request at its recorded `now`, which may make it fail (see `expect`).
AuthFailure check(const Vector& v) {
  return check(v, v.req, at(v.now));
}

std::string mac_detail(const Vector& v, const ReceivedRequest& req) {
  return "The MAC signature found in the HTTP request '" + signature_of(req) +
         "' is not the same as any computed signature. Server used following string to sign: '" +
         string_to_sign(req, v.account, SignVariant{}) + "'.";
}

bool is_mac_mismatch(const AuthFailure& f) {
  return f.code == "AuthenticationFailed" &&
         f.detail.starts_with("The MAC signature found in the HTTP request '");
}

// ---- every recorded vector ---------------------------------------------------------------

class Recorded : public testing::TestWithParam<Vector> {};

TEST_P(Recorded, VerifiesAsTheServiceWould) {
  const auto& v = GetParam();
  auto f = check(v);
  if (v.expect == "ok") {
    EXPECT_EQ(f.code, "") << f.detail;
  } else {
    EXPECT_EQ(f.code, "AuthenticationFailed");
    EXPECT_TRUE(f.detail.starts_with(v.expect)) << f.detail;
  }
}

TEST_P(Recorded, ClientStringIsOneOfTheCandidates) {
  const auto& v = GetParam();
  auto c = candidate_strings_to_sign(v.req, v.account);
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.front(), string_to_sign(v.req, v.account, SignVariant{}));
  EXPECT_NE(std::find(c.begin(), c.end(), v.string_to_sign), c.end()) << v.string_to_sign;
}

TEST_P(Recorded, ClientSignatureIsHmacOfItsString) {
  const auto& v = GetParam();
  auto mac = hmac_sha256_base64(v.key, v.string_to_sign);
  ASSERT_TRUE(mac.ok());
  EXPECT_EQ(*mac, signature_of(v.req));
}

TEST_P(Recorded, WrongKeyGivesMacDetail) {
  const auto& v = GetParam();
  auto f = check_shared_key(v.req, v.account,
                            "c2VjcmV0LWtleS1vZi1hbm90aGVyLWFjY291bnQ=", at(date_of(v.req)));
  EXPECT_EQ(f.code, "AuthenticationFailed");
  EXPECT_EQ(f.detail, mac_detail(v, v.req));
}

TEST_P(Recorded, SixteenMinutesOldIsTooOld) {
  const auto& v = GetParam();
  auto f = check(v, v.req, at(date_of(v.req)) + 16min);
  EXPECT_EQ(f.code, "AuthenticationFailed");
  EXPECT_EQ(f.detail, "Request date header too old: '" + date_of(v.req) + "'");
}

TEST_P(Recorded, SixteenMinutesAheadIsTooNew) {
  const auto& v = GetParam();
  auto f = check(v, v.req, at(date_of(v.req)) - 16min);
  EXPECT_EQ(f.code, "AuthenticationFailed");
  EXPECT_EQ(f.detail, "Request date header too new: '" + date_of(v.req) + "'");
}

TEST_P(Recorded, FifteenMinutesEitherWayIsAccepted) {
  const auto& v = GetParam();
  EXPECT_EQ(check(v, v.req, at(date_of(v.req)) + 15min).code, "");
  EXPECT_EQ(check(v, v.req, at(date_of(v.req)) - 15min).code, "");
}

TEST_P(Recorded, HeaderNamesAreCaseInsensitive) {
  const auto& v = GetParam();
  for (bool upper : {true, false}) {
    auto req = v.req;
    for (auto& h : req.headers) {
      for (auto& c : h.first) {
        auto u = static_cast<unsigned char>(c);
        c = static_cast<char>(upper ? std::toupper(u) : std::tolower(u));
      }
    }
    EXPECT_EQ(check(v, req).code, "") << check(v, req).detail;
  }
}

TEST_P(Recorded, AnyChangedSignatureCharacterIsRejected) {
  const auto& v = GetParam();
  auto sig = signature_of(v.req);
  for (size_t i : {size_t{0}, sig.size() / 2, sig.size() - 2}) {
    auto bad = sig;
    bad[i] = bad[i] == 'A' ? 'B' : 'A';
    auto req = with(v.req, "Authorization", "SharedKey " + v.account + ":" + bad);
    // The last character carries two padding bits: a non-canonical spelling is refused too.
    EXPECT_EQ(check(v, req).code, "AuthenticationFailed") << i;
  }
}

TEST_P(Recorded, ChangedVerbIsRejected) {
  const auto& v = GetParam();
  auto req = v.req;
  req.method = req.method == "PUT" ? "GET" : "PUT";
  EXPECT_TRUE(is_mac_mismatch(check(v, req)));
}

std::vector<Vector> vectors_or_placeholder() {
  auto v = all_vectors();
  if (v.empty()) v.push_back(Vector{.name = "missing_fixtures"});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Sdk, Recorded, testing::ValuesIn(vectors_or_placeholder()),
                         [](const auto& param_info) { return param_info.param.name; });

TEST(SharedKeyVectors, FixturesCoverBothRealClients) {
  const auto& v = all_vectors();
  auto count = [&](std::string_view client) {
    return std::count_if(v.begin(), v.end(), [&](const auto& x) { return x.client == client; });
  };
  EXPECT_GE(count("python-azure-batch-13.0.1"), 13);
  EXPECT_GE(count("js-azure-batch-10.2.0"), 9);
}

// ---- what each client variant needs ------------------------------------------------------

TEST(SharedKey, EmptyQueryValueVerifiesForPythonAndJs) {
  // Python 13.0.1 (parse_qs) leaves `$filter=` out of the string; JS keeps `$filter:`.
  const auto& py = vec("py_empty_query_value");
  const auto& js = vec("js_empty_query_value");
  EXPECT_EQ(py.string_to_sign.find("$filter"), std::string::npos);
  EXPECT_NE(js.string_to_sign.find("\n$filter:\n"), std::string::npos);
  EXPECT_NE(string_to_sign(py.req, py.account, SignVariant{}), py.string_to_sign);
  EXPECT_EQ(string_to_sign(py.req, py.account, SignVariant{.drop_empty_query_values = true}),
            py.string_to_sign);
  EXPECT_EQ(string_to_sign(js.req, js.account, SignVariant{}), js.string_to_sign);
  EXPECT_EQ(check(py).code, "");
  EXPECT_EQ(check(js).code, "");
}

TEST(SharedKey, TwoFlagApiCoversContentLengthAndLowercaseNames) {
  const auto& camel = vec("dotnet_timeout_camel");
  EXPECT_NE(string_to_sign(camel.req, camel.account, false, false), camel.string_to_sign);
  EXPECT_EQ(string_to_sign(camel.req, camel.account, false, true), camel.string_to_sign);
  const auto& empty = vec("dotnet_post_empty");  // received "0", signed ""
  EXPECT_EQ(string_to_sign(empty.req, empty.account, true, false), empty.string_to_sign);
  const auto& zero = vec("ts3fb743_head_zero");  // received nothing, signed "0"
  EXPECT_EQ(string_to_sign(zero.req, zero.account, true, false), zero.string_to_sign);
  const auto& py = vec("py_get_list_query");
  EXPECT_EQ(string_to_sign(py.req, py.account, false, false), py.string_to_sign);
}

TEST(SharedKey, ContentLengthZeroAndAbsentAreInterchangeable) {
  // JS signs "0" for a bodiless POST, "" for DELETE; proxies may add or drop the header.
  const auto& post = vec("js_post_no_body");
  EXPECT_EQ(check(post, with(post.req, "Content-Length", std::nullopt)).code, "");
  const auto& del = vec("js_delete");
  EXPECT_EQ(check(del, with(del.req, "Content-Length", "0")).code, "");
  const auto& py = vec("py_post_no_body");
  EXPECT_EQ(check(py, with(py.req, "Content-Length", std::nullopt)).code, "");
}

TEST(SharedKey, TamperedBodyLengthIsRejected) {
  const auto& v = vec("py_post_json");
  auto req = with(v.req, "Content-Length", "70");
  auto f = check(v, req);
  EXPECT_EQ(f.detail, mac_detail(v, req));
  EXPECT_NE(f.detail.find("POST\n\n\n70\n\napplication/json"), std::string::npos);
  EXPECT_TRUE(is_mac_mismatch(check(v, with(v.req, "Content-Length", "0"))));
}

TEST(SharedKey, ContentTypeIsSignedAsSent) {
  const auto& v = vec("js_post_json");  // "…; charset=utf-8"
  EXPECT_TRUE(is_mac_mismatch(
      check(v, with(v.req, "Content-Type", "application/json; odata=minimalmetadata"))));
}

TEST(SharedKey, QueryIsSortedDecodedAndSigned) {
  const auto& v = vec("py_get_list_query");
  auto req = v.req;
  auto q = req.target.find('?');
  std::vector<std::string> params;
  for (auto rest = req.target.substr(q + 1); !rest.empty();) {
    auto amp = rest.find('&');
    params.push_back(rest.substr(0, amp));
    rest = amp == std::string::npos ? "" : rest.substr(amp + 1);
  }
  ASSERT_EQ(params.size(), 5u);
  std::string reversed = req.target.substr(0, q + 1);
  for (auto it = params.rbegin(); it != params.rend(); ++it) {
    reversed += *it + (it + 1 == params.rend() ? "" : "&");
  }
  req.target = reversed;
  EXPECT_EQ(check(v, req).code, "") << reversed;
  req.target = v.req.target;
  req.target.replace(req.target.find("maxresults=10"), 13, "maxresults=11");
  EXPECT_TRUE(is_mac_mismatch(check(v, req)));
}

TEST(SharedKey, PathIsSignedPercentEncoded) {
  const auto& v = vec("py_ocp_range_space_path");
  EXPECT_NE(v.string_to_sign.find("/files/wd%2Fmy%20file%20%281%29.txt\n"), std::string::npos);
  auto req = v.req;
  req.target.replace(req.target.find("my%20file"), 9, "my+file");
  EXPECT_TRUE(is_mac_mismatch(check(v, req)));
  EXPECT_EQ(check(vec("js_ocp_range_space_path")).code, "");  // JS leaves ( ) unescaped
}

TEST(SharedKey, OcpHeadersAreSigned) {
  const auto& v = vec("py_ocp_range_space_path");
  EXPECT_TRUE(is_mac_mismatch(check(v, with(v.req, "ocp-range", "bytes=0-2047"))));
  EXPECT_TRUE(is_mac_mismatch(check(v, with(v.req, "ocp-extra", "1"))));
  // Headers outside the StringToSign are free to change.
  EXPECT_EQ(check(v, with(v.req, "User-Agent", "curl/8")).code, "");
  EXPECT_EQ(check(v, with(v.req, "client-request-id", "other")).code, "");
}

TEST(SharedKey, ConditionalHeadersAreSigned) {
  const auto& v = vec("py_patch_conditional");
  EXPECT_EQ(check(v).code, "");
  EXPECT_TRUE(is_mac_mismatch(check(v, with(v.req, "If-Match", "\"0x8DB2\""))));
  EXPECT_TRUE(is_mac_mismatch(check(v, with(v.req, "If-None-Match", "*"))));
}

TEST(SharedKey, RepeatedQueryNamesVerifyForEachClientStyle) {
  for (auto name : {"js_repeated_names", "js13_repeated_each", "dotnet_repeated_names",
                    "docs_repeated_sorted"}) {
    EXPECT_EQ(check(vec(name)).code, "") << name;
  }
}

TEST(SharedKey, OcpDateWinsOverDate) {
  EXPECT_EQ(check(vec("py_date_and_ocp_date")).code, "");  // Date is 31 minutes stale
  EXPECT_EQ(check(vec("dotnet_date_and_ocp_date")).code, "");
  auto f = check(vec("py_stale_ocp_date"));  // Date is fresh, ocp-date is not
  EXPECT_EQ(f.detail, "Request date header too old: 'Sun, 22 Nov 2026 03:31:26 GMT'");
  EXPECT_EQ(check(vec("docs_date_only")).code, "");
}

TEST(SharedKey, RepeatedHeaderUsesTheFirstValue) {
  const auto& v = vec("py_get_list_query");
  auto later = v.req;
  later.headers.emplace_back("ocp-date", "Mon, 23 Nov 2026 00:00:00 GMT");
  EXPECT_EQ(check(v, later).code, "");
  auto earlier = v.req;
  earlier.headers.insert(earlier.headers.begin(), {"OCP-DATE", "Sun, 22 Nov 2026 03:50:00 GMT"});
  EXPECT_TRUE(is_mac_mismatch(check(v, earlier)));
}

TEST(SharedKey, WhitespaceAroundValuesAndAbsoluteTargetsAreTolerated) {
  const auto& v = vec("py_ocp_range_space_path");
  auto req = with(v.req, "ocp-range", " bytes=0-1023\t");
  req.target = "http://127.0.0.1:8080" + req.target;
  EXPECT_EQ(check(v, req).code, "") << check(v, req).detail;
}

// ---- malformed requests ------------------------------------------------------------------

TEST(SharedKey, MissingDateHeadersAreRejected) {
  const auto& v = vec("py_head");
  auto f = check(v, with(with(v.req, "ocp-date", std::nullopt), "Date", std::nullopt), at(v.now));
  EXPECT_EQ(f.code, "AuthenticationFailed");
  EXPECT_TRUE(f.detail.starts_with("Request date header not specified")) << f.detail;
  EXPECT_NE(f.detail.find("ocp-date"), std::string::npos);
  f = check(v, with(v.req, "ocp-date", "2026-11-22T03:51:26Z"), at(v.now));
  EXPECT_EQ(f.detail, "Request date header is not an RFC 1123 date: '2026-11-22T03:51:26Z'");
}

TEST(SharedKey, AuthorizationProblemsAreRejectedWithADetail) {
  const auto& v = vec("py_head");
  auto sig = signature_of(v.req);
  auto fails = [&](std::optional<std::string> auth, std::string_view needle) {
    auto f = check(v, with(v.req, "Authorization", std::move(auth)));
    EXPECT_EQ(f.code, "AuthenticationFailed") << needle;
    EXPECT_NE(f.detail.find(needle), std::string::npos) << f.detail;
  };
  fails(std::nullopt, "Authorization header is missing");
  fails("", "Authorization header is missing");
  fails("Bearer eyJ0eXAi", "'Bearer' is not supported");
  fails("SharedKey", "not of the form 'SharedKey <account>:<signature>'");
  fails("SharedKey " + sig, "not of the form 'SharedKey <account>:<signature>'");
  fails("SharedKey other:" + sig, "account 'other' in the Authorization header is not 'acct'");
  fails("SharedKey acct:!!!not-base64!!!", "is not a base64 HMAC-SHA256 value");
  fails("SharedKey acct:AAAA", "is not a base64 HMAC-SHA256 value");
  fails("SharedKey acct:" + sig.substr(1), "is not a base64 HMAC-SHA256 value");
  EXPECT_EQ(check(v, with(v.req, "Authorization", "sharedkey  acct:" + sig)).code, "");
}

TEST(SharedKey, BadServerKeyFailsClosed) {
  const auto& v = vec("py_head");
  auto f = check_shared_key(v.req, v.account, "not base64!", at(v.now));
  EXPECT_EQ(f.code, "AuthenticationFailed");
  EXPECT_NE(f.detail.find("account key"), std::string::npos);
}

TEST(SharedKey, HmacMatchesRfc4231) {
  // RFC 4231 test case 2: key "Jefe".
  auto mac = hmac_sha256_base64("SmVmZQ==", "what do ya want for nothing?");
  ASSERT_TRUE(mac.ok());
  EXPECT_EQ(*mac, "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=");
  EXPECT_FALSE(hmac_sha256_base64("SmVmZQ=", "x").ok());
  EXPECT_FALSE(hmac_sha256_base64("Sm*mZQ==", "x").ok());
  EXPECT_FALSE(hmac_sha256_base64("S=VmZQ==", "x").ok());
  EXPECT_FALSE(hmac_sha256_base64("SmVmZR==", "x").ok());  // non-zero padding bits
}

// ---- the real Python SDK, now ------------------------------------------------------------

TEST(SharedKey, LivePythonSdkVectorsVerify) {
  if (std::system("/usr/bin/python3 -c 'import azure.batch' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "Debian's python3-azure is not installed";
  }
  auto out = std::filesystem::temp_directory_path() /
             ("shared_key_vectors_" + std::to_string(::getpid()) + ".json");
  auto cmd = "/usr/bin/python3 '" + kFixtures + "make_vectors.py' --out '" + out.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto live = load(out.string());
  std::filesystem::remove(out);
  ASSERT_GE(live.size(), 13u);
  for (const auto& v : live) {
    auto f = check(v);
    if (v.expect == "ok") {
      EXPECT_EQ(f.code, "") << v.name << ": " << f.detail;
    } else {
      EXPECT_TRUE(f.detail.starts_with(v.expect)) << v.name << ": " << f.detail;
    }
  }
}

// ---- RFC 1123 ------------------------------------------------------------------------------

TEST(Rfc1123, FormatsImfFixdate) {
  EXPECT_EQ(format_rfc1123(Timestamp{}), "Thu, 01 Jan 1970 00:00:00 GMT");
  auto t = at("Fri, 17 Feb 2017 00:00:00 GMT");
  EXPECT_EQ(format_rfc1123(t), "Fri, 17 Feb 2017 00:00:00 GMT");
  EXPECT_EQ(format_rfc1123(t + 999999us), "Fri, 17 Feb 2017 00:00:00 GMT");  // truncates
  EXPECT_EQ(format_rfc1123(Timestamp{} - 1us), "Wed, 31 Dec 1969 23:59:59 GMT");
}

TEST(Rfc1123, RoundTripsOverTwoCenturies) {
  // A stride that is not a multiple of a day visits every weekday, month and time of day.
  auto start = at("Mon, 01 Jan 1900 00:00:00 GMT");
  for (int i = 0; i < 20000; ++i) {
    Timestamp t = start + std::chrono::seconds(int64_t{i} * 315'569);
    auto text = format_rfc1123(t);
    auto back = parse_rfc1123(text);
    ASSERT_TRUE(back.ok()) << text;
    ASSERT_EQ(*back, t) << text;
  }
}

TEST(Rfc1123, ParsesTheObsoleteHttpForms) {
  auto t = at("Sun, 06 Nov 1994 08:49:37 GMT");
  EXPECT_EQ(at("Sunday, 06-Nov-94 08:49:37 GMT"), t);
  EXPECT_EQ(at("Sun Nov  6 08:49:37 1994"), t);
  EXPECT_EQ(at("Sun, 6 Nov 1994 08:49:37 GMT"), t);
  EXPECT_EQ(at("Thursday, 01-Jan-32 00:00:00 GMT"), at("Thu, 01 Jan 2032 00:00:00 GMT"));
  EXPECT_EQ(at("Tue, 31 Dec 2024 23:59:60 GMT"), at("Wed, 01 Jan 2025 00:00:00 GMT"));
}

TEST(Rfc1123, RejectsMalformedDates) {
  for (const char* bad : {"",
                          "GMT",
                          "Sun, 06 Nov 1994 08:49:37",
                          "Sun, 06 Nov 1994 08:49:37 UTC",
                          "Sun, 06 Nov 1994 08:49:37 +0000",
                          "Mon, 06 Nov 1994 08:49:37 GMT",
                          "sun, 06 Nov 1994 08:49:37 GMT",
                          "Sun, 06 nov 1994 08:49:37 GMT",
                          "Sun, 06 Nov 94 08:49:37 GMT",
                          "Sun, 06 Nov 1994 8:49:37 GMT",
                          "Sun, 06 Nov 1994 24:00:00 GMT",
                          "Sun, 06 Nov 1994 08:60:00 GMT",
                          "Sun, 06 Nov 1994 08:49:61 GMT",
                          "Thu, 30 Feb 2017 00:00:00 GMT",
                          "Sun, 006 Nov 1994 08:49:37 GMT",
                          "Sun 06 Nov 1994 08:49:37 GMT",
                          "Sun, 06 Nov 1994 08:49:37 GMT x",
                          "1994-11-06T08:49:37Z",
                          "Sunday, 06-Nov-1994 08:49:37 GMT",
                          "Sun Nov  6 08:49:37 94",
                          "Sun, 06 Nov 1994 08-49-37 GMT",
                          "Sun, 0x Nov 1994 08:49:37 GMT"}) {
    EXPECT_FALSE(parse_rfc1123(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace trainyard::emu::shared_key_check_test
