// Evaluator of parsed autoscale formulas: typed values, operators, functions and samples.
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "autoscale_internal.hpp"

namespace trainyard::emu::autoscale_detail {

namespace {

Value make_double(double x) {
  Value v;
  v.num = x;
  return v;
}

Value make_interval(double seconds) {
  Value v;
  v.kind = Kind::Interval;
  v.num = seconds;
  return v;
}

Value make_vector(std::vector<double> xs) {
  Value v;
  v.kind = Kind::Vector;
  v.vec = std::move(xs);
  return v;
}

bool is_numeric(const Value& v) {
  return v.kind == Kind::Double || v.kind == Kind::Vector;
}

template <typename T>
bool compare(Tok op, const T& a, const T& b) {
  switch (op) {
    case Tok::Lt:
      return a < b;
    case Tok::Le:
      return a <= b;
    case Tok::Gt:
      return a > b;
    case Tok::Ge:
      return a >= b;
    case Tok::Eq:
      return a == b;
    default:
      return a != b;
  }
}

class Evaluator {
 public:
  Evaluator(const AutoscaleInputs& in, EvalState& st) : in_(in), st_(st) {}

  std::optional<Failure> run(const Program& program) {
    for (const auto& s : program.statements) {
      statement_ = s.number;
      Value v;
      if (!eval(*s.value, v) || !assign(s, std::move(v))) break;
    }
    return failure_;
  }

 private:
  bool fail(Pos pos, std::string detail, std::string_view code = kSyntaxError) {
    if (!failure_) {
      failure_ = make_failure(pos, std::move(detail), code);
      failure_->statement = statement_;
    }
    return false;
  }

  bool type_error(const Node& n, std::string what) {
    return fail(n.pos, "Type mismatch: " + std::move(what));
  }

  /// Checks a computed double; overflow to infinity or NaN stops the run.
  bool finite(const Node& n, double x) {
    if (std::isfinite(x)) return true;
    return fail(n.pos, "The result is not a finite number", kInvalidSettings);
  }

  bool eval(const Node& n, Value& out) {
    switch (n.kind) {
      case NodeKind::Number:
        out = make_double(n.number);
        return true;
      case NodeKind::Interval:
        out = make_interval(n.number);
        return true;
      case NodeKind::String:
        out = Value{};
        out.kind = Kind::String;
        out.str = n.text;
        return true;
      case NodeKind::UserVar:
        return read_user(n, out);
      case NodeKind::ServiceVar:
        out = read_service(n.service);
        return true;
      case NodeKind::Unary:
        return unary(n, out);
      case NodeKind::Binary:
        return binary(n, out);
      case NodeKind::Ternary:
        return ternary(n, out);
      case NodeKind::Call:
      case NodeKind::SampleMethod:
        return call(n, out);
    }
    return fail(n.pos, "Unsupported expression");
  }

  bool read_user(const Node& n, Value& out) {
    const auto it = st_.user.find(n.text);
    if (it == st_.user.end()) {
      return fail(n.pos, "Undefined variable '" + printable(n.text) + "'");
    }
    out = it->second;
    return true;
  }

  Value read_service(Service s) const {
    switch (s) {
      case Service::CurrentDedicated:
        return make_double(in_.current_dedicated);
      case Service::CurrentLowPriority:
        return make_double(in_.current_low_priority);
      case Service::TargetDedicated:
        return make_double(st_.target_dedicated);
      case Service::TargetLowPriority:
        return make_double(st_.target_low_priority);
      case Service::TargetDedicatedAlias:
        return make_double(st_.alias_dedicated);
      case Service::TargetLowPriorityAlias:
        return make_double(st_.alias_low_priority);
      case Service::NodeDeallocation: {
        Value v;
        v.kind = Kind::String;
        v.str = st_.deallocation;
        return v;
      }
      default:
        return make_double(sample_value(s));
    }
  }

