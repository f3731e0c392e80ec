// The subset's functions (min, max, avg, sum, len, range, floor, ceil, round) and the sample
// methods GetSample / GetSamplePercent over the emulator's one-value sample sets.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "autoscale_internal.hpp"

namespace trainyard::emu::autoscale_detail {

namespace {

CallResult ok(Value v) {
  CallResult r;
  r.value = std::move(v);
  return r;
}

CallResult ok_double(double x) {
  Value v;
  v.num = x;
  if (!std::isfinite(x)) {
    CallResult r;
    r.error = "The result is not a finite number";
    r.code = kInvalidSettings;
    return r;
  }
  return ok(std::move(v));
}

CallResult ok_sample(double newest) {
  Value v;
  v.kind = Kind::Vector;
  v.vec = {newest};
  return ok(std::move(v));
}

CallResult error(std::string what, std::string_view code = kSyntaxError) {
  CallResult r;
  r.error = std::move(what);
  r.code = code;
  return r;
}

/// Batch's doubleVecList: doubles and doubleVecs flattened into one list.
CallResult flatten(std::string_view name, const std::vector<Value>& args, std::vector<double>& xs) {
  for (const auto& v : args) {
    if (v.kind == Kind::Double) {
      xs.push_back(v.num);
    } else if (v.kind == Kind::Vector) {
      xs.insert(xs.end(), v.vec.begin(), v.vec.end());
    } else {
      return error("Type mismatch: " + std::string(name) +
                   "() takes doubles and doubleVecs, not a " + std::string(kind_name(v.kind)));
    }
  }
  if (xs.empty()) return error(std::string(name) + "() of an empty list");
  return {};
}

double rounded(Builtin b, double x) {
  if (b == Builtin::Floor) return std::floor(x);
  if (b == Builtin::Ceil) return std::ceil(x);
  return std::nearbyint(x);  // halves to even, as .NET's Math.Round
}

CallResult round_call(Builtin b, std::string_view name, Value v) {
  if (v.kind != Kind::Double && v.kind != Kind::Vector) {
    return error("Type mismatch: " + std::string(name) + "() takes a double or doubleVec, not a " +
                 std::string(kind_name(v.kind)));
  }
  v.num = rounded(b, v.num);
  for (double& x : v.vec) x = rounded(b, x);
  return ok(std::move(v));
}

std::string kinds(const std::vector<Value>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : ", ") + std::string(kind_name(a.kind));
  return out;
}

CallResult wrong_sample_args(Method m, std::string_view forms, const std::vector<Value>& args) {
  const std::string name = m == Method::GetSample ? "GetSample" : "GetSamplePercent";
  return error("Type mismatch: " + name + " takes " + std::string(forms) + ", not (" + kinds(args) +
               ")");
}

}  // namespace

CallResult call_builtin(Builtin b, std::string_view name, std::vector<Value> args) {
  if (b == Builtin::Floor || b == Builtin::Ceil || b == Builtin::Round) {
    if (args.size() != 1) return error(std::string(name) + "() takes exactly one argument");
    return round_call(b, name, std::move(args[0]));
  }
  std::vector<double> xs;
  if (CallResult bad = flatten(name, args, xs); !bad.error.empty()) return bad;
  const auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
  const double total = std::accumulate(xs.begin(), xs.end(), 0.0);
  switch (b) {
    case Builtin::Min:
      return ok_double(*lo);
    case Builtin::Max:
      return ok_double(*hi);
    case Builtin::Sum:
      return ok_double(total);
    case Builtin::Avg:
      return ok_double(total / static_cast<double>(xs.size()));
    case Builtin::Len:
      return ok_double(static_cast<double>(xs.size()));
    default:
      return ok_double(*hi - *lo);
  }
}

CallResult call_sample(Method m, std::string_view set, double newest,
                       const std::vector<Value>& args) {
  if (args.empty()) return wrong_sample_args(m, "at least one argument", args);
  if (m == Method::GetSamplePercent) {
    const bool fits = args.size() <= 2 && args[0].kind == Kind::Interval &&
                      (args.size() == 1 || args[1].kind == Kind::Interval);
    if (!fits) return wrong_sample_args(m, "(timeinterval [, timeinterval])", args);
    return ok_double(100);  // the one sample is always there
  }
  if (args.size() == 1 && args[0].kind == Kind::Double) {
    if (args[0].num < 1) return error("GetSample(count) needs a count of at least 1");
    return ok_sample(newest);
  }
  const size_t intervals = args[0].kind != Kind::Interval                      ? 0
                           : args.size() > 1 && args[1].kind == Kind::Interval ? 2
                                                                               : 1;
  const size_t percents = args.size() - intervals;
  if (intervals == 0 || percents > 1 || (percents == 1 && args.back().kind != Kind::Double)) {
    return wrong_sample_args(
        m, "(count), (timeinterval [, percent]) or (timeinterval, timeinterval [, percent])", args);
  }
  if (percents == 1 && args.back().num > 100) {
    return error("Insufficient data from data set: " + printable(set) + " wanted " +
                     format_number(args.back().num) + "%, received 100%",
                 kInsufficientData);
  }
  return ok_sample(newest);
}

}  // namespace trainyard::emu::autoscale_detail
