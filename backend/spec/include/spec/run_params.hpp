// The parameters of a run by name, as a sweep table shows them: read from a task factory's
// placeholders, from argparse-style flags (`--lr 0.01`, `--lr=0.01`) and from `key=value` words
// of a command line. Values are the text the command line has (after shell quoting is removed).
#pragma once

#include <string_view>
#include <vector>

#include "core/entities.hpp"
#include "core/result.hpp"
#include "spec/sweep.hpp"

namespace trainyard::spec {

/// The named values of a command line, in order of first appearance (a repeated name keeps its
/// last value, as argparse does): `--name value` and `-name value` (a value not starting with `-`
/// unless it is a negative number), `--name=value`, `key=value` (key an identifier), and a
/// one-letter flag only with a number (`-b 32`, not `-u train.py`). A quoted word holding spaces
/// (a `bash -c` script) is read as a command line of its own.
std::vector<NameValue> command_line_parameters(std::string_view command_line);

/// What a Shipyard task factory set in `command_template` (`command.format(*args)`): each named
/// flag or key whose value holds a placeholder, with its formatted value; a placeholder outside
/// any (a positional argument) is named after its field, `{0}`. Fails where str.format would.
Result<std::vector<NameValue>> placeholder_parameters(std::string_view command_template,
                                                      const PyArgs& args);

/// Parameters stored by position (`0`, `1`, …) named after the command line's flag that has the
/// same value; one without such a flag becomes `{N}`. Named parameters are returned as they are.
std::vector<NameValue> name_positional_parameters(std::vector<NameValue> params,
                                                  std::string_view command_line);

}  // namespace trainyard::spec
