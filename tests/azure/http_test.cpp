// HttpClient against an in-process cpp-httplib server on 127.0.0.1, and against the emulator for
// TLS; plus the URL helpers.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <httplib.h>

#include "azure/http.hpp"
#include "emulator_process.hpp"

namespace trainyard::azure::http_test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// gzip of "hello gzip " x 50 (python3 gzip.compress(..., mtime=0)), sent as-is by the server.
const std::string kGzipBody(
    "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\xcb\x48\xcd\xc9\xc9\x57\x48\xaf\xca\x2c\x50\xc8\x18"
    "\x65\x8e\x32\xb1\x33\x01\xcb\x18\x6b\x87\x26\x02\x00\x00",
    37);

std::string repeat(std::string_view piece, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += piece;
  return out;
}

std::string nodes_json() {
  return "[" + repeat("{\"id\":\"node-0001\",\"state\":\"idle\"},", 500) + "{}]";
}

long elapsed_ms(Clock::time_point since) {
  return static_cast<long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count());
}

// What the server saw, written by handler threads and read by the test.
class Seen {
 public:
  void set(const std::string& key, std::string value) {
    std::lock_guard lock(mu_);
    values_[key] = std::move(value);
  }
  std::string get(const std::string& key) const {
    std::lock_guard lock(mu_);
    auto it = values_.find(key);
    return it == values_.end() ? "<absent>" : it->second;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::string> values_;
};

std::string header_or_absent(const httplib::Request& req, const char* name) {
  return req.has_header(name) ? req.get_header_value(name) : "<absent>";
}

// A port that refuses connections: bound (so nothing else takes it) but not listening.
class RefusingPort {
 public:
  RefusingPort() : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    auto* sa = reinterpret_cast<sockaddr*>(&addr);
    if (::bind(fd_, sa, len) == 0 && ::getsockname(fd_, sa, &len) == 0)
      port_ = ntohs(addr.sin_port);
  }
  ~RefusingPort() { ::close(fd_); }
  RefusingPort(const RefusingPort&) = delete;
  RefusingPort& operator=(const RefusingPort&) = delete;
  int port() const { return port_; }

 private:
  int fd_;
  int port_ = 0;
};

class HttpClientTest : public ::testing::Test {
 protected:
  // Routes are all registered before the server starts: httplib's tables are not thread-safe.
  void SetUp() override {
    server_.set_keep_alive_max_count(100);
    // httplib writes headers and body apart; with Nagle on, each reused-connection response would
    // wait ~40 ms for the client's delayed ACK.
    server_.set_tcp_nodelay(true);
    add_recording_routes();
    add_fixed_routes();
    add_echo_routes();
    port_ = server_.bind_to_any_port("127.0.0.1");
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (auto until = Clock::now() + 5s; !server_.is_running() && Clock::now() < until;) {
      std::this_thread::sleep_for(1ms);
    }
    ASSERT_TRUE(server_.is_running());
  }

  void TearDown() override {
    stopping_ = true;
    server_.stop();
    if (thread_.joinable()) thread_.join();
  }

  void add_recording_routes() {
    server_.Get("/hello", [this](const httplib::Request& req, httplib::Response& res) {
      seen_.set("x-ms-test", header_or_absent(req, "x-ms-test"));
      seen_.set("accept-encoding", header_or_absent(req, "Accept-Encoding"));
      seen_.set("expect", header_or_absent(req, "Expect"));
      res.set_header("X-Ms-Request-Id", "abc");
      res.set_header("x-multi", "1");
      res.set_header("x-multi", "2");
      res.set_content("hi", "application/octet-stream");
    });
    server_.Post("/echo", [this](const httplib::Request& req, httplib::Response& res) {
      seen_.set("content-type", header_or_absent(req, "Content-Type"));
      seen_.set("expect", header_or_absent(req, "Expect"));
      res.status = 201;
      res.set_content(req.body, "application/octet-stream");
    });
    server_.Post("/empty", [this](const httplib::Request& req, httplib::Response& res) {
      seen_.set("content-type", header_or_absent(req, "Content-Type"));
      seen_.set("content-length", header_or_absent(req, "Content-Length"));
      res.status = 204;
    });
  }

