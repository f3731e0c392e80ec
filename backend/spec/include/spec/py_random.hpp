// A bit-exact port of CPython's `random` module (MT19937 plus the Lib/random.py algorithms of
// Python 3.11), so that a Batch Shipyard `random` task factory with a `seed` yields exactly the
// values Shipyard produced.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "core/result.hpp"

namespace trainyard::spec {

/// Python's `random.Random`: same seeding, same stream, same distributions.
///
/// Distribution preconditions are Python's (e.g. gammavariate needs alpha > 0 and beta > 0);
/// callers validate parameters first, as these methods do not report errors.
class PyRandom {
 public:
  /// Seeded from std::random_device, as an unseeded Python process is.
  PyRandom();
  /// `random.seed(n)` for an int `n` (the sign is dropped, as Python does).
  void seed(int64_t n);

  /// One raw MT19937 output (`genrand_uint32`).
  uint32_t next_u32();
  /// `getrandbits(k)` for 0 <= k <= 64.
  uint64_t getrandbits(int k);
  /// `random()`: a float in [0, 1) made of 53 bits from two draws.
  double random();
  /// `randrange(start, stop, step)`; a Usage error where Python raises ValueError.
  Result<int64_t> randrange(int64_t start, int64_t stop, int64_t step);

  /// `uniform(a, b)`.
  double uniform(double a, double b);
  /// `triangular(low, high, mode)`; no mode means the midpoint.
  double triangular(double low, double high, std::optional<double> mode);
  /// `normalvariate(mu, sigma)` (Kinderman-Monahan).
  double normalvariate(double mu, double sigma);
  /// `gauss(mu, sigma)`: Box-Muller with the second value cached until the next seed.
  double gauss(double mu, double sigma);
  /// `lognormvariate(mu, sigma)` = exp(normalvariate(mu, sigma)).
  double lognormvariate(double mu, double sigma);
  /// `expovariate(lambd)`; lambd != 0.
  double expovariate(double lambd);
  /// `gammavariate(alpha, beta)`; alpha > 0, beta > 0.
  double gammavariate(double alpha, double beta);
  /// `betavariate(alpha, beta)`; alpha > 0, beta > 0.
  double betavariate(double alpha, double beta);
  /// `paretovariate(alpha)`; alpha != 0.
  double paretovariate(double alpha);
  /// `weibullvariate(alpha, beta)`; beta != 0.
  double weibullvariate(double alpha, double beta);

 private:
  static constexpr int kN = 624;
  void init_genrand(uint32_t s);
  void twist();
  uint64_t randbelow(uint64_t n);
  double gamma_cheng(double alpha);
  double gamma_small(double alpha);

  std::array<uint32_t, kN> mt_{};
  int index_ = kN;
  std::optional<double> gauss_next_;
};

}  // namespace trainyard::spec
