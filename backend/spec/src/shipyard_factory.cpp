// Shipyard `task_factory` expansion (convoy/task_factory.py): `repeat`, `random` (seeded Python
// `random` draws) and `parametric_sweep` (itertools), giving each generated task's arguments.
#include <functional>

#include "shipyard_internal.hpp"

namespace trainyard::spec::shipyard_detail {
namespace {

using Draw = std::function<Result<PyValue>()>;

// Reads named numeric parameters of one distribution, e.g. {"alpha", "beta"}.
Result<std::vector<double>> params(Context& ctx, const At& at, std::vector<std::string> names) {
  if (auto ok = ctx.doc.expect_map(at); !ok) return ok.error();
  std::vector<double> out;
  for (const auto& n : names) {
    auto v = ctx.doc.number(ctx.doc.child(at, n));
    if (!v) return v.error();
    out.push_back(*v);
  }
  return out;
}

Draw value_draw(std::function<double()> f) {
  return [f = std::move(f)]() -> Result<PyValue> { return PyValue(f()); };
}

// Python raises for these parameters; Shipyard would have stopped with that exception.
Result<void> check_positive(Context& ctx, const At& at, const std::vector<double>& p) {
  if (p[0] > 0.0 && p[1] > 0.0) return ok_result();
  return ctx.doc.error(at, "alpha and beta must be > 0.0");
}

Result<void> check_nonzero(Context& ctx, const At& at, double v, const std::string& name) {
  if (v != 0.0) return ok_result();
  return ctx.doc.error(ctx.doc.child(at, name), "must not be 0 (Python: float division by zero)");
}

Result<Draw> triangular_draw(Context& ctx, const At& at) {
  auto p = params(ctx, at, {"low", "high"});
  if (!p) return p.error();
  std::optional<double> mode;
  if (const At m = ctx.doc.child(at, "mode"); present(m)) {
    auto v = ctx.doc.number(m);
    if (!v) return v.error();
    mode = *v;
  }
  // With low == high and a mode, Python returns `low` itself, an int when written as one.
  auto low = ctx.doc.scalar(ctx.doc.child(at, "low"));
  const PyValue low_value = low ? *low : PyValue((*p)[0]);
  PyRandom* rng = &ctx.rng;
  return Draw([rng, p = *p, mode, low_value]() -> Result<PyValue> {
    double x = rng->triangular(p[0], p[1], mode);
    if (mode && p[1] - p[0] == 0.0) return low_value;
    return PyValue(x);
  });
}

Result<Draw> distribution_draw(Context& ctx, const At& dist) {
  if (auto ok = ctx.doc.expect_map(dist); !ok) return ok.error();
  if (dist.node.size() != 1) return ctx.doc.error(dist, "expected exactly one distribution");
  const std::string name = dist.node.begin()->first.Scalar();
  const At at = ctx.doc.child(dist, name);
  PyRandom* r = &ctx.rng;
  if (name == "triangular") return triangular_draw(ctx, at);
  if (name == "exponential" || name == "pareto") {
    const std::string key = name == "pareto" ? "alpha" : "lambda";
    auto p = params(ctx, at, {key});
    if (!p) return p.error();
    if (auto ok = check_nonzero(ctx, at, (*p)[0], key); !ok) return ok.error();
    const double a = (*p)[0];
    if (name == "pareto") return value_draw([r, a] { return r->paretovariate(a); });
    return value_draw([r, a] { return r->expovariate(a); });
  }
  const bool ab = name == "uniform";
  const bool mu = name == "gauss" || name == "lognormal";
  const bool alpha_beta = name == "beta" || name == "gamma" || name == "weibull";
  if (!ab && !mu && !alpha_beta) {
    return ctx.doc.error(at, "unknown distribution '" + name +
                                 "': expected uniform, triangular, "
                                 "beta, exponential, gamma, gauss, lognormal, pareto or weibull");
  }
  auto p = params(ctx, at,
                  ab   ? std::vector<std::string>{"a", "b"}
                  : mu ? std::vector<std::string>{"mu", "sigma"}
                       : std::vector<std::string>{"alpha", "beta"});
  if (!p) return p.error();
  const double x = (*p)[0];
  const double y = (*p)[1];
  if (name == "uniform") return value_draw([r, x, y] { return r->uniform(x, y); });
  if (name == "gauss") return value_draw([r, x, y] { return r->gauss(x, y); });
  if (name == "lognormal") return value_draw([r, x, y] { return r->lognormvariate(x, y); });
  if (name == "weibull") {
    if (auto ok = check_nonzero(ctx, at, y, "beta"); !ok) return ok.error();
    return value_draw([r, x, y] { return r->weibullvariate(x, y); });
  }
  if (auto ok = check_positive(ctx, at, *p); !ok) return ok.error();
  if (name == "beta") return value_draw([r, x, y] { return r->betavariate(x, y); });
  return value_draw([r, x, y] { return r->gammavariate(x, y); });
}

Result<PyRange> read_range(Context& ctx, const At& at) {
  if (auto ok = ctx.doc.expect_map(at); !ok) return ok.error();
  PyRange range;
  auto start = ctx.doc.integer(ctx.doc.child(at, "start"));
  if (!start) return start.error();
  auto stop = ctx.doc.integer(ctx.doc.child(at, "stop"));
  if (!stop) return stop.error();
  range.start = *start;
  range.stop = *stop;
  if (const At step = ctx.doc.child(at, "step"); present(step)) {
    auto s = ctx.doc.integer(step);
    if (!s) return s.error();
    if (*s == 0) return ctx.doc.error(step, "must not be zero");
    range.step = *s;
  }
  return range;
}

Result<Draw> integer_draw(Context& ctx, const At& at) {
  auto range = read_range(ctx, at);
  if (!range) return range.error();
  if (range_length(*range) == 0) return ctx.doc.error(at, "empty range for randrange()");
  PyRandom* r = &ctx.rng;
  return Draw([r, g = *range]() -> Result<PyValue> {
    auto v = r->randrange(g.start, g.stop, g.step);
    if (!v) return v.error();
    return PyValue(*v);
  });
}

Result<std::vector<PyArgs>> expand_random(Context& ctx, const At& at) {
  if (auto ok = ctx.doc.expect_map(at); !ok) return ok.error();
  const At gen = ctx.doc.child(at, "generate");
  if (!present(gen)) return ctx.doc.error(gen, "required: how many values to generate");
  auto n = ctx.doc.integer(gen);
  if (!n) return n.error();
  if (*n < 0 || static_cast<uint64_t>(*n) > ctx.options.max_tasks) {
    return ctx.doc.error(gen, "expected 0 to " + std::to_string(ctx.options.max_tasks));
  }
  // Shipyard seeds the module-global generator before choosing the function, once per factory.
  if (const At seed = ctx.doc.child(at, "seed"); present(seed)) {
    auto s = ctx.doc.integer(seed);
    if (!s) return s.error();
    ctx.rng.seed(*s);
  }
  const At integer = ctx.doc.child(at, "integer");
  auto draw = present(integer) ? integer_draw(ctx, integer)
                               : distribution_draw(ctx, ctx.doc.child(at, "distribution"));
  if (!draw) return draw.error();
  std::vector<PyArgs> out;
  out.reserve(static_cast<std::size_t>(*n));
  for (int64_t i = 0; i < *n; ++i) {
    auto v = (*draw)();
    if (!v) return ctx.doc.error(at, v.error().message);
    out.push_back(PyArgs{std::move(*v)});
  }
  return out;
}

Result<std::vector<PyArgs>> expand_product(Context& ctx, const At& at) {
  if (auto ok = ctx.doc.expect_seq(at); !ok) return ok.error();
  std::vector<std::vector<PyValue>> lists;
  for (std::size_t i = 0; i < at.node.size(); ++i) {
    auto range = read_range(ctx, ctx.doc.item(at, i));
    if (!range) return range.error();
    auto values = range_values(*range, ctx.options.max_tasks);
    if (!values) return ctx.doc.error(ctx.doc.item(at, i), values.error().message);
    lists.push_back(std::move(*values));
  }
  return sweep_product(lists, ctx.options.max_tasks);
}

Result<std::size_t> read_length(Context& ctx, const At& at, std::size_t fallback) {
  if (!present(at)) return fallback;
  auto n = ctx.doc.integer(at);
  if (!n) return n.error();
  if (*n < 0) return ctx.doc.error(at, "expected a length >= 0");
  return static_cast<std::size_t>(*n);
}

Result<std::vector<PyArgs>> expand_choose(Context& ctx, const At& at, bool permutations) {
  if (auto ok = ctx.doc.expect_map(at); !ok) return ok.error();
  auto pool = ctx.doc.values(ctx.doc.child(at, "iterable"));
  if (!pool) return pool.error();
  const At length = ctx.doc.child(at, "length");
  if (!permutations && !present(length)) return ctx.doc.error(length, "required: an integer");
  auto r = read_length(ctx, length, pool->size());
  if (!r) return r.error();
  if (permutations) return sweep_permutations(*pool, *r, ctx.options.max_tasks);
  bool replacement = false;
  if (const At rep = ctx.doc.child(at, "replacement"); present(rep)) {
    auto b = ctx.doc.boolean(rep);
    if (!b) return b.error();
    replacement = *b;
  }
  return sweep_combinations(*pool, *r, replacement, ctx.options.max_tasks);
}

Result<std::vector<PyArgs>> expand_sweep(Context& ctx, const At& at) {
  if (auto ok = ctx.doc.expect_map(at); !ok) return ok.error();
  Result<std::vector<PyArgs>> out = std::vector<PyArgs>{};
  At part;
  if (part = ctx.doc.child(at, "product"); present(part)) {
    out = expand_product(ctx, part);
  } else if (part = ctx.doc.child(at, "product_iterables"); present(part)) {
    auto lists = ctx.doc.value_lists(part);
    if (!lists) return lists.error();
    out = sweep_product(*lists, ctx.options.max_tasks);
  } else if (part = ctx.doc.child(at, "combinations"); present(part)) {
    out = expand_choose(ctx, part, false);
  } else if (part = ctx.doc.child(at, "permutations"); present(part)) {
    out = expand_choose(ctx, part, true);
  } else if (part = ctx.doc.child(at, "zip"); present(part)) {
    auto lists = ctx.doc.value_lists(part);
    if (!lists) return lists.error();
    out = sweep_zip(*lists);
  } else {
    return ctx.doc.error(at,
                         "unknown parametric_sweep type: expected product, "
                         "product_iterables, combinations, permutations or zip");
  }
  // Positioned errors pass through; bare ones (a size limit) get the sweep's position.
  if (!out && out.error().kind != ErrorKind::Parse) return ctx.doc.error(part, out.error().message);
  return out;
}

// The factory kind, or an error naming what is there instead.
Result<std::string> factory_kind(Context& ctx, const At& at) {
  std::string kind;
  for (const auto& kv : at.node) {
    const std::string key = kv.first.Scalar();
    if (key == "autogenerated_task_id") continue;
    const At field = ctx.doc.child(at, key);
    if (key != "parametric_sweep" && key != "random" && key != "repeat") {
      const bool known = key == "custom" || key == "file";
      return ctx.doc.error(field, known ? "task_factory '" + key +
                                              "' is not supported (it needs "
                                              "Python modules or Azure Storage listings)"
                                        : "unknown task factory '" + key +
                                              "': expected parametric_sweep, random or repeat");
    }
    if (!kind.empty()) return ctx.doc.error(field, "only one task factory type per task");
    kind = key;
  }
  if (kind.empty()) return ctx.doc.error(at, "expected parametric_sweep, random or repeat");
  return kind;
}

}  // namespace

Result<void> expand_factory(Context& ctx, const At& factory, TaskDraft& d) {
  if (auto ok = ctx.doc.expect_map(factory); !ok) return ok.error();
  if (const At autogen = ctx.doc.child(factory, "autogenerated_task_id"); present(autogen)) {
    if (auto ok = read_autogen_id(ctx.doc, autogen, d.id_prefix, d.id_width); !ok) return ok;
  }
  auto kind = factory_kind(ctx, factory);
  if (!kind) return kind.error();
  const At body = ctx.doc.child(factory, *kind);
  d.from_factory = true;
  d.format_command = *kind != "repeat";
  Result<std::vector<PyArgs>> args = std::vector<PyArgs>{};
  if (*kind == "repeat") {
    auto n = ctx.doc.integer(body);
    if (!n) return n.error();
    if (*n < 0 || static_cast<uint64_t>(*n) > ctx.options.max_tasks) {
      return ctx.doc.error(body, "expected 0 to " + std::to_string(ctx.options.max_tasks));
    }
    args = std::vector<PyArgs>(static_cast<std::size_t>(*n));
  } else {
    args = *kind == "random" ? expand_random(ctx, body) : expand_sweep(ctx, body);
  }
  if (!args) return args.error();
  d.args = std::move(*args);
  return ok_result();
}

}  // namespace trainyard::spec::shipyard_detail
