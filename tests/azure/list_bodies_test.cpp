// Paged lists fetched body by body: the next page is asked for while a page is parsed, from the
// link at the end of its body, and a parse that finds another link is followed instead.
#include <gtest/gtest.h>
#include <httplib.h>

#include <map>
#include <mutex>
#include <vector>

#include <nlohmann/json.hpp>

#include "azure/task_page.hpp"
#include "loopback_batch_server.hpp"

namespace trainyard::azure::list_bodies_test {
namespace {

/// Serves /p1, /p2, /p3 and /wrong with fixed bodies and records the paths asked for.
class Pages {
 public:
  std::string endpoint() const { return server_.endpoint(); }
  void serve(const std::string& path, std::string body) {
    std::lock_guard<std::mutex> g(mu_);
    bodies_[path] = std::move(body);
  }
  std::vector<std::string> asked() {
    std::lock_guard<std::mutex> g(mu_);
    return asked_;
  }
  /// Lists from /p1, each body's top-level "odata.nextLink" taken as a parse would.
  std::vector<std::string> list() {
    std::vector<std::string> ids;
    auto r = list_bodies(*server_.client, "/p1", {}, [&](std::string& body) -> Result<std::string> {
      auto page = nlohmann::json::parse(body);
      ids.push_back(page.value("id", ""));
      return page.value("odata.nextLink", "");
    });
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    return ids;
  }

 private:
  void answer(const httplib::Request& req, httplib::Response& res) {
    std::lock_guard<std::mutex> g(mu_);
    asked_.push_back(req.path);
    auto it = bodies_.find(req.path);
    res.status = it == bodies_.end() ? 404 : 200;
    res.set_content(it == bodies_.end() ? "{}" : it->second, "application/json");
  }

  std::mutex mu_;  // the members the server's handler uses come before it
  std::map<std::string, std::string> bodies_;
  std::vector<std::string> asked_;
  azuretest::LoopbackBatchServer server_{[this](httplib::Server& s) {
    s.Get(".*", [this](const httplib::Request& req, httplib::Response& res) { answer(req, res); });
  }};
};

std::string page(const std::string& id, const std::string& next) {
  nlohmann::json j{{"id", id}, {"value", nlohmann::json::array()}};
  if (!next.empty()) j["odata.nextLink"] = next;
  return j.dump();
}

TEST(ListBodies, EachPageIsAskedForOnceInOrder) {
  Pages p;
  p.serve("/p1", page("1", p.endpoint() + "/p2?$skiptoken=a%2Fb"));
  p.serve("/p2", page("2", p.endpoint() + "/p3"));
  p.serve("/p3", page("3", ""));
  EXPECT_EQ(p.list(), (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(p.asked(), (std::vector<std::string>{"/p1", "/p2", "/p3"}));
}

// The link read off the end of page 1 is a task's own member ("extra" holds one): the page's
// parse finds /p2, so the early answer for /wrong is dropped and /p2 is asked for.
TEST(ListBodies, AGuessThatTheParseContradictsIsDropped) {
  Pages p;
  nlohmann::json first{
      {"odata.nextLink", p.endpoint() + "/p2"},
      {"id", "1"},
      {"value", {{{"id", "t"}, {"extra", {{"odata.nextLink", p.endpoint() + "/wrong"}}}}}}};
  // nlohmann sorts keys: "value" (holding the misleading member) comes last in the body.
  p.serve("/p1", first.dump());
  p.serve("/p2", page("2", ""));
  p.serve("/wrong", page("wrong", ""));
  EXPECT_EQ(p.list(), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(p.asked(), (std::vector<std::string>{"/p1", "/wrong", "/p2"}));
}

// A link escaped as JSON may write '/' as "\/": the guess reads it as the parse does.
TEST(ListBodies, AnEscapedLinkIsStillAskedForAhead) {
  Pages p;
  std::string link = p.endpoint() + "/p2";
  std::string escaped;
  for (char c : link) escaped += c == '/' ? std::string("\\/") : std::string(1, c);
  p.serve("/p1", R"({"id":"1","value":[],"odata.nextLink":")" + escaped + "\"}");
  p.serve("/p2", page("2", ""));
  EXPECT_EQ(p.list(), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(p.asked(), (std::vector<std::string>{"/p1", "/p2"}));
}

}  // namespace
}  // namespace trainyard::azure::list_bodies_test
