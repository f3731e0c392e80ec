// Fault injection and request counters: `--faults` and the control endpoint.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace trainyard::emu {

/// Rates (0..1) of each fault, and added latency.
struct FaultRates {
  double throttle = 0;  ///< 429 TooManyRequests with Retry-After
  double busy = 0;      ///< 503 ServerBusy with Retry-After
  double internal = 0;  ///< 500 InternalError
  double reset = 0;     ///< connection closed without an answer
  double truncate = 0;  ///< body cut short of its Content-Length
  int latency_ms = 0;   ///< added to every answer
  int retry_after_s = 1;
  uint64_t seed = 0;  ///< 0: random
};

/// Parses `429=0.1,503=0.05,500=0.02,reset=0.01,truncate=0.01,latency=50,retry-after=2,seed=7`.
Result<FaultRates> parse_faults(std::string_view spec);

/// What to do to one request.
enum class Fault { None, Throttle, Busy, Internal, Reset, Truncate };

/// Thread-safe fault dice and counters.
class Faults {
 public:
  void set(const FaultRates& r);
  FaultRates rates() const;
  /// Draws the fault for one request.
  Fault draw();
  /// Counts one answered request.
  void count(const std::string& method, std::string_view path, int status, size_t bytes);
  /// `{requests, bytes, statuses:{…}, paths:{"GET /pools":{requests,bytes,statuses}}}`.
  nlohmann::json counters() const;
  void reset_counters();

 private:
  mutable std::mutex mu_;
  FaultRates rates_;
  std::mt19937_64 rng_{0};
  nlohmann::json counters_ = nlohmann::json::object();
};

/// The path with ids replaced by `{}`, so counters group by operation: `/jobs/{}/tasks`.
std::string path_pattern(std::string_view path);

}  // namespace trainyard::emu
