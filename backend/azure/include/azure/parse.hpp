// Batch REST JSON (wire names) into trainyard's entities; every error names the JSON pointer.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/entities.hpp"
#include "core/result.hpp"

namespace trainyard::azure {

/// A Batch error body: `code`, `message.value`, `values`.
struct BatchError {
  std::string code;
  std::string message;  ///< without the trailing RequestId/Time lines
  std::vector<NameValue> values;
};

/// Parses a BatchError body; Parse error when it is not one.
Result<BatchError> parse_batch_error(std::string_view body);

/// One page of a list: the raw items and the link to the next page (empty on the last).
struct ListPage {
  std::vector<nlohmann::json> items;
  std::string next_link;
};

/// Parses `{"value":[…],"odata.nextLink":…}`; an error names what is wrong and where.
Result<ListPage> parse_list_page(std::string_view body);

/// Entities from their wire JSON; `account` is set on each. Unknown fields are ignored, missing
/// optional ones stay empty, a wrong type is a Parse error naming the JSON pointer.
Result<Pool> parse_pool(const nlohmann::json& j, const std::string& account);
Result<Node> parse_node(const nlohmann::json& j, const std::string& account,
                        const std::string& pool);
Result<Job> parse_job(const nlohmann::json& j, const std::string& account);
Result<Task> parse_task(const nlohmann::json& j, const std::string& account,
                        const std::string& job);
/// One SubtaskInformation of `GET …/tasks/{id}/subtasksinfo`.
Result<Subtask> parse_subtask(const nlohmann::json& j);

/// Largest response body the parsers accept (a 1000-item page of tasks is a few MiB).
inline constexpr std::size_t kMaxBodyBytes = std::size_t{64} << 20;
/// Deepest nesting of arrays and objects the parsers accept (Batch bodies nest under 10).
inline constexpr int kMaxJsonDepth = 128;

/// Parses a response body: Parse error "not JSON at byte N" (N counted from 1, as nlohmann does),
/// or when it is over kMaxBodyBytes or nested deeper than kMaxJsonDepth.
Result<nlohmann::json> parse_json_body(std::string_view body);

/// TaskAddStatus of one addtaskcollection result.
enum class TaskAddStatus { Success, ClientError, ServerError };

/// One entry of an addtaskcollection response (entries come in any order).
struct TaskAddResult {
  std::string task_id;
  TaskAddStatus status = TaskAddStatus::Success;
  std::string etag;
  std::optional<BatchError> error;  ///< set when the service sent one (status is not success)
};

/// Parses `{"value":[{"status":…,"taskId":…,"eTag":…,"error":{…}}]}`.
Result<std::vector<TaskAddResult>> parse_task_add_results(std::string_view body);

/// A job's task counts (`GET /jobs/{id}/taskcounts`, its `taskCounts` object).
struct JobTaskCounts {
  int active = 0;
  int running = 0;
  int completed = 0;
  int succeeded = 0;
  int failed = 0;
  bool operator==(const JobTaskCounts&) const = default;
};

/// Parses a taskcounts body; Parse error naming the member when malformed.
Result<JobTaskCounts> parse_task_counts(std::string_view body);

/// One pool's entry of `GET /nodecounts`: nodes per state (lower-case wire name, dedicated and
/// Spot added together; `total` and states with no node left out).
struct PoolNodeCounts {
  std::string pool;
  std::map<std::string, int> by_state;
};

/// Parses one item of a nodecounts list page.
Result<PoolNodeCounts> parse_pool_node_counts(const nlohmann::json& j);

/// Typed reads of one JSON object's members for the parsers of Batch bodies. The first failure (a
/// wrong type, a bad time, a missing required member) is kept in a sink shared by the readers of
/// one document, as a Parse error naming the member's JSON pointer; later reads still run and
/// leave their outputs unchanged.
class JsonFields {
 public:
  /// Reads `j`, found at JSON pointer `pointer` ("" for the document); a non-object is a failure.
  JsonFields(const nlohmann::json& j, std::string pointer, std::optional<Error>& sink);

  /// The members of object `key`; absent or null gives a reader that finds nothing.
  JsonFields child(std::string_view key) const;
  /// Element `i` of array member `key` as an object reader (pointer `…/key/i`).
  JsonFields element(std::string_view key, std::size_t i) const;
  /// True when member `key` is present and not null.
  bool has(std::string_view key) const;
  /// Member `key` as it is; nullptr when absent or null (for shapes the typed reads don't cover).
  const nlohmann::json* member(std::string_view key) const;
  /// The array `key`; nullptr when absent or null, or (a failure) not an array.
  const nlohmann::json* array(std::string_view key) const;

  /// Member `key` into `out`; `out` is left unchanged when absent or null.
  void get(std::string_view key, std::string& out) const;
  /// A boolean member.
  void get(std::string_view key, bool& out) const;
  /// An integer member; a fraction or a value outside int is a failure.
  void get(std::string_view key, int& out) const;
  /// An integer member.
  void get(std::string_view key, std::optional<int>& out) const;
  /// An ISO 8601 UTC time.
  void get(std::string_view key, std::optional<Timestamp>& out) const;
  /// An ISO 8601 duration; Batch's "unlimited" (and anything longer) gives nullopt.
  void get(std::string_view key, std::optional<Duration>& out) const;
  /// An array of strings.
  void get(std::string_view key, std::vector<std::string>& out) const;
  /// `[{"name":…,"value":…}]`; a missing value is empty, a missing name a failure.
  void get(std::string_view key, std::vector<NameValue>& out) const;
  /// Like get, and a failure when absent or null.
  void require(std::string_view key, std::string& out) const;
  /// Like get, and a failure when absent or null.
  void require(std::string_view key, int& out) const;

  /// An enum member, case-insensitively; a value this build doesn't know becomes `unknown`
  /// because the service adds values over time.
  template <typename E>
  void get_enum(std::string_view key, E& out, E unknown) const {
    if (const std::string* s = text(key)) out = from_wire<E>(*s).value_or(unknown);
  }
  /// Optional enum member; an unknown value becomes `unknown`.
  template <typename E>
  void get_enum(std::string_view key, std::optional<E>& out, std::optional<E> unknown) const {
    if (const std::string* s = text(key)) {
      auto v = from_wire<E>(*s);
      out = v ? v : unknown;
    }
  }

  /// Records a failure `what` at member `key` (empty: this object); the first failure is kept.
  void fail(std::string_view key, std::string_view what) const;
  /// The JSON pointer of member `key` (empty: this object).
  std::string pointer(std::string_view key) const;
  /// True while no failure is recorded in the shared sink.
  bool ok() const { return !sink_->has_value(); }

 private:
  JsonFields(std::string pointer, std::optional<Error>& sink);
  void fail_at(std::string where, std::string_view what) const;
  const nlohmann::json* typed(std::string_view key, nlohmann::json::value_t type) const;
  const std::string* text(std::string_view key) const;

  const nlohmann::json* j_ = nullptr;
  std::string ptr_;
  std::optional<Error>* sink_;
};

}  // namespace trainyard::azure