  double sample_value(Service s) const {
    switch (s) {
      case Service::PendingTasks:
        return in_.pending_tasks;
      case Service::ActiveTasks:
        return in_.active_tasks;
      case Service::RunningTasks:
        return in_.running_tasks;
      default:
        return 0;
    }
  }

  bool assign(const Statement& s, Value v) {
    if (s.service == Service::None) {
      st_.user[s.target] = std::move(v);
      return true;
    }
    if (s.service == Service::NodeDeallocation) return assign_deallocation(s, v);
    if (v.kind != Kind::Double) {
      return fail(s.pos,
                  printable(s.target) + " needs a double, not a " + std::string(kind_name(v.kind)));
    }
    switch (s.service) {
      case Service::TargetDedicated:
        st_.target_dedicated = v.num;
        st_.dedicated_set = true;
        break;
      case Service::TargetLowPriority:
        st_.target_low_priority = v.num;
        st_.low_priority_set = true;
        break;
      case Service::TargetDedicatedAlias:
        st_.alias_dedicated = v.num;
        st_.alias_dedicated_set = true;
        break;
      default:
        st_.alias_low_priority = v.num;
        st_.alias_low_priority_set = true;
        break;
    }
    return true;
  }

  bool assign_deallocation(const Statement& s, const Value& v) {
    if (v.kind == Kind::String) {
      if (const auto opt = find_deallocation(v.str)) {
        st_.deallocation = std::string(*opt);
        return true;
      }
    }
    const std::string shown = v.kind == Kind::String ? "'" + printable(v.str) + "'"
                                                     : "a " + std::string(kind_name(v.kind));
    return fail(s.pos, "$NodeDeallocationOption cannot be " + shown +
                           " (expected requeue, terminate, taskcompletion or retaineddata)");
  }

  bool unary(const Node& n, Value& out) {
    Value v;
    if (!eval(*n.kids[0], v)) return false;
    if (n.op == Tok::Not) {
      if (v.kind != Kind::Double) {
        return type_error(n, "'!' needs a double, not a " + std::string(kind_name(v.kind)));
      }
      out = make_double(v.num == 0 ? 1 : 0);
      return true;
    }
    if (v.kind == Kind::String) return type_error(n, "'-' cannot negate a string");
    out = std::move(v);
    out.num = -out.num;
    for (double& x : out.vec) x = -x;
    return true;
  }

  bool binary(const Node& n, Value& out) {
    if (n.op == Tok::And || n.op == Tok::Or) return logical(n, out);
    Value a;
    Value b;
    if (!eval(*n.kids[0], a) || !eval(*n.kids[1], b)) return false;
    switch (n.op) {
      case Tok::Plus:
      case Tok::Minus:
      case Tok::Star:
      case Tok::Slash:
        return arithmetic(n, a, b, out);
      default:
        return comparison(n, a, b, out);
    }
  }

  bool logical(const Node& n, Value& out) {
    Value a;
    if (!eval(*n.kids[0], a) || !need_double(n, a)) return false;
    const bool left = a.num != 0;
    if (n.op == Tok::And ? !left : left) {
      out = make_double(left ? 1 : 0);
      return true;
    }
    Value b;
    if (!eval(*n.kids[1], b) || !need_double(n, b)) return false;
    out = make_double(b.num != 0 ? 1 : 0);
    return true;
  }

  bool need_double(const Node& n, const Value& v) {
    if (v.kind == Kind::Double) return true;
    return type_error(n, "'" + std::string(op_text(n.op)) + "' needs doubles, not a " +
                             std::string(kind_name(v.kind)));
  }

  bool mismatch(const Node& n, const Value& a, const Value& b) {
    return type_error(n, "'" + std::string(op_text(n.op)) + "' cannot combine a " +
                             std::string(kind_name(a.kind)) + " and a " +
                             std::string(kind_name(b.kind)));
  }

