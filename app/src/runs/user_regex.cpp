#include "user_regex.hpp"

#include <re2/re2.h>

namespace trainyard {

UserRegex::UserRegex(std::unique_ptr<re2::RE2> re) : re_(std::move(re)) {}

UserRegex::~UserRegex() = default;

Result<std::shared_ptr<const UserRegex>> UserRegex::compile(std::string_view pattern,
                                                            bool ignore_case) {
  re2::RE2::Options options;
  options.set_log_errors(false);  // RE2 would print its reason on stderr, over the TUI
  options.set_case_sensitive(!ignore_case);
  auto re = std::make_unique<re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re->ok()) return make_error(ErrorKind::Usage, re->error());
  return std::shared_ptr<const UserRegex>(new UserRegex(std::move(re)));
}

bool UserRegex::matches(std::string_view text) const {
  return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

std::optional<std::pair<size_t, size_t>> UserRegex::find(std::string_view text) const {
  re2::StringPiece whole(text.data(), text.size()), match;
  if (!re_->Match(whole, 0, whole.size(), re2::RE2::UNANCHORED, &match, 1)) return std::nullopt;
  return std::pair{static_cast<size_t>(match.data() - whole.data()), match.size()};
}

}  // namespace trainyard
