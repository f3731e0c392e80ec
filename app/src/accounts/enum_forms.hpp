// Internal: the short forms of enum values that narrow tables show instead of cutting them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "widgets/table.hpp"

namespace trainyard {

/// The short form of an enum's wire value (`running` → `run`, `completed` → `done`,
/// `waitingforstarttask` → `waiting`); one table for every enum, so a word reads the same in
/// every pane. Values without one are returned unchanged.
std::string short_form(std::string_view wire);

/// A table cell showing `wire`, with its short form for a table too narrow for full forms.
TableCell enum_cell(std::string_view wire, std::optional<Role> role);

}  // namespace trainyard
