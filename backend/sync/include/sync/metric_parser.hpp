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
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

/// Stateful parser of one log stream: remembers the last epoch and step. Not thread-safe.
class MetricParser {
 public:
  MetricParser();
  ~MetricParser();
  MetricParser(MetricParser&&) noexcept;
  MetricParser& operator=(MetricParser&&) noexcept;

  /// Metric points found on one sanitized line (without its newline).
  std::vector<ParsedMetric> parse_line(std::string_view line);

  /// Adds a user pattern (ECMAScript regex) whose first capture group is the value of metric
  /// `name`; tried on every line after the built-in scanner. Fails on a bad regex.
  Result<void> add_pattern(std::string name, std::string_view regex);

  /// The last step seen.
  std::optional<int64_t> step() const { return step_; }
  /// The last epoch seen.
  std::optional<double> epoch() const { return epoch_; }
  /// Forgets the position (new attempt of a task).
  void reset_position() { step_.reset(), epoch_.reset(); }

 private:
  struct UserPattern;
  std::vector<UserPattern> patterns_;
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
