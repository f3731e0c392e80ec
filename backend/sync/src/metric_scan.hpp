// The built-in metric scanner: `name<sep>number` pairs of one line, without interpretation.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trainyard::detail {

/// How a name was tied to its value.
enum class PairSep { Equals, Colon, Space, QuotedKey };

/// One name/value pair found on a line.
struct ScannedPair {
  std::string name;  ///< lower case
  double value = 0;
  bool integral = false;        ///< written without fraction or exponent
  std::optional<double> total;  ///< `3/10` gives value 3, total 10 (epoch and step only)
  PairSep sep = PairSep::Equals;
  size_t value_at = 0;   ///< where the value's text starts on the line
  size_t value_len = 0;  ///< its length (without a `/total`)
};

/// Every pair on the line, left to right. An evaluation's pairs are named apart from training's:
/// `Test loss: 0.0185` is `test_loss`, and every pair of a line that starts with `Test`,
/// `Eval`/`Evaluation` or `Validation` takes that prefix (`test_`, `eval_`, `val_`).
std::vector<ScannedPair> scan_pairs(std::string_view line);

/// True for names that set the position rather than being metrics.
bool is_epoch_name(std::string_view lower_name);
bool is_step_name(std::string_view lower_name);
/// True for names that look like metrics (`loss`, `val_acc`, `train/f1`…).
bool is_metric_like(std::string_view lower_name);
/// True for names that are configuration, not metrics (`pid`, `seed`, `v_num`…).
bool is_config_name(std::string_view lower_name);
/// True for names that identify a process rather than configure a run (`pid`, `rank`, `port`…).
bool is_process_name(std::string_view lower_name);
/// True for names that look like hyperparameters (`batch`, `dropout`, `warmup_steps`…).
bool is_hyperparameter_like(std::string_view lower_name);

/// Parses a whole token as a double (`1e-4`, `+3`, `nan`); nullopt when it is not exactly one.
std::optional<double> parse_number(std::string_view token);

}  // namespace trainyard::detail