  bool comparison(const Node& n, const Value& a, const Value& b, Value& out) {
    if (a.kind != b.kind || a.kind == Kind::Vector) return mismatch(n, a, b);
    const bool r =
        a.kind == Kind::String ? compare(n.op, a.str, b.str) : compare(n.op, a.num, b.num);
    out = make_double(r ? 1 : 0);
    return true;
  }

  bool scalar(const Node& n, double x, double y, double& r) {
    switch (n.op) {
      case Tok::Plus:
        r = x + y;
        break;
      case Tok::Minus:
        r = x - y;
        break;
      case Tok::Star:
        r = x * y;
        break;
      default:
        if (y == 0) return fail(n.pos, "Division by zero", kInvalidSettings);
        r = x / y;
        break;
    }
    return finite(n, r);
  }

  bool arithmetic(const Node& n, const Value& a, const Value& b, Value& out) {
    if (is_numeric(a) && is_numeric(b)) return numeric(n, a, b, out);
    const bool ai = a.kind == Kind::Interval;
    const bool bi = b.kind == Kind::Interval;
    const bool ad = a.kind == Kind::Double;
    const bool bd = b.kind == Kind::Double;
    const bool ok = ((n.op == Tok::Plus || n.op == Tok::Minus) && ai && bi) ||
                    (n.op == Tok::Star && ((ai && bd) || (ad && bi))) ||
                    (n.op == Tok::Slash && ai && bd);
    if (!ok) return mismatch(n, a, b);
    double r = 0;
    if (!scalar(n, a.num, b.num, r)) return false;
    out = make_interval(r);
    return true;
  }

  /// double and doubleVec arithmetic; a double pairs with every element of a doubleVec.
  bool numeric(const Node& n, const Value& a, const Value& b, Value& out) {
    if (a.kind == Kind::Double && b.kind == Kind::Double) {
      double r = 0;
      if (!scalar(n, a.num, b.num, r)) return false;
      out = make_double(r);
      return true;
    }
    const bool av = a.kind == Kind::Vector;
    const bool bv = b.kind == Kind::Vector;
    const size_t size = av ? a.vec.size() : b.vec.size();
    if (av && bv && a.vec.size() != b.vec.size()) {
      return fail(n.pos, "Type mismatch: '" + std::string(op_text(n.op)) +
                             "' on doubleVecs of lengths " + std::to_string(a.vec.size()) +
                             " and " + std::to_string(b.vec.size()));
    }
    std::vector<double> r(size);
    for (size_t i = 0; i < size; ++i) {
      if (!scalar(n, av ? a.vec[i] : a.num, bv ? b.vec[i] : b.num, r[i])) return false;
    }
    out = make_vector(std::move(r));
    return true;
  }

  bool ternary(const Node& n, Value& out) {
    Value cond;
    if (!eval(*n.kids[0], cond)) return false;
    if (cond.kind != Kind::Double) {
      return type_error(
          n, "the condition of '?' must be a double, not a " + std::string(kind_name(cond.kind)));
    }
    return eval(*n.kids[cond.num != 0 ? 1 : 2], out);
  }

  bool call(const Node& n, Value& out) {
    std::vector<Value> args(n.kids.size());
    for (size_t i = 0; i < n.kids.size(); ++i) {
      if (!eval(*n.kids[i], args[i])) return false;
    }
    CallResult r = n.kind == NodeKind::Call
                       ? call_builtin(n.builtin, n.text, std::move(args))
                       : call_sample(n.method, n.text, sample_value(n.service), args);
    if (!r.error.empty()) return fail(n.pos, std::move(r.error), r.code);
    out = std::move(r.value);
    return true;
  }

  const AutoscaleInputs& in_;
  EvalState& st_;
  int statement_ = 0;
  std::optional<Failure> failure_;
};

}  // namespace

std::optional<Failure> run(const Program& program, const AutoscaleInputs& in, EvalState& state) {
  return Evaluator(in, state).run(program);
}

}  // namespace trainyard::emu::autoscale_detail
