// Hand-written scanner for metric pairs; runs on every log line, so no regex and no allocation
// beyond the pairs it returns.
#include "metric_scan.hpp"

#include <algorithm>
#include <array>
#include <charconv>

namespace trainyard::detail {
namespace {

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_word(char c) {
  return is_alpha(c) || is_digit(c) || c == '_';
}
bool is_name_char(char c) {
  return is_word(c) || c == '/' || c == '-' || c == '.';
}
bool is_space(char c) {
  return c == ' ' || c == '\t';
}
char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
}

bool equals_any(std::string_view s, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

// Characters that may follow a value: anything else (letters, `:`+digit, `.`+digit) means the
// token is a time, a version, an address or a quantity with a unit, not a metric value.
bool ends_value(std::string_view line, size_t e) {
  if (e >= line.size()) return true;
  char c = line[e];
  if (c == ':' || c == '.' || c == ',') return e + 1 >= line.size() || !is_digit(line[e + 1]);
  return is_space(c) || c == ',' || c == ';' || c == ']' || c == '}' || c == ')' || c == '|' ||
         c == '\'' || c == '"' || c == '%';
}

// Length of the number token at line[k] (sign, digits, fraction, exponent, or nan/inf).
size_t number_length(std::string_view line, size_t k, bool& integral) {
  size_t e = k;
  if (e < line.size() && (line[e] == '-' || line[e] == '+')) ++e;
  size_t digits = e;
  while (e < line.size() && is_digit(line[e])) ++e;
  integral = e > digits;
  // `.066` (bc, awk): a fraction with no integer digits is a number too.
  bool bare_fraction =
      e == digits && e + 1 < line.size() && line[e] == '.' && is_digit(line[e + 1]);
  if (e == digits && !bare_fraction) {  // nan / inf / infinity
    size_t w = e;
    while (w < line.size() && is_alpha(line[w])) ++w;
    std::string word;
    for (size_t i = e; i < w; ++i) word += lower(line[i]);
    return equals_any(word, {"nan", "inf", "infinity"}) ? w - k : 0;
  }
  if (e + 1 < line.size() && line[e] == '.' && is_digit(line[e + 1])) {
    integral = false;
    for (++e; e < line.size() && is_digit(line[e]);) ++e;
  }
  size_t x = e;
  if (x < line.size() && (line[x] == 'e' || line[x] == 'E')) {
    ++x;
    if (x < line.size() && (line[x] == '-' || line[x] == '+')) ++x;
    if (x < line.size() && is_digit(line[x])) {
      while (x < line.size() && is_digit(line[x])) ++x;
      integral = false;
      e = x;
    }
  }
  return e - k;
}

// The separator after a name ending at `end`; sets `value_at` to where the value starts.
std::optional<PairSep> read_separator(std::string_view line, size_t end, char quote,
                                      size_t& value_at) {
  size_t k = end;
  if (quote != '\0' && k + 1 < line.size() && line[k] == quote && line[k + 1] == ':') {
    for (k += 2; k < line.size() && is_space(line[k]);) ++k;
    value_at = k;
    return PairSep::QuotedKey;
  }
  size_t s = k;
  while (s < line.size() && is_space(line[s])) ++s;
  if (s < line.size() && (line[s] == '=' || line[s] == ':')) {
    PairSep sep = line[s] == '=' ? PairSep::Equals : PairSep::Colon;
    for (k = s + 1; k < line.size() && is_space(line[k]);) ++k;
    value_at = k;
    return sep;
  }
  if (s == k) return std::nullopt;
  value_at = s;
  return PairSep::Space;
}

// Reads the value (and `/total` for positions) at line[k] into pair; returns the end or 0.
size_t read_value(std::string_view line, size_t k, ScannedPair& pair) {
  size_t len = number_length(line, k, pair.integral);
  if (len == 0) return 0;
  if (!is_digit(line[k + len - 1]) && pair.sep == PairSep::Space) return 0;  // nan needs `=`/`:`
  auto value = parse_number(line.substr(k, len));
  if (!value) return 0;
  pair.value = *value;
  pair.value_at = k;
  pair.value_len = len;
  size_t e = k + len;
  bool position = is_epoch_name(pair.name) || is_step_name(pair.name);
  if (position && e + 1 < line.size() && line[e] == '/' && is_digit(line[e + 1])) {
    bool integral = false;
    size_t tlen = number_length(line, e + 1, integral);
    pair.total = parse_number(line.substr(e + 1, tlen));
    e += 1 + tlen;
  }
  return ends_value(line, e) ? e : 0;
}

// `test_` for `Test`, `eval_` for `Eval`, `val_` for `Validation`: an evaluation's words, whose
// numbers are a series of their own rather than one more training step.
std::string_view evaluation_prefix(std::string_view word) {
  std::string w;
  for (char c : word) w += lower(c);
  if (w == "test") return "test_";
  if (w == "eval" || w == "evaluation") return "eval_";
  if (w == "val" || w == "valid" || w == "validation") return "val_";
  return "";
}

// The evaluation word just before the name at line[i] (`Test loss: 0.0185`), if any.
std::string_view word_before_prefix(std::string_view line, size_t i) {
  size_t e = i;
  while (e > 0 && is_space(line[e - 1])) --e;
  if (e == i || e == 0) return "";
  size_t b = e;
  while (b > 0 && is_alpha(line[b - 1])) --b;
  if (b > 0 && is_name_char(line[b - 1])) return "";
  return evaluation_prefix(line.substr(b, e - b));
}

// The prefix every pair of an evaluation's line takes (`Test set: Average loss: 0.0335`).
std::string_view line_prefix(std::string_view line) {
  size_t b = 0;
  while (b < line.size() && is_space(line[b])) ++b;
  size_t e = b;
  while (e < line.size() && is_alpha(line[e])) ++e;
  if (e < line.size() && is_name_char(line[e])) return "";
  return evaluation_prefix(line.substr(b, e - b));
}

bool has_evaluation_prefix(std::string_view name) {
  for (std::string_view p : {"test_", "eval_", "val_", "train_"})
    if (name.starts_with(p)) return true;
  return false;
}

// Tries a pair whose name starts at line[i]; returns where scanning goes on.
size_t try_pair(std::string_view line, size_t i, std::string_view prefix,
                std::vector<ScannedPair>& out) {
  size_t j = i;
  while (j < line.size() && is_name_char(line[j])) ++j;
  size_t end = j;
  while (end > i && !is_word(line[end - 1])) --end;  // `/ - .` only inside a name
  char quote = i > 0 && (line[i - 1] == '\'' || line[i - 1] == '"') ? line[i - 1] : '\0';
  size_t value_at = 0;
  auto sep = read_separator(line, end, quote, value_at);
  if (!sep) return j;
  ScannedPair pair;
  pair.sep = *sep;
  for (size_t k = i; k < end; ++k) pair.name += lower(line[k]);
  size_t e = read_value(line, value_at, pair);
  if (e == 0) return j;
  auto before = word_before_prefix(line, i);
  if (!before.empty()) prefix = before;
  bool position = is_epoch_name(pair.name) || is_step_name(pair.name);
  if (!prefix.empty() && !position && !has_evaluation_prefix(pair.name))
    pair.name = std::string(prefix) + pair.name;
  out.push_back(std::move(pair));
  return e;
}

constexpr std::string_view kNamePartStems[] = {
    "loss",  "acc", "accuracy", "lr",   "perplexity", "ppl",   "f1",   "precision", "recall",
    "auc",   "mae", "mse",      "rmse", "bleu",       "rouge", "top1", "top5",      "err",
    "error", "wer", "cer",      "iou",  "miou",       "map",   "dice", "reward",    "score",
    "nll",   "kl",  "entropy",  "psnr", "ssim",       "fid",   "norm"};

}  // namespace

bool is_epoch_name(std::string_view n) {
  return n == "epoch";
}
bool is_step_name(std::string_view n) {
  return equals_any(n, {"step", "global_step", "iter", "iteration"});
}

namespace {

constexpr std::string_view kHyperparameterStems[] = {
    "batch",     "bs",        "epochs", "seed",   "dropout",      "momentum", "decay",
    "warmup",    "wd",        "beta1",  "beta2",  "eps",          "epsilon",  "gamma",
    "alpha",     "lambda",    "clip",   "hidden", "layers",       "heads",    "dim",
    "size",      "workers",   "steps",  "accum",  "accumulation", "patience", "temperature",
    "optimizer", "scheduler", "lr"};

// True when a `_ / - .` separated part of the name is one of the stems.
template <size_t N>
bool has_part(std::string_view n, const std::string_view (&stems)[N]) {
  size_t start = 0;
  while (start <= n.size()) {
    size_t stop = n.find_first_of("_/-.", start);
    if (stop == std::string_view::npos) stop = n.size();
    std::string_view part = n.substr(start, stop - start);
    for (std::string_view stem : stems) {
      if (part == stem) return true;
    }
    start = stop + 1;
  }
  return false;
}

}  // namespace

bool is_metric_like(std::string_view n) {
  return n == "learning_rate" || has_part(n, kNamePartStems);
}

bool is_hyperparameter_like(std::string_view n) {
  return n == "learning_rate" || has_part(n, kHyperparameterStems);
}

bool is_process_name(std::string_view n) {
  return equals_any(n, {"pid", "rank", "local_rank", "node_rank", "world_size", "port", "v_num",
                        "gpu", "gpus", "device", "version", "id"});
}

bool is_config_name(std::string_view n) {
  return equals_any(
      n, {"pid",     "rank",   "local_rank", "node_rank", "world_size", "seed",       "port",
          "v_num",   "gpu",    "gpus",       "device",    "version",    "batch_size", "num_workers",
          "workers", "epochs", "steps",      "max_steps", "max_epochs", "id"});
}

std::optional<double> parse_number(std::string_view token) {
  if (!token.empty() && token[0] == '+') token.remove_prefix(1);
  double value = 0;
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || ptr != token.data() + token.size()) return std::nullopt;
  return value;
}

std::vector<ScannedPair> scan_pairs(std::string_view line) {
  std::vector<ScannedPair> out;
  const auto prefix = line_prefix(line);
  size_t i = 0;
  while (i < line.size()) {
    bool boundary = i == 0 || !is_name_char(line[i - 1]);
    if (boundary && (is_alpha(line[i]) || line[i] == '_')) {
      i = try_pair(line, i, prefix, out);
    } else {
      ++i;
    }
  }
  return out;
}

}  // namespace trainyard::detail
