// Filter terms as TaskQuery conditions; their operands are bound by the store, never spliced.
#include "task_filter_sql.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

#include "core/text.hpp"

namespace trainyard {
namespace {

using Cmp = TaskCondition::Cmp;
using Field = TaskCondition::Field;

std::optional<Cmp> cmp_of(FilterOp op) {
  switch (op) {
    case FilterOp::Eq:
      return Cmp::Eq;
    case FilterOp::Ne:
      return Cmp::Ne;
    case FilterOp::Lt:
      return Cmp::Lt;
    case FilterOp::Le:
      return Cmp::Le;
    case FilterOp::Gt:
      return Cmp::Gt;
    case FilterOp::Ge:
      return Cmp::Ge;
    case FilterOp::Glob:
      break;
  }
  return std::nullopt;
}

std::optional<int64_t> integer(const std::string& s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// `state:running`, `state:!=completed`, `state:failed`: the rank, or Failed.
std::optional<TaskCondition> state_condition(const FilterTerm& t) {
  if (t.op != FilterOp::Eq && t.op != FilterOp::Ne) return std::nullopt;
  const std::string v = ascii_lowercase(t.value);
  bool negate = t.negate != (t.op == FilterOp::Ne);
  if (v == "failed") return TaskCondition{Field::Failed, Cmp::Eq, 0, "", negate};
  static const std::map<std::string, int64_t> ranks = {
      {"active", 0}, {"preparing", 1}, {"running", 2}, {"completed", 3}};
  auto it = ranks.find(v);
  if (it == ranks.end()) return std::nullopt;
  // `state:!=completed` also leaves out a failed task (its state is completed).
  return TaskCondition{Field::StateRank, Cmp::Eq, it->second, "", negate};
}

std::optional<TaskCondition> exit_condition(const FilterTerm& t) {
  auto cmp = cmp_of(t.op);
  auto n = integer(t.value);
  if (!cmp || !n) return std::nullopt;
  return TaskCondition{Field::ExitCode, *cmp, *n, "", t.negate};
}

}  // namespace

std::optional<TaskOrder> task_order_for(const std::string& id) {
  static const std::map<std::string, TaskOrder> orders = {{"id", TaskOrder::Id},
                                                          {"state", TaskOrder::State},
                                                          {"exit", TaskOrder::ExitCode},
                                                          {"try", TaskOrder::Retries},
                                                          {"requeues", TaskOrder::Requeues},
                                                          {"gpu", TaskOrder::Slots},
                                                          {"command", TaskOrder::CommandLine}};
  auto it = orders.find(id);
  if (it == orders.end()) return std::nullopt;
  return it->second;
}

std::vector<FilterTerm> add_task_conditions(const RowFilter& f, TaskQuery& q,
                                            const std::vector<std::string>& fields) {
  std::vector<FilterTerm> rest;
  for (auto t : f.terms) {
    if (t.kind == FilterTerm::Kind::Field &&
        std::find(fields.begin(), fields.end(), t.field) == fields.end()) {
      t.kind = FilterTerm::Kind::Text;
      t.value = t.raw;
    }
    std::optional<TaskCondition> c;
    if (t.kind == FilterTerm::Kind::Text && !t.negate && q.substring.empty()) {
      q.substring = t.value;  // the first plain text is the query's substring
      continue;
    }
    if (t.kind == FilterTerm::Kind::Text)
      c = TaskCondition{Field::Text, Cmp::Eq, 0, t.value, t.negate};
    if (t.kind == FilterTerm::Kind::Field && t.field == "state") c = state_condition(t);
    if (t.kind == FilterTerm::Kind::Field && t.field == "exit") c = exit_condition(t);
    if (c)
      q.conditions.push_back(std::move(*c));
    else
      rest.push_back(t);
  }
  return rest;
}

}  // namespace trainyard