  void add_fixed_routes() {
    server_.Get("/file", [](const httplib::Request&, httplib::Response& res) {
      res.set_header("ocp-batch-file-isdirectory", "False");
      res.set_content("0123456789", "application/octet-stream");
    });
    server_.Get("/gz", [](const httplib::Request&, httplib::Response& res) {
      res.set_header("Content-Encoding", "gzip");
      res.set_content(kGzipBody, "application/octet-stream");
    });
    server_.Get("/json", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(nodes_json(), "application/json");  // httplib compresses JSON itself
    });
    server_.Get("/busy", [](const httplib::Request&, httplib::Response& res) {
      res.status = 503;
      res.set_header("Retry-After", "2");
      res.set_content(R"({"code":"ServerBusy"})", "application/octet-stream");
    });
    // A misbehaving server: an endless body, and a wall of headers.
    server_.Get("/endless", [this](const httplib::Request&, httplib::Response& res) {
      res.set_chunked_content_provider("application/json", [this](size_t, httplib::DataSink& sink) {
        static const std::string block(1 << 20, ' ');
        return !stopping_ && sink.write(block.data(), block.size());
      });
    });
    server_.Get("/many-headers", [](const httplib::Request&, httplib::Response& res) {
      for (int i = 0; i < 3000; ++i)
        res.set_header("x-filler-" + std::to_string(i), std::string(1000, 'h'));
      res.set_content("ok", "application/octet-stream");
    });
    server_.Get("/fast", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("ok", "application/octet-stream");
    });
    server_.Get("/slow", [this](const httplib::Request&, httplib::Response& res) {
      // Outlasts every client timeout here, but lets TearDown stop the server promptly.
      for (auto until = Clock::now() + 10s; !stopping_ && Clock::now() < until;) {
        std::this_thread::sleep_for(10ms);
      }
      res.set_content("late", "application/octet-stream");
    });
  }

  void add_echo_routes() {
    auto echo = [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(req.method + ":" + req.body, "application/octet-stream");
    };
    server_.Patch("/e", echo);
    server_.Put("/e", echo);
    server_.Delete("/e", echo);
    auto port = [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(std::to_string(req.remote_port), "application/octet-stream");
    };
    server_.Get("/port", port);
    server_.Post("/port", port);
  }

  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

  HttpRequest request(std::string method, const std::string& path, std::string body = {}) const {
    HttpRequest req;
    req.method = std::move(method);
    req.url = url(path);
    req.body = std::move(body);
    req.timeout = 5s;
    return req;
  }

  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  Seen seen_;
};

TEST_F(HttpClientTest, GetSendsHeadersAndReturnsStatusHeadersAndBody) {
  HttpClient client;
  HttpRequest req = request("GET", "/hello");
  req.headers = {{"x-ms-test", "yes"}};
  auto resp = client.send(req);
  ASSERT_TRUE(resp.ok()) << resp.error().message;
  EXPECT_EQ(resp->status, 200);
  EXPECT_EQ(resp->body, "hi");
  EXPECT_EQ(resp->header("x-ms-request-id"), "abc");
  int multi = 0;
  for (const auto& [name, value] : resp->headers) {
    if (name == "X-Ms-Request-Id") {
      EXPECT_EQ(value, "abc");  // the name as sent
    }
    if (name == "x-multi") {
      EXPECT_EQ(value, std::to_string(++multi));
    }
  }
  EXPECT_EQ(multi, 2);
  EXPECT_EQ(seen_.get("x-ms-test"), "yes");
  EXPECT_NE(seen_.get("accept-encoding").find("gzip"), std::string::npos);
  EXPECT_EQ(seen_.get("expect"), "<absent>");
}

TEST_F(HttpClientTest, PostSendsLargeBodyWithoutExpectContinue) {
  HttpClient client;
  // Large enough that curl 7.x would otherwise send `Expect: 100-continue`.
  HttpRequest req = request("POST", "/echo", repeat("{\"id\":\"task\"}", 20000));
  req.headers = {{"Content-Type", "application/json; odata=minimalmetadata"}};
  auto resp = client.send(req);
  ASSERT_TRUE(resp.ok()) << resp.error().message;
  EXPECT_EQ(resp->status, 201);
  EXPECT_EQ(resp->body, req.body);
  EXPECT_EQ(seen_.get("content-type"), "application/json; odata=minimalmetadata");
  EXPECT_EQ(seen_.get("expect"), "<absent>");
}

