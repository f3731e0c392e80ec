// Python value text and `str.format`, as Batch Shipyard substitutes task-factory values into a
// `command` (`command.format(*args)`): the text must be what Python writes, character for
// character.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/result.hpp"

namespace trainyard::spec {

/// A scalar as Python holds it after YAML loading or a random draw: None, bool, int, float, str.
using PyValue = std::variant<std::monostate, bool, int64_t, double, std::string>;

/// `repr(x)` of a float: shortest round-trip digits (`0.1`, `1e-05`, `1e+16`, `inf`, `-0.0`).
std::string py_repr_float(double x);
/// `str(v)`: `None`, `True`, `42`, float repr, or the string itself.
std::string py_str(const PyValue& v);
/// `repr(v)`: like py_str, but strings are quoted and escaped as Python does.
std::string py_repr(const PyValue& v);

/// `fmt.format(*args)`: `{}` auto-numbered, `{0}` explicit, `{{`/`}}` escapes, `!s`/`!r`
/// conversions, and the format-spec subset fill/align/sign/`0`/width/`.precision` with types
/// `s d f F e E g G %`. A Usage error carries Python's message where Python would raise.
Result<std::string> py_format(std::string_view fmt, const std::vector<PyValue>& args);

}  // namespace trainyard::spec
