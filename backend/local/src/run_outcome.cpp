#include "run_outcome.hpp"

#include <sys/stat.h>

#include <charconv>
#include <sstream>

#include <fmt/format.h>

#include "local/task_environment.hpp"

namespace trainyard {
namespace {

// One line per value: a message is ours, but a newline in it must not start a new key.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

std::string format_outcome(const RunOutcome& o) {
  std::string out =
      fmt::format("result={}\nendTime={}\n", to_wire(o.result), format_iso8601(o.end_time));
  if (o.exit_code) out += fmt::format("exitCode={}\n", *o.exit_code);
  if (o.failure) {
    out += fmt::format("failureCategory={}\nfailureCode={}\nfailureMessage={}\n",
                       to_wire(o.failure->category), one_line(o.failure->code),
                       one_line(o.failure->message));
  }
  return out;
}

std::optional<int> parse_int(const std::string& s) {
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

bool apply_failure_line(RunOutcome& o, const std::string& key, const std::string& value) {
  if (!o.failure) o.failure = FailureInfo{};
  if (key == "failureCode") o.failure->code = value;
  if (key == "failureMessage") o.failure->message = value;
  if (key != "failureCategory") return true;
  auto c = from_wire<ErrorCategory>(value);
  if (c) o.failure->category = *c;
  return c.has_value();
}

// Applies one `key=value` line; false when the value is malformed.
bool apply_line(RunOutcome& o, bool& has_end, const std::string& key, const std::string& value) {
  if (key == "result") {
    auto r = from_wire<TaskResult>(value);
    if (r) o.result = *r;
    return r.has_value();
  }
  if (key == "endTime") {
    auto t = parse_iso8601(value);
    if (!t) return false;
    o.end_time = *t;
    has_end = true;
    return true;
  }
  if (key == "exitCode") return (o.exit_code = parse_int(value)).has_value();
  if (key.rfind("failure", 0) == 0) return apply_failure_line(o, key, value);
  return true;  // a key of a later version
}

}  // namespace

std::string outcome_path(const std::string& run_dir) {
  return run_dir + "/outcome";
}

Result<void> write_run_outcome(const std::string& path, const RunOutcome& o) {
  return write_file_atomic(path, format_outcome(o), 0644, true);
}

Result<std::optional<RunOutcome>> read_run_outcome(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::optional<RunOutcome>();
  auto text = read_small_file(path);
  if (!text) return text.error();
  RunOutcome o;
  bool has_result = false, has_end = false;
  std::istringstream in(*text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    auto eq = line.find('=');
    std::string key = line.substr(0, eq);
    bool ok = eq != std::string::npos && apply_line(o, has_end, key, line.substr(eq + 1));
    if (!ok) return make_error(ErrorKind::Parse, fmt::format("{}:{}: malformed line", path, n));
    has_result = has_result || key == "result";
  }
  if (!has_result || !has_end)
    return make_error(ErrorKind::Parse, fmt::format("{}: result or endTime missing", path));
  return std::optional<RunOutcome>(o);
}

Task completed_with(Task t, const RunOutcome& o) {
  auto& e = t.execution_info;
  t.previous_state = t.state;
  t.state = TaskState::Completed;
  t.state_transition_time = e.end_time = o.end_time;
  if (!e.start_time) e.start_time = o.end_time;
  e.result = o.result;
  e.exit_code = o.exit_code;
  e.failure_info = o.failure;
  return t;
}

}  // namespace trainyard