TEST_F(HttpClientTest, EmptyPostHasZeroLengthAndNoFormContentType) {
  HttpClient client;
  auto resp = client.send(request("POST", "/empty"));
  ASSERT_TRUE(resp.ok()) << resp.error().message;
  EXPECT_EQ(resp->status, 204);
  EXPECT_EQ(seen_.get("content-type"), "<absent>");
  EXPECT_EQ(seen_.get("content-length"), "0");
}

TEST_F(HttpClientTest, HeadReturnsHeadersWithoutBody) {
  HttpClient client;
  auto resp = client.send(request("HEAD", "/file"));
  ASSERT_TRUE(resp.ok()) << resp.error().message;
  EXPECT_EQ(resp->status, 200);
  EXPECT_EQ(resp->header("ocp-batch-file-isdirectory"), "False");
  EXPECT_EQ(resp->header("content-length"), "10");
  EXPECT_EQ(resp->body, "");
}

TEST_F(HttpClientTest, PatchPutAndDeleteSendMethodAndBody) {
  HttpClient client;
  for (const char* method : {"PATCH", "PUT", "DELETE"}) {
    auto resp = client.send(request(method, "/e", "{\"x\":1}"));
    ASSERT_TRUE(resp.ok()) << method << ": " << resp.error().message;
    EXPECT_EQ(resp->status, 200);
    EXPECT_EQ(resp->body, std::string(method) + ":{\"x\":1}");
  }
  auto plain_delete = client.send(request("DELETE", "/e"));
  ASSERT_TRUE(plain_delete.ok()) << plain_delete.error().message;
  EXPECT_EQ(plain_delete->body, "DELETE:");
}

TEST_F(HttpClientTest, GzipResponseIsDecodedAndCounted) {
  HttpClient client;
  uint64_t before = client.bytes_received();
  auto resp = client.send(request("GET", "/gz"));
  ASSERT_TRUE(resp.ok()) << resp.error().message;
  EXPECT_EQ(resp->body, repeat("hello gzip ", 50));
  EXPECT_EQ(client.bytes_received() - before, 550u);
}

TEST_F(HttpClientTest, ServerCompressedJsonIsDecoded) {
  std::string json = nodes_json();
  HttpClient client;
  auto resp = client.send(request("GET", "/json"));
  ASSERT_TRUE(resp.ok()) << resp.error().message;
  EXPECT_FALSE(resp->header("Content-Encoding").empty());  // the server did compress
  EXPECT_EQ(resp->body, json);
}

TEST_F(HttpClientTest, ReusesOneConnectionAcrossRequests) {
  HttpClient client;
  std::string first;
  for (const char* method : {"GET", "POST", "GET", "HEAD", "GET"}) {
    auto resp = client.send(request(method, "/port"));
    ASSERT_TRUE(resp.ok()) << resp.error().message;
    if (std::string(method) == "HEAD") continue;
    if (first.empty()) first = resp->body;
    EXPECT_EQ(resp->body, first) << method << " came on a new connection";
  }
}

TEST_F(HttpClientTest, ServiceUnavailableIsAResponse) {
  HttpClient client;
  auto resp = client.send(request("GET", "/busy"));
  ASSERT_TRUE(resp.ok()) << resp.error().message;
  EXPECT_EQ(resp->status, 503);
  EXPECT_EQ(resp->header("retry-after"), "2");
  EXPECT_EQ(resp->body, R"({"code":"ServerBusy"})");
}

TEST_F(HttpClientTest, RefusedPortIsNetworkErrorNamingHost) {
  RefusingPort refusing;
  ASSERT_GT(refusing.port(), 0);
  HttpClient client;
  HttpRequest req;
  req.url = "http://127.0.0.1:" + std::to_string(refusing.port()) + "/pools";
  auto resp = client.send(req);
  ASSERT_FALSE(resp.ok());
  EXPECT_EQ(resp.error().kind, ErrorKind::Network);
  EXPECT_NE(resp.error().message.find("127.0.0.1:" + std::to_string(refusing.port())),
            std::string::npos)
      << resp.error().message;
}

TEST_F(HttpClientTest, SlowResponseTimesOut) {
  HttpClient client;
  HttpRequest req = request("GET", "/slow");
  req.timeout = 300ms;
  auto start = Clock::now();
  auto resp = client.send(req);
  ASSERT_FALSE(resp.ok());
  EXPECT_EQ(resp.error().kind, ErrorKind::Network);
  EXPECT_NE(resp.error().message.find("127.0.0.1"), std::string::npos) << resp.error().message;
  EXPECT_LT(elapsed_ms(start), 2000);
}

