// A bound on what a user's regular expression may cost to compile.
#pragma once

#include <string_view>

namespace trainyard {

/// The most states a user's regex may compile to (regex_cost's estimate).
inline constexpr double kRegexBudget = 10000;

/// An estimate of the states an extended regex (POSIX ERE, or the ECMAScript subset alike)
/// compiles to: each atom counts one, a group what it holds, and a repetition multiplies what it
/// repeats (`x{3}` three times; `+`, `*`, `?` twice, as glibc copies the repeated piece). glibc's
/// regcomp builds that many nodes and more, so `a+++…` or `((a{99}){99}){99}` would take
/// gigabytes of memory before matching anything; such a pattern is refused instead.
double regex_cost(std::string_view pattern);

}  // namespace trainyard
