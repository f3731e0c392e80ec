// Metric extraction: position tracking on top of the scanner, plus user regex patterns.
#include "sync/metric_parser.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>

#include "core/text.hpp"
#include "metric_scan.hpp"

namespace trainyard {

struct MetricParser::UserPattern {
  std::string name;
  std::regex regex;
};

MetricParser::MetricParser() = default;
MetricParser::~MetricParser() = default;
MetricParser::MetricParser(MetricParser&&) noexcept = default;
MetricParser& MetricParser::operator=(MetricParser&&) noexcept = default;

namespace {

bool accepted(const detail::ScannedPair& p) {
  if (p.sep == detail::PairSep::Equals || p.sep == detail::PairSep::QuotedKey) {
    return !detail::is_config_name(p.name);
  }
  return detail::is_metric_like(p.name);
}

bool has_name(const std::vector<ParsedMetric>& points, std::string_view name) {
  return std::any_of(points.begin(), points.end(), [&](const auto& p) { return p.name == name; });
}

// How much of a line a user pattern sees: std::regex recurses once or more per character it
// walks, so a pattern such as `(a|b)*` over a 20,000-character line overflows the stack (a
// printed tensor or a progress bar can be that long); a metric sits near a line's start.
constexpr size_t kPatternWindow = 2048;

// Runs one user pattern; regex errors at match time (complexity limits) count as no match.
std::optional<double> match_pattern(const std::regex& regex, std::string_view line) {
  line = line.substr(0, kPatternWindow);
  try {
    std::match_results<std::string_view::const_iterator> m;
    if (!std::regex_search(line.begin(), line.end(), m, regex) || m.size() < 2) return std::nullopt;
    std::string token = m[1].str();
    token.erase(0, token.find_first_not_of(" \t"));
    token.erase(token.find_last_not_of(" \t") + 1);
    return detail::parse_number(token);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Sets the position from the line's pairs; true when it had one.
// Positions first: `loss=0.3 step=100` means the loss of step 100.
bool take_positions(const std::vector<detail::ScannedPair>& pairs, std::optional<int64_t>& step,
                    std::optional<double>& epoch) {
  bool any = false;
  for (const auto& p : pairs) {
    if (detail::is_epoch_name(p.name) && p.value >= 0 && std::isfinite(p.value)) {
      epoch = p.value;
      any = true;
    }
    if (detail::is_step_name(p.name) && p.integral && p.value >= 0 && p.value < 9e18) {
      step = static_cast<int64_t>(p.value);
      any = true;
    }
  }
  return any;
}

// The epoch a line prints when it prints no step.
std::optional<double> own_epoch(const std::vector<detail::ScannedPair>& pairs) {
  std::optional<double> epoch;
  for (const auto& p : pairs) {
    if (detail::is_step_name(p.name)) return std::nullopt;
    if (detail::is_epoch_name(p.name) && p.value >= 0 && std::isfinite(p.value)) epoch = p.value;
  }
  return epoch;
}

bool is_position(const detail::ScannedPair& p) {
  return detail::is_epoch_name(p.name) || detail::is_step_name(p.name);
}

std::vector<ParsedMetric> builtin_points(const std::vector<detail::ScannedPair>& pairs,
                                         std::optional<int64_t> step, std::optional<double> epoch) {
  std::vector<ParsedMetric> points;
  for (const auto& p : pairs) {
    if (is_position(p) || !accepted(p) || has_name(points, p.name)) continue;
    points.push_back(ParsedMetric{p.name, p.value, step, epoch});
  }
  return points;
}

// A pair that configures the run although it is no metric (`seed=1`, `batch: 64`).
bool parameter_like(const detail::ScannedPair& p) {
  if (p.sep == detail::PairSep::Equals || p.sep == detail::PairSep::QuotedKey)
    return !detail::is_process_name(p.name);
  return p.sep == detail::PairSep::Colon && detail::is_hyperparameter_like(p.name);
}

}  // namespace

void MetricParser::add_pattern_points(std::string_view line,
                                      std::vector<ParsedMetric>& points) const {
  for (const auto& pattern : patterns_) {
    if (has_name(points, pattern.name)) continue;
    if (auto v = match_pattern(pattern.regex, line)) {
      points.push_back(ParsedMetric{pattern.name, *v, step_, epoch_});
    }
  }
}

std::vector<ParsedMetric> MetricParser::parse_line(std::string_view line) {
  auto pairs = detail::scan_pairs(line);
  take_positions(pairs, step_, epoch_);
  auto points = builtin_points(pairs, step_, epoch_);
  add_pattern_points(line, points);
  return points;
}

std::optional<uint64_t> MetricParser::first_held_line(
    const std::vector<ParsedMetric>& points) const {
  std::optional<uint64_t> first;
  for (const auto& h : held_)
    if (has_name(points, h.metric.name) && (!first || h.line < *first)) first = h.line;
  return first;
}

// Held values from line `first` on become metric points, one record per line.
void MetricParser::release_from(uint64_t first, ParsedLine& out) {
  for (auto& h : held_) {
    if (h.line < first) continue;
    if (out.records.empty() || out.records.back().line != h.line)
      out.records.push_back(ParsedRecord{h.line, {}});
    out.not_parameters.push_back(h.metric.name);
    out.records.back().metrics.push_back(std::move(h.metric));
  }
  end_prelude();
}

ParsedLine MetricParser::parse(std::string_view line) {
  ++line_;
  auto pairs = detail::scan_pairs(line);
  bool positioned = take_positions(pairs, step_, epoch_);
  auto points = builtin_points(pairs, step_, epoch_);
  add_pattern_points(line, points);
  ParsedLine out;
  bool by_pattern = std::any_of(patterns_.begin(), patterns_.end(),
                                [&](const UserPattern& u) { return has_name(points, u.name); });
  if (prelude_ && (positioned || by_pattern)) end_prelude();
  if (prelude_) {
    if (auto first = first_held_line(points)) {
      release_from(*first, out);
    } else {
      for (const auto& p : pairs) {
        if (is_position(p) || !(has_name(points, p.name) || parameter_like(p))) continue;
        out.parameters.push_back(
            NameValue{p.name, std::string(line.substr(p.value_at, p.value_len))});
      }
      for (auto& m : points) held_.push_back(Held{line_, std::move(m)});
      return out;
    }
  }
  if (!points.empty())
    out.records.push_back(ParsedRecord{line_, std::move(points), own_epoch(pairs)});
  return out;
}

Result<void> MetricParser::add_pattern(std::string name, std::string_view regex) {
  if (name.empty()) return make_error(ErrorKind::Usage, "metric pattern needs a name");
  try {
    std::regex re(regex.begin(), regex.end(), std::regex::ECMAScript | std::regex::optimize);
    if (re.mark_count() < 1) {
      return make_error(ErrorKind::Usage, "metric pattern for '" + name + "' has no capture group");
    }
    patterns_.push_back(UserPattern{std::move(name), std::move(re)});
    return ok_result();
  } catch (const std::regex_error& e) {
    return make_error(ErrorKind::Parse, "bad metric pattern for '" + name + "': " + e.what());
  }
}

std::string main_metric(const std::vector<std::string>& names_in_order) {
  for (std::string_view preferred : {"loss", "val_loss"}) {
    if (std::find(names_in_order.begin(), names_in_order.end(), preferred) !=
        names_in_order.end()) {
      return std::string(preferred);
    }
  }
  return names_in_order.empty() ? std::string() : names_in_order.front();
}

bool metric_lower_is_better(std::string_view name) {
  const std::string n = ascii_lowercase(name);
  return n.find("loss") != std::string::npos || n.find("err") != std::string::npos;
}

}  // namespace trainyard
