// Azure-private: the task page parser's handler of JSON events (nlohmann's SAX interface), fed
// by nlohmann's own lexer or by a walk of a simdjson document (parse_task_page.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "azure/task_page.hpp"
#include "task_page_schema.hpp"

namespace trainyard::azure::detail {

using nlohmann::json;

/// A scalar value as it arrives.
struct Scalar {
  json::value_t type = json::value_t::null;
  std::string* text = nullptr;
  std::uint64_t u = 0;
  std::int64_t i = 0;
  double f = 0;
};

/// One open object or array.
struct Frame {
  Node node = Node::Skip;
  bool array = false;
  const Member* member = nullptr;  ///< objects: the known member being read
  std::size_t index = 0;           ///< arrays: the element being read
  std::uint32_t seen = 0;          ///< objects: the known members read so far
};

/// One taskIdRanges entry, expanded when its dependsOn closes (after taskIds, as parse_task).
struct Range {
  int start, end;
  std::size_t index;
};

/// Builds a TaskPage from a page's JSON events; stops at the first value that does not fit.
class TaskPageSax {
 public:
  TaskPageSax(const std::string& account, const std::string& job) : account_(account), job_(job) {}

  bool null() { return scalar({}); }
  bool boolean(bool) { return scalar({json::value_t::boolean}); }
  bool number_integer(std::int64_t v) {
    return scalar({json::value_t::number_integer, nullptr, 0, v});
  }
  bool number_unsigned(std::uint64_t v) {
    return scalar({json::value_t::number_unsigned, nullptr, v});
  }
  bool number_float(double v, const std::string&) {
    return scalar({json::value_t::number_float, nullptr, 0, 0, v});
  }
  bool string(std::string& v) { return scalar({json::value_t::string, &v}); }
  bool binary(json::binary_t&) { return scalar({json::value_t::binary}); }
  bool start_object(std::size_t) { return open(false); }
  bool start_array(std::size_t) { return open(true); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(std::string_view k);
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&);

  std::optional<Error> error_;
  TaskPage page_;

 private:
  bool scalar(const Scalar& v);
  bool open(bool array);
  bool close();
  void begin(Node n);
  bool end(Node n);
  bool assign(const Member& m, const Scalar& v);
  bool assign_text(Field f, std::string& s);
  bool assign_int(Field f, int v);
  bool assign_time(Field f, Timestamp t);
  bool assign_enum(Field f, const std::string& s);
  void advance();
  std::string pointer(std::size_t depth) const;
  bool fail_at(std::string where, std::string_view what);
  bool fail(std::string_view what) { return fail_at(pointer(stack_.size()), what); }
  Node enclosing() const {
    return stack_.size() >= 2 ? stack_[stack_.size() - 2].node : Node::Skip;
  }

  const std::string& account_;
  const std::string& job_;
  std::vector<Frame> stack_;
  Task t_;
  bool has_id_ = false, has_name_ = false, has_value_ = false;
  std::optional<int> start_, end_;
  std::vector<std::string> ids_;
  std::vector<Range> ranges_;
};

}  // namespace trainyard::azure::detail
