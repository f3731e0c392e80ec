#include "posix_regex.hpp"

#include <regex.h>

#include "regex_budget.hpp"

namespace trainyard {

struct PosixRegex::Compiled {
  regex_t re{};
  bool ok = false;  // regfree only what regcomp built: POSIX leaves a failed one undefined
};

PosixRegex::PosixRegex() : compiled_(std::make_unique<Compiled>()) {}

PosixRegex::~PosixRegex() {
  if (compiled_->ok) ::regfree(&compiled_->re);
}

Result<std::shared_ptr<const PosixRegex>> PosixRegex::compile(std::string_view pattern,
                                                              bool ignore_case) {
  if (!(regex_cost(pattern) <= kRegexBudget))
    return make_error(ErrorKind::Usage, "too many repetitions to compile");
  std::shared_ptr<PosixRegex> out(new PosixRegex());
  int flags = REG_EXTENDED | (ignore_case ? REG_ICASE : 0);
  int rc = ::regcomp(&out->compiled_->re, std::string(pattern).c_str(), flags);
  if (rc != 0) {
    char why[128];
    ::regerror(rc, &out->compiled_->re, why, sizeof why);
    return make_error(ErrorKind::Usage, why);
  }
  out->compiled_->ok = true;
  return std::shared_ptr<const PosixRegex>(std::move(out));
}

namespace {

std::string window_of(const std::string& text) {
  return text.substr(0, kRegexWindow);
}

}  // namespace

bool PosixRegex::matches(const std::string& text) const {
  return ::regexec(&compiled_->re, window_of(text).c_str(), 0, nullptr, 0) == 0;
}

std::optional<std::pair<size_t, size_t>> PosixRegex::find(const std::string& text) const {
  regmatch_t m{};
  if (::regexec(&compiled_->re, window_of(text).c_str(), 1, &m, 0) != 0 || m.rm_so < 0)
    return std::nullopt;
  return std::pair{static_cast<size_t>(m.rm_so), static_cast<size_t>(m.rm_eo - m.rm_so)};
}

}  // namespace trainyard
