// Port of CPython's Modules/_randommodule.c (MT19937, init_by_array seeding) and of the
// distributions in Lib/random.py (3.11). Every floating-point step is written in the same order
// as CPython's so that the results are bit-identical with the same libm.
#include "spec/py_random.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

namespace trainyard::spec {
namespace {

// Lib/random.py's module constants, computed the same way.
const double kNvMagic = 4 * std::exp(-0.5) / std::sqrt(2.0);
const double kLog4 = std::log(4.0);
const double kSgMagic = 1.0 + std::log(4.5);
constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kE = std::numbers::e;

// Python's `//` on ints: rounds toward negative infinity.
int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// Python splits abs(seed) into 32-bit words, least significant first; 0 becomes [0].
std::vector<uint32_t> seed_key(int64_t n) {
  uint64_t mag = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  std::vector<uint32_t> key;
  while (mag != 0) {
    key.push_back(static_cast<uint32_t>(mag & 0xffffffffU));
    mag >>= 32;
  }
  if (key.empty()) key.push_back(0);
  return key;
}

}  // namespace

PyRandom::PyRandom() {
  std::random_device rd;
  seed((static_cast<int64_t>(rd()) << 31) ^ static_cast<int64_t>(rd()));
}

void PyRandom::init_genrand(uint32_t s) {
  mt_[0] = s;
  for (int i = 1; i < kN; ++i) {
    uint32_t prev = mt_[i - 1];
    mt_[i] = 1812433253U * (prev ^ (prev >> 30)) + static_cast<uint32_t>(i);
  }
  index_ = kN;
}

void PyRandom::seed(int64_t n) {
  const std::vector<uint32_t> key = seed_key(n);
  const auto len = static_cast<int>(key.size());
  init_genrand(19650218U);
  int i = 1;
  int j = 0;
  for (int k = std::max(kN, len); k > 0; --k) {
    uint32_t prev = mt_[i - 1];
    mt_[i] = (mt_[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + key[j] + static_cast<uint32_t>(j);
    ++i;
    ++j;
    if (i >= kN) {
      mt_[0] = mt_[kN - 1];
      i = 1;
    }
    if (j >= len) j = 0;
  }
  for (int k = kN - 1; k > 0; --k) {
    uint32_t prev = mt_[i - 1];
    mt_[i] = (mt_[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - static_cast<uint32_t>(i);
    ++i;
    if (i >= kN) {
      mt_[0] = mt_[kN - 1];
      i = 1;
    }
  }
  mt_[0] = 0x80000000U;
  index_ = kN;
  gauss_next_.reset();  // random.seed() clears the cached gauss value too
}

void PyRandom::twist() {
  constexpr int kM = 397;
  constexpr uint32_t kMatrixA = 0x9908b0dfU;
  for (int kk = 0; kk < kN; ++kk) {
    uint32_t y = (mt_[kk] & 0x80000000U) | (mt_[(kk + 1) % kN] & 0x7fffffffU);
    mt_[kk] = mt_[(kk + kM) % kN] ^ (y >> 1) ^ ((y & 1U) != 0 ? kMatrixA : 0U);
  }
  index_ = 0;
}

uint32_t PyRandom::next_u32() {
  if (index_ >= kN) twist();
  uint32_t y = mt_[index_++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= (y >> 18);
  return y;
}

uint64_t PyRandom::getrandbits(int k) {
  if (k <= 0) return 0;
  if (k <= 32) return next_u32() >> (32 - k);
  // Python fills 32-bit words from the least significant end; the last one keeps its top bits.
  uint64_t low = next_u32();
  uint64_t high = next_u32() >> (64 - k);
  return low | (high << 32);
}

uint64_t PyRandom::randbelow(uint64_t n) {
  const int k = static_cast<int>(std::bit_width(n));
  uint64_t r = getrandbits(k);
  while (r >= n) r = getrandbits(k);
  return r;
}

double PyRandom::random() {
  uint32_t a = next_u32() >> 5;
  uint32_t b = next_u32() >> 6;
  return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

Result<int64_t> PyRandom::randrange(int64_t start, int64_t stop, int64_t step) {
  const int64_t width = stop - start;
  int64_t n = 0;
  if (step == 1) {
    n = width;
  } else if (step > 0) {
    n = floor_div(width + step - 1, step);
  } else if (step < 0) {
    n = floor_div(width + step + 1, step);
  } else {
    return make_error(ErrorKind::Usage, "zero step for randrange()");
  }
  if (n <= 0) return make_error(ErrorKind::Usage, "empty range for randrange()");
  return start + step * static_cast<int64_t>(randbelow(static_cast<uint64_t>(n)));
}

double PyRandom::uniform(double a, double b) {
  return a + (b - a) * random();
}

double PyRandom::triangular(double low, double high, std::optional<double> mode) {
  double u = random();
  if (high - low == 0.0 && mode) return low;  // Python's ZeroDivisionError path
  double c = mode ? (*mode - low) / (high - low) : 0.5;
  if (u > c) {
    u = 1.0 - u;
    c = 1.0 - c;
    std::swap(low, high);
  }
  return low + (high - low) * std::sqrt(u * c);
}

double PyRandom::normalvariate(double mu, double sigma) {
  double z = 0.0;
  while (true) {
    double u1 = random();
    double u2 = 1.0 - random();
    z = kNvMagic * (u1 - 0.5) / u2;
    double zz = z * z / 4.0;
    if (zz <= -std::log(u2)) break;
  }
  return mu + z * sigma;
}

double PyRandom::gauss(double mu, double sigma) {
  std::optional<double> z = gauss_next_;
  gauss_next_.reset();
  if (!z) {
    double x2pi = random() * kTwoPi;
    double g2rad = std::sqrt(-2.0 * std::log(1.0 - random()));
    z = std::cos(x2pi) * g2rad;
    gauss_next_ = std::sin(x2pi) * g2rad;
  }
  return mu + *z * sigma;
}

double PyRandom::lognormvariate(double mu, double sigma) {
  return std::exp(normalvariate(mu, sigma));
}

double PyRandom::expovariate(double lambd) {
  return -std::log(1.0 - random()) / lambd;
}

// R.C.H. Cheng's method, for alpha > 1; returns the unscaled variate (beta = 1).
double PyRandom::gamma_cheng(double alpha) {
  const double ainv = std::sqrt(2.0 * alpha - 1.0);
  const double bbb = alpha - kLog4;
  const double ccc = alpha + ainv;
  while (true) {
    double u1 = random();
    if (!(1e-7 < u1 && u1 < 0.9999999)) continue;
    double u2 = 1.0 - random();
    double v = std::log(u1 / (1.0 - u1)) / ainv;
    double x = alpha * std::exp(v);
    double z = u1 * u1 * u2;
    double r = bbb + ccc * v - x;
    if (r + kSgMagic - 4.5 * z >= 0.0 || r >= std::log(z)) return x;
  }
}

// Algorithm GS (Kennedy & Gentle), for 0 < alpha < 1; returns the unscaled variate.
double PyRandom::gamma_small(double alpha) {
  while (true) {
    double u = random();
    double b = (kE + alpha) / kE;
    double p = b * u;
    double x = p <= 1.0 ? std::pow(p, 1.0 / alpha) : -std::log((b - p) / alpha);
    double u1 = random();
    if (p > 1.0) {
      if (u1 <= std::pow(x, alpha - 1.0)) return x;
    } else if (u1 <= std::exp(-x)) {
      return x;
    }
  }
}

double PyRandom::gammavariate(double alpha, double beta) {
  if (alpha > 1.0) return gamma_cheng(alpha) * beta;
  if (alpha == 1.0) return -std::log(1.0 - random()) * beta;
  return gamma_small(alpha) * beta;
}

double PyRandom::betavariate(double alpha, double beta) {
  double y = gammavariate(alpha, 1.0);
  if (y != 0.0) return y / (y + gammavariate(beta, 1.0));
  return 0.0;
}

double PyRandom::paretovariate(double alpha) {
  double u = 1.0 - random();
  return std::pow(u, -1.0 / alpha);
}

double PyRandom::weibullvariate(double alpha, double beta) {
  double u = 1.0 - random();
  return alpha * std::pow(-std::log(u), 1.0 / beta);
}

}  // namespace trainyard::spec
