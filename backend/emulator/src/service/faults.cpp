#include "faults.hpp"

#include <charconv>

#include <fmt/format.h>

namespace trainyard::emu {

namespace {

Result<double> parse_rate(std::string_view name, std::string_view text) {
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < 0 || v > 1) {
    return make_error(ErrorKind::Usage,
                      fmt::format("--faults: '{}={}' needs a rate from 0 to 1", name, text));
  }
  return v;
}

Result<int64_t> parse_count(std::string_view name, std::string_view text) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < 0) {
    return make_error(ErrorKind::Usage,
                      fmt::format("--faults: '{}={}' needs a whole number", name, text));
  }
  return v;
}

Result<void> apply(FaultRates& r, std::string_view name, std::string_view value) {
  auto rate = [&](double& field) -> Result<void> {
    auto v = parse_rate(name, value);
    if (!v) return v.error();
    field = *v;
    return {};
  };
  if (name == "429") return rate(r.throttle);
  if (name == "503") return rate(r.busy);
  if (name == "500") return rate(r.internal);
  if (name == "reset") return rate(r.reset);
  if (name == "truncate") return rate(r.truncate);
  auto n = parse_count(name, value);
  if (!n) return n.error();
  if (name == "latency")
    r.latency_ms = static_cast<int>(*n);
  else if (name == "retry-after")
    r.retry_after_s = static_cast<int>(*n);
  else if (name == "seed")
    r.seed = static_cast<uint64_t>(*n);
  else
    return make_error(ErrorKind::Usage,
                      fmt::format("--faults: unknown fault '{}' (known: 429, 503, 500, reset, "
                                  "truncate, latency, retry-after, seed)",
                                  name));
  return {};
}

}  // namespace

Result<FaultRates> parse_faults(std::string_view spec) {
  FaultRates r;
  size_t pos = 0;
  while (pos < spec.size()) {
    size_t comma = spec.find(',', pos);
    if (comma == std::string_view::npos) comma = spec.size();
    auto item = spec.substr(pos, comma - pos);
    auto eq = item.find('=');
    if (eq == std::string_view::npos) {
      return make_error(ErrorKind::Usage, fmt::format("--faults: '{}' is not NAME=VALUE", item));
    }
    if (auto ok = apply(r, item.substr(0, eq), item.substr(eq + 1)); !ok) return ok.error();
    pos = comma + 1;
  }
  if (r.throttle + r.busy + r.internal + r.reset + r.truncate > 1.0) {
    return make_error(ErrorKind::Usage, "--faults: the rates add up to more than 1");
  }
  return r;
}

void Faults::set(const FaultRates& r) {
  std::lock_guard lock(mu_);
  rates_ = r;
  rng_.seed(r.seed ? r.seed : std::random_device{}());
}

FaultRates Faults::rates() const {
  std::lock_guard lock(mu_);
  return rates_;
}

Fault Faults::draw() {
  std::lock_guard lock(mu_);
  double x = std::uniform_real_distribution<double>(0, 1)(rng_);
  const std::pair<double, Fault> order[] = {{rates_.throttle, Fault::Throttle},
                                            {rates_.busy, Fault::Busy},
                                            {rates_.internal, Fault::Internal},
                                            {rates_.reset, Fault::Reset},
                                            {rates_.truncate, Fault::Truncate}};
  for (const auto& [rate, fault] : order) {
    if (x < rate) return fault;
    x -= rate;
  }
  return Fault::None;
}

void Faults::count(const std::string& method, std::string_view path, int status, size_t bytes) {
  std::lock_guard lock(mu_);
  auto bump = [&](nlohmann::json& c) {
    if (!c.contains("requests"))
      c = {{"requests", 0}, {"bytes", uint64_t{0}}, {"statuses", nlohmann::json::object()}};
    c["requests"] = c["requests"].get<int64_t>() + 1;
    c["bytes"] = c["bytes"].get<uint64_t>() + bytes;
    auto& s = c["statuses"][std::to_string(status)];
    s = s.is_null() ? 1 : s.get<int64_t>() + 1;
  };
  bump(counters_);
  bump(counters_["paths"][method + " " + path_pattern(path)]);
}

nlohmann::json Faults::counters() const {
  std::lock_guard lock(mu_);
  return counters_;
}

void Faults::reset_counters() {
  std::lock_guard lock(mu_);
  counters_ = nlohmann::json::object();
}

std::string path_pattern(std::string_view path) {
  // Collection names stay; the segment after one is an id (after `files`, the rest of the path).
  static const char* const kCollections[] = {"pools", "nodes",        "jobs",
                                             "tasks", "jobschedules", "files"};
  std::string out;
  bool id_next = false;
  bool file_next = false;
  size_t pos = 1;
  while (pos <= path.size()) {
    size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) slash = path.size();
    auto seg = path.substr(pos, slash - pos);
    if (id_next) {
      out += "/{}";
      if (file_next) break;
      id_next = false;
    } else {
      out += "/" + std::string(seg);
      for (const char* c : kCollections) id_next = id_next || seg == c;
      file_next = seg == "files";
    }
    pos = slash + 1;
  }
  return out.empty() ? "/" : out;
}

}  // namespace trainyard::emu