TEST_F(HttpClientTest, OversizedResponsesAreRefusedNotBuffered) {
  HttpClient client;
  HttpRequest req = request("GET", "/endless");
  req.timeout = 20s;
  req.max_response_bytes = 8 << 20;
  auto resp = client.send(req);
  ASSERT_FALSE(resp.ok());
  EXPECT_EQ(resp.error().kind, ErrorKind::Parse);
  EXPECT_NE(resp.error().message.find("over 8 MiB"), std::string::npos) << resp.error().message;
  auto headers = client.send(request("GET", "/many-headers"));
  ASSERT_FALSE(headers.ok());
  EXPECT_NE(headers.error().message.find("headers"), std::string::npos) << headers.error().message;
  auto after = client.send(request("GET", "/fast"));
  ASSERT_TRUE(after.ok()) << "the client is usable afterwards";
  EXPECT_EQ(after->body, "ok");
}

TEST_F(HttpClientTest, CancelFromAnotherThreadAbortsQuickly) {
  HttpClient client;
  HttpRequest req = request("GET", "/slow");
  req.timeout = 30s;
  Clock::time_point cancelled_at;
  std::thread canceller([&] {
    std::this_thread::sleep_for(300ms);
    cancelled_at = Clock::now();
    client.cancel();
  });
  auto resp = client.send(req);
  auto returned_at = Clock::now();
  canceller.join();
  ASSERT_FALSE(resp.ok());
  EXPECT_EQ(resp.error().kind, ErrorKind::Network);
  EXPECT_NE(resp.error().message.find("cancelled"), std::string::npos) << resp.error().message;
  EXPECT_LT(
      std::chrono::duration_cast<std::chrono::milliseconds>(returned_at - cancelled_at).count(),
      300);
  // Cancelled stays cancelled until reset, then the same client works again.
  EXPECT_FALSE(client.send(request("GET", "/fast")).ok());
  client.reset_cancel();
  auto again = client.send(request("GET", "/fast"));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->body, "ok");
}

TEST_F(HttpClientTest, ErrorsCarryNoSecrets) {
  RefusingPort refusing;
  HttpClient client;
  HttpRequest req;
  req.url = "http://127.0.0.1:" + std::to_string(refusing.port()) + "/x?sv=2024&sig=SECRET";
  req.headers = {{"Authorization", "SharedKey acct:KEYSECRET"}};
  auto refused = client.send(req);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message.find("SECRET"), std::string::npos) << refused.error().message;

  HttpRequest slow = request("GET", "/slow?sig=SECRET");
  slow.headers = {{"Authorization", "SharedKey acct:KEYSECRET"}};
  slow.timeout = 200ms;
  auto timed_out = client.send(slow);
  ASSERT_FALSE(timed_out.ok());
  EXPECT_EQ(timed_out.error().message.find("SECRET"), std::string::npos)
      << timed_out.error().message;

  auto refused_url = check_url_allowed("http://example.com/c?sv=1&sig=SECRET");
  ASSERT_FALSE(refused_url.ok());
  EXPECT_EQ(refused_url.error().message.find("SECRET"), std::string::npos);
}

TEST_F(HttpClientTest, HeaderInjectionIsRefused) {
  HttpClient client;
  HttpRequest req = request("GET", "/slow");
  req.headers = {{"x-ms-test", "a\r\nAuthorization: forged"}};
  auto resp = client.send(req);
  ASSERT_FALSE(resp.ok());
  EXPECT_EQ(resp.error().kind, ErrorKind::Usage);
  req.headers = {};
  req.method = "GET /x HTTP/1.1\r\n";
  EXPECT_FALSE(client.send(req).ok());
}

TEST(HttpTlsTest, VerifiesTheEmulatorCertificateOnlyWithItsCa) {
  azuretest::EmulatorProcess emulator({"--tls"});
  ASSERT_EQ(emulator.endpoint().rfind("https://", 0), 0u) << emulator.endpoint();
  ASSERT_FALSE(emulator.ca_file().empty());
  HttpRequest req;
  req.url = emulator.endpoint() + "/pools?api-version=2025-06-01.20.0";
  req.timeout = 10s;

  HttpClient trusting(TlsOptions{emulator.ca_file()});
  auto resp = trusting.send(req);
  ASSERT_TRUE(resp.ok()) << resp.error().message;
  EXPECT_GE(resp->status, 200);  // unsigned, so likely 401/403: any status proves the handshake

  HttpClient strict;
  auto refused = strict.send(req);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::Network);
  EXPECT_NE(refused.error().message.find("certificate"), std::string::npos)
      << refused.error().message;
}

