// Metric extraction: position tracking on top of the scanner, plus user regex patterns.
#include "sync/metric_parser.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>

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

// Runs one user pattern; regex errors at match time (complexity limits) count as no match.
std::optional<double> match_pattern(const std::regex& regex, std::string_view line) {
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

}  // namespace

std::vector<ParsedMetric> MetricParser::parse_line(std::string_view line) {
  std::vector<detail::ScannedPair> pairs = detail::scan_pairs(line);
  // Positions first: `loss=0.3 step=100` means the loss of step 100.
  for (const auto& p : pairs) {
    if (detail::is_epoch_name(p.name) && p.value >= 0 && std::isfinite(p.value)) epoch_ = p.value;
    if (detail::is_step_name(p.name) && p.integral && p.value >= 0 && p.value < 9e18) {
      step_ = static_cast<int64_t>(p.value);
    }
  }
  std::vector<ParsedMetric> points;
  for (auto& p : pairs) {
    if (detail::is_epoch_name(p.name) || detail::is_step_name(p.name)) continue;
    if (!accepted(p) || has_name(points, p.name)) continue;
    points.push_back(ParsedMetric{std::move(p.name), p.value, step_, epoch_});
  }
  for (const auto& pattern : patterns_) {
    if (has_name(points, pattern.name)) continue;
    if (auto v = match_pattern(pattern.regex, line)) {
      points.push_back(ParsedMetric{pattern.name, *v, step_, epoch_});
    }
  }
  return points;
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
  std::string n(name);
  for (auto& ch : n) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return n.find("loss") != std::string::npos || n.find("err") != std::string::npos;
}

}  // namespace trainyard
