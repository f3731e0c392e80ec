// Extraction of training metrics (loss, accuracy, learning rate…) from sanitized log lines.
//
// The built-in recogniser is a hand-written scanner (it runs on every log line). It finds
// `name<sep>number` pairs where sep is `=`, `:` (with optional spaces), plain spaces, or the
// quoted-key form of a Python/JSON dict (`'loss': 0.3`, `"loss": 0.3`). It knows the shapes of
// Keras and tqdm progress records, Hugging Face Trainer dicts and Lightning's `train_loss=…`.
//   - Names are identifiers: a letter or `_` first, then letters, digits, `_`, and `/ - .` inside;
//     they start at a word boundary (`2ms/step` holds no name) and are reported in lower case.
//   - Numbers are decimal or scientific (`1e-4`, `4.5e-05`), or nan/inf in `=`, `:` and dict
//     forms. A number must end the token: `12:00:03`, `2.1.0`, `10.0.0.1`, `5/10`, `3s` and
//     `3ms/step` are not values.
//   - `=` and dict pairs accept any identifier but a few configuration names (pid, rank, seed,
//     v_num…). `:` and space pairs accept only metric-like names (loss, acc, lr, f1… or names with
//     such a part, like `val_loss`, `train/acc`, `top1_err`), so `GPU: 0` or `took 3.2` are
//     ignored.
//   - `epoch` and `step` (also `global_step`, `iter`, `iteration`) are not metrics: they set the
//     parser's position (`epoch 3/10`, `Epoch 3/10`, `step 1200/5000`, `[step 120]`,
//     `'epoch': 0.27`). A position applies to every metric of its line and of later lines.
//
// Configuration or metric (parse(), which log followers use; parse_line() does not apply it):
//   - Until a stream's first step or epoch position, a value the stream prints is held as a
//     parameter of the run (`lr=0.01`, `batch: 64`, `Namespace(seed=1, dropout=0.1)`): metric
//     pairs as above, plus `=` and dict pairs of configuration names (`seed`, `batch_size`,
//     `epochs`…, not process names such as `pid` or `rank`) and `:` pairs of
//     hyperparameter-like names (`batch`, `dropout`, `warmup_steps`…).
//   - A position ends this prelude: the values held stay parameters.
//   - A metric name printed a second time before any position also ends it: the log has no
//     positions, so that name's first line and every held value from that line on become metric
//     points (in their lines' order) and stop being parameters; earlier lines stay parameters.
//   - A line a user pattern matches ends it too (user patterns name metrics).
//   - After the prelude, parameters are no longer looked for.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/entities.hpp"
#include "core/result.hpp"

namespace trainyard {

/// One value of one metric.
struct ParsedMetric {
  std::string name;
  double value = 0;
  std::optional<int64_t> step;  ///< last step seen, on this line or before
  std::optional<double> epoch;  ///< last epoch seen (fractional in Hugging Face logs)

  bool operator==(const ParsedMetric&) const = default;
};

/// The metric points of one log line.
struct ParsedRecord {
  uint64_t line = 0;  ///< 1 for the first line parsed
  std::vector<ParsedMetric> metrics;
  /// The epoch the line itself printed when it printed no step (a Hugging Face dict's
  /// `'epoch': 0.27`): the record's x, where a count of records would misplace it.
  std::optional<double> own_epoch;
};

/// What one line told under the configuration rule.
struct ParsedLine {
  /// Earlier lines' held values that turned out to be metrics, then this line's points.
  std::vector<ParsedRecord> records;
  std::vector<NameValue> parameters;        ///< values found to be parameters of the run
  std::vector<std::string> not_parameters;  ///< names held as parameters that are metrics
};

/// Stateful parser of one log stream: remembers the last epoch and step. Not thread-safe.
class MetricParser {
 public:
  MetricParser();
  ~MetricParser();
  MetricParser(MetricParser&&) noexcept;
  MetricParser& operator=(MetricParser&&) noexcept;

  /// Metric points found on one sanitized line (without its newline).
  std::vector<ParsedMetric> parse_line(std::string_view line);

  /// Points and parameters of one sanitized line under the configuration rule above.
  ParsedLine parse(std::string_view line);
  /// Ends the configuration prelude (a follower resuming a stream that already has points).
  void end_prelude() { prelude_ = false, held_.clear(); }

  /// Adds a user pattern (ECMAScript regex) whose first capture group is the value of metric
  /// `name`; tried on every line after the built-in scanner. Fails on a bad regex.
  Result<void> add_pattern(std::string name, std::string_view regex);

  /// The last step seen.
  std::optional<int64_t> step() const { return step_; }
  /// The last epoch seen.
  std::optional<double> epoch() const { return epoch_; }
  /// Forgets the position (new attempt of a task).
  void reset_position() { step_.reset(), epoch_.reset(); }
  /// Starts over as for a new stream: no position, and a new configuration prelude.
  void restart() { reset_position(), prelude_ = true, held_.clear(), line_ = 0; }

 private:
  struct UserPattern;
  struct Held {
    uint64_t line;
    ParsedMetric metric;
  };
  void add_pattern_points(std::string_view line, std::vector<ParsedMetric>& points) const;
  std::optional<uint64_t> first_held_line(const std::vector<ParsedMetric>& points) const;
  void release_from(uint64_t first, ParsedLine& out);

  std::vector<UserPattern> patterns_;
  bool prelude_ = true;
  uint64_t line_ = 0;
  std::vector<Held> held_;
  std::optional<int64_t> step_;
  std::optional<double> epoch_;
};

/// The metric to plot by default among names in order of first appearance: `loss`, else
/// `val_loss`, else the first; empty when there is none.
std::string main_metric(const std::vector<std::string>& names_in_order);

/// Whether smaller values of a metric are better: losses and error rates (a name containing
/// `loss` or `err`, in any case); everything else (accuracy, reward) is better larger.
bool metric_lower_is_better(std::string_view name);

}  // namespace trainyard