TEST(HttpUrlTest, HttpsIsAlwaysAllowed) {
  EXPECT_TRUE(check_url_allowed("https://acct.westeurope.batch.azure.com").ok());
  EXPECT_TRUE(check_url_allowed("https://acct.westeurope.batch.azure.com/pools?x=1").ok());
  EXPECT_TRUE(check_url_allowed("HTTPS://Example.COM:8443/").ok());
}

TEST(HttpUrlTest, PlainHttpOnlyOnLoopback) {
  for (const char* ok :
       {"http://127.0.0.1:8080/", "http://127.1.2.3/", "http://127.1/", "http://2130706433/",
        "http://0x7f.0.0.1/", "http://localhost:10000", "http://LOCALHOST/",
        "http://[::1]:8080/pools", "http://[0:0::1]/", "http://[::ffff:127.0.0.1]/"}) {
    EXPECT_TRUE(check_url_allowed(ok).ok()) << ok;
  }
  for (const char* bad :
       {"http://example.com", "http://128.0.0.1/", "http://10.0.0.1/", "http://[::2]/",
        "http://127.0.0.1.nip.io/", "http://localhost.evil.com/", "http://evil.com#@127.0.0.1",
        "http://127.0.0.1@evil.com/", "http://127.0.0.1\\@evil.com/", "http://169.254.169.254/"}) {
    auto r = check_url_allowed(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().kind, ErrorKind::Usage) << bad;
  }
  auto r = check_url_allowed("http://example.com");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "http://example.com: plain http is allowed only on loopback; use https");
}

TEST(HttpUrlTest, RejectsOtherSchemesAndUrlsWithoutHost) {
  for (const char* bad : {"", "example.com", "acct.batch.azure.com/pools", "https://", "http:///x",
                          "ftp://127.0.0.1/", "file:///etc/passwd", "https://host:99999/"}) {
    auto r = check_url_allowed(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().kind, ErrorKind::Usage) << bad;
  }
  auto r = check_url_allowed("ftp://files.example.com/x");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("ftp://files.example.com/x"), std::string::npos);
}

TEST(HttpUrlTest, UrlEncodeKeepsOnlyUnreserved) {
  EXPECT_EQ(url_encode("AZaz09-._~"), "AZaz09-._~");
  EXPECT_EQ(url_encode("a b/c?d=e&f+g%"), "a%20b%2Fc%3Fd%3De%26f%2Bg%25");
  EXPECT_EQ(url_encode("state eq 'idle'"), "state%20eq%20%27idle%27");
  EXPECT_EQ(url_encode("\xc3\xa9"), "%C3%A9");
  EXPECT_EQ(url_encode(""), "");
}

TEST(HttpUrlTest, FindHeaderIsCaseInsensitiveAndTakesTheFirst) {
  Headers h{{"Content-Type", "application/json"}, {"x-multi", "1"}, {"X-Multi", "2"}};
  EXPECT_EQ(find_header(h, "content-type"), "application/json");
  EXPECT_EQ(find_header(h, "X-MULTI"), "1");
  EXPECT_EQ(find_header(h, "missing"), "");
  HttpResponse resp;
  resp.headers = h;
  EXPECT_EQ(resp.header("CONTENT-TYPE"), "application/json");
}

TEST(HttpUrlTest, RedactUrlDropsQueryFragmentAndUserInfo) {
  EXPECT_EQ(redact_url("https://a.b.c/pools?api-version=1&sig=SECRET"), "https://a.b.c/pools");
  EXPECT_EQ(redact_url("https://user:pw@a.b.c:443/x#frag"), "https://a.b.c:443/x");
  EXPECT_EQ(redact_url("https://a.b.c"), "https://a.b.c");
  EXPECT_EQ(url_host("https://a.b.c:8443/x?sig=1"), "a.b.c:8443");
  EXPECT_EQ(url_host("https://u:p@a.b.c/x"), "a.b.c");
  EXPECT_EQ(url_host("http://[::1]:80/"), "[::1]:80");
}

}  // namespace
}  // namespace trainyard::azure::http_test
