// Batch actions on pools and nodes, single-entity reads, and how every action is sent.
#include "azure/batch_actions.hpp"

#include <strings.h>

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "batch_actions_internal.hpp"

namespace trainyard::azure {

using nlohmann::json;

namespace detail {

std::string error_code(const Error& e) {
  auto colon = e.message.find(": ");
  if (colon == std::string::npos || colon == 0) return "";
  std::string code = e.message.substr(0, colon);
  bool word =
      std::all_of(code.begin(), code.end(), [](unsigned char c) { return std::isalnum(c); });
  return word ? code : "";
}

std::string path(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (auto p : parts) out += "/" + url_encode(p);
  return out;
}

Result<HttpResponse> send_action(BatchClient& client, const Action& a) {
  const auto retries_before = client.stats().retries;
  auto r = client.call(a.method, a.path, a.query, a.body.is_null() ? "" : a.body.dump(), {},
                       a.idempotent);
  if (r || client.stats().retries == retries_before) return r;
  const std::string code = error_code(r.error());
  for (auto landed : a.landed) {
    if (code == landed) return HttpResponse{};
  }
  return r;
}

}  // namespace detail

using detail::Action;
using detail::done;
using detail::path;
using detail::send_action;

namespace {

template <typename E, std::size_t N>
Result<E> parse_choice(const std::string& text, const char* what,
                       const std::pair<const char*, E> (&choices)[N]) {
  std::string names;
  for (const auto& [name, value] : choices) {
    if (::strcasecmp(text.c_str(), name) == 0) return value;
    names += names.empty() ? name : std::string(", ") + name;
  }
  return make_error(ErrorKind::Usage,
                    fmt::format("unknown {} '{}' (one of: {})", what, text, names));
}

constexpr std::pair<const char*, NodeTaskOption> kNodeOptions[] = {
    {"requeue", NodeTaskOption::Requeue},
    {"terminate", NodeTaskOption::Terminate},
    {"taskcompletion", NodeTaskOption::TaskCompletion},
    {"retaineddata", NodeTaskOption::RetainedData}};

constexpr std::pair<const char*, DisableJobOption> kJobOptions[] = {
    {"requeue", DisableJobOption::Requeue},
    {"terminate", DisableJobOption::Terminate},
    {"wait", DisableJobOption::Wait}};

}  // namespace

const char* wire_name(NodeTaskOption o) {
  for (const auto& [name, value] : kNodeOptions) {
    if (value == o) return name;
  }
  return "requeue";
}

const char* wire_name(DisableJobOption o) {
  for (const auto& [name, value] : kJobOptions) {
    if (value == o) return name;
  }
  return "requeue";
}

Result<NodeTaskOption> parse_node_task_option(const std::string& text) {
  return parse_choice(text, "node option", kNodeOptions);
}

Result<DisableJobOption> parse_disable_job_option(const std::string& text) {
  return parse_choice(text, "disable option", kJobOptions);
}

// ---- Single-entity reads ----

Result<Pool> get_pool(BatchClient& client, const std::string& pool) {
  return detail::read_body<Pool>(client.call("GET", path({"pools", pool})), [&](const json& j) {
    return parse_pool(j, client.options().account);
  });
}

Result<Node> get_node(BatchClient& client, const std::string& pool, const std::string& node) {
  auto r = client.call("GET", path({"pools", pool, "nodes", node}));
  return detail::read_body<Node>(
      r, [&](const json& j) { return parse_node(j, client.options().account, pool); });
}

Result<Job> get_job(BatchClient& client, const std::string& job) {
  return detail::read_body<Job>(client.call("GET", path({"jobs", job})), [&](const json& j) {
    return parse_job(j, client.options().account);
  });
}

Result<Task> get_task(BatchClient& client, const std::string& job, const std::string& task) {
  auto r = client.call("GET", path({"jobs", job, "tasks", task}));
  return detail::read_body<Task>(
      r, [&](const json& j) { return parse_task(j, client.options().account, job); });
}

Result<std::vector<Subtask>> list_subtasks(BatchClient& client, const std::string& job,
                                           const std::string& task) {
  auto r = client.call("GET", path({"jobs", job, "tasks", task, "subtasksinfo"}));
  return detail::read_body<std::vector<Subtask>>(
      r, [&](const json& j) -> Result<std::vector<Subtask>> {
        if (!j.is_object() || !j.contains("value") || !j["value"].is_array())
          return make_error(ErrorKind::Parse, "subtasksinfo: expected {\"value\": [...]}");
        std::vector<Subtask> out;
        for (size_t i = 0; i < j["value"].size(); ++i) {
          auto s = parse_subtask(j["value"][i]);
          if (!s)
            return make_error(ErrorKind::Parse,
                              fmt::format("subtasksinfo: value[{}]: {}", i, s.error().message));
          out.push_back(std::move(*s));
        }
        return out;
      });
}

// ---- Pools ----

Result<void> create_pool(BatchClient& client, const json& body) {
  if (!body.is_object() || !body.contains("id") || !body["id"].is_string())
    return make_error(ErrorKind::Usage, "a pool needs a string \"id\"");
  // A create is not retried where the service may have applied it (BatchClient's rule for
  // non-idempotent POSTs): a lost answer is reported, and a second try says PoolExists.
  return done(send_action(client, Action{"POST", "/pools", body, {}, false}));
}

Result<void> resize_pool(BatchClient& client, const std::string& pool, std::optional<int> dedicated,
                         std::optional<int> spot, std::optional<Duration> resize_timeout) {
  if (!dedicated && !spot)
    return make_error(ErrorKind::Usage, "resize needs a dedicated or a Spot target");
  json body = json::object();
  if (dedicated) body["targetDedicatedNodes"] = *dedicated;
  if (spot) body["targetLowPriorityNodes"] = *spot;
  if (resize_timeout) body["resizeTimeout"] = format_iso_duration(*resize_timeout);
  // Safe to retry: the service sets targets (a state transition), it does not add nodes. A
  // re-sent resize that finds the pool already resizing was this one, landed.
  return done(send_action(
      client,
      Action{"POST", path({"pools", pool}) + "/resize", body, {}, true, {"PoolNotSteady"}}));
}

Result<void> stop_resize_pool(BatchClient& client, const std::string& pool) {
  // Safe to retry: stopping a pool that is already stopping or steady changes nothing.
  return done(send_action(client, Action{"POST", path({"pools", pool}) + "/stopresize"}));
}

Result<void> enable_autoscale(BatchClient& client, const std::string& pool,
                              const std::string& formula, std::optional<Duration> interval) {
  json body{{"autoScaleFormula", formula}};
  if (interval) body["autoScaleEvaluationInterval"] = format_iso_duration(*interval);
  // Safe to retry: it stores the formula. The service refuses a second enable within 30 s, so
  // after a retry that refusal is this request's own first attempt, landed.
  return done(send_action(client, Action{"POST",
                                         path({"pools", pool}) + "/enableautoscale",
                                         body,
                                         {},
                                         true,
                                         {"AutoScaleTooManyRequestsToEnable"}}));
}

Result<PoolAutoScale> get_pool_autoscale(BatchClient& client, const std::string& pool) {
  auto r =
      client.call("GET", path({"pools", pool}),
                  {{"$select", "enableAutoScale,autoScaleFormula,autoScaleEvaluationInterval"}});
  return detail::read_body<PoolAutoScale>(r, [](const json& j) -> Result<PoolAutoScale> {
    std::optional<Error> err;
    JsonFields f(j, "", err);
    PoolAutoScale out;
    const json* on = f.member("enableAutoScale");
    out.enabled = on && on->is_boolean() && on->get<bool>();
    f.get("autoScaleFormula", out.formula);
    f.get("autoScaleEvaluationInterval", out.interval);
    if (err) return *err;
    return out;
  });
}

Result<void> disable_autoscale(BatchClient& client, const std::string& pool) {
  // Safe to retry: disabling twice leaves the pool as disabling once does.
  return done(send_action(client, Action{"POST", path({"pools", pool}) + "/disableautoscale"}));
}

std::string AutoScaleEvaluation::text() const {
  std::string out;
  for (std::size_t pos = 0; pos < results.size();) {
    auto semi = std::min(results.find(';', pos), results.size());
    if (semi > pos) out += results.substr(pos, semi - pos) + "\n";
    pos = semi + 1;
  }
  if (!error.empty()) out += "error: " + error + "\n";
  return out;
}

namespace {

// AutoScaleRun.error: {code, message, values[{name,value}]}.
std::string autoscale_error(const JsonFields& e) {
  std::string code, message;
  e.get("code", code);
  const json* m = e.member("message");
  if (m && m->is_object())
    e.child("message").get("value", message);  // a BatchError's {lang, value} form
  else
    e.get("message", message);
  std::vector<NameValue> values;
  e.get("values", values);
  std::string out = message.empty() ? code : code + ": " + message;
  for (const auto& v : values) out += " (" + v.value + ")";
  return out;
}

Result<AutoScaleEvaluation> read_autoscale_run(const json& j) {
  std::optional<Error> err;
  JsonFields f(j, "", err);
  AutoScaleEvaluation out;
  f.get("results", out.results);
  if (f.has("error")) out.error = autoscale_error(f.child("error"));
  if (err) return *err;
  return out;
}

}  // namespace

Result<AutoScaleEvaluation> evaluate_autoscale(BatchClient& client, const std::string& pool,
                                               const std::string& formula) {
  // Evaluating changes nothing, so it is retried like a read.
  auto r = send_action(client, Action{"POST", path({"pools", pool}) + "/evaluateautoscale",
                                      json{{"autoScaleFormula", formula}}});
  return detail::read_body<AutoScaleEvaluation>(r, read_autoscale_run);
}

Result<void> delete_pool(BatchClient& client, const std::string& pool) {
  // DELETE is idempotent; after a retry, a pool already deleting or gone is this delete's.
  return done(send_action(client, Action{"DELETE",
                                         path({"pools", pool}),
                                         nullptr,
                                         {},
                                         true,
                                         {"PoolBeingDeleted", "PoolNotFound"}}));
}

Result<SupportedImage> parse_supported_image(const json& j) try {
  std::optional<Error> err;
  JsonFields f(j, "", err);
  SupportedImage s;
  f.require("nodeAgentSKUId", s.node_agent_sku_id);
  auto ref = f.child("imageReference");
  ref.get("publisher", s.publisher);
  ref.get("offer", s.offer);
  ref.get("sku", s.sku);
  ref.get("version", s.version);
  f.get("osType", s.os_type);
  f.get("verificationType", s.verification_type);
  f.get("capabilities", s.capabilities);
  f.get("batchSupportEndOfLife", s.batch_support_end_of_life);
  if (err) return *err;
  return s;
} catch (const std::exception& e) {
  return make_error(ErrorKind::Parse, fmt::format("unreadable supported image: {}", e.what()));
}

Result<std::vector<SupportedImage>> supported_images(BatchClient& client) {
  std::vector<SupportedImage> out;
  auto ok = client.list("/supportedimages", {}, [&](const ListPage& page) -> Result<void> {
    for (const auto& item : page.items) {
      auto image = parse_supported_image(item);
      if (!image) return image.error();
      out.push_back(std::move(*image));
    }
    return {};
  });
  if (!ok) return ok.error();
  return out;
}

// ---- Nodes ----

namespace {

Result<void> node_action(BatchClient& client, const std::string& pool, const std::string& node,
                         const char* action, json body,
                         std::initializer_list<std::string_view> landed = {}) {
  return done(send_action(client, Action{"POST",
                                         path({"pools", pool, "nodes", node, action}),
                                         std::move(body),
                                         {},
                                         true,
                                         landed}));
}

}  // namespace

Result<void> reboot_node(BatchClient& client, const std::string& pool, const std::string& node,
                         NodeTaskOption option) {
  // Safe to retry: a reboot is a state transition; a re-sent one that finds the node already
  // rebooting (NodeNotReady) was this request's, landed.
  return node_action(client, pool, node, "reboot", json{{"nodeRebootOption", wire_name(option)}},
                     {"NodeNotReady"});
}

Result<void> reimage_node(BatchClient& client, const std::string& pool, const std::string& node,
                          NodeTaskOption option) {
  // As reboot: a re-sent reimage that finds the node reimaging was this one.
  return node_action(client, pool, node, "reimage", json{{"nodeReimageOption", wire_name(option)}},
                     {"NodeNotReady"});
}

Result<void> remove_nodes(BatchClient& client, const std::string& pool,
                          const std::vector<std::string>& nodes, NodeTaskOption option) {
  if (nodes.empty() || nodes.size() > 100)
    return make_error(ErrorKind::Usage,
                      fmt::format("remove 1 to 100 nodes at a time, not {}", nodes.size()));
  json body{{"nodeList", nodes}, {"nodeDeallocationOption", wire_name(option)}};
  // Safe to retry: nodes are named, so a second removal of the same ones removes nothing more;
  // the service then answers PoolNotSteady because the first one is under way.
  return done(send_action(
      client,
      Action{"POST", path({"pools", pool}) + "/removenodes", body, {}, true, {"PoolNotSteady"}}));
}

Result<void> disable_scheduling(BatchClient& client, const std::string& pool,
                                const std::string& node, NodeTaskOption option) {
  if (option == NodeTaskOption::RetainedData)
    return make_error(ErrorKind::Usage,
                      "disable scheduling takes requeue, terminate or taskcompletion");
  // Safe to retry: it sets a flag.
  return node_action(client, pool, node, "disablescheduling",
                     json{{"nodeDisableSchedulingOption", wire_name(option)}});
}

Result<void> enable_scheduling(BatchClient& client, const std::string& pool,
                               const std::string& node) {
  return node_action(client, pool, node, "enablescheduling", nullptr);
}

Result<RemoteLogin> remote_login_settings(BatchClient& client, const std::string& pool,
                                          const std::string& node) {
  auto r = client.call("GET", path({"pools", pool, "nodes", node, "remoteloginsettings"}));
  return detail::read_body<RemoteLogin>(r, [](const json& j) -> Result<RemoteLogin> {
    std::optional<Error> err;
    JsonFields f(j, "", err);
    RemoteLogin out;
    f.require("remoteLoginIPAddress", out.ip);
    f.require("remoteLoginPort", out.port);
    if (err) return *err;
    return out;
  });
}

}  // namespace trainyard::azure
