// The service's own reading of the times and durations clients send, written apart from the
// client's formatter (core/time) so that a mistake on one side cannot pass the other unnoticed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model.hpp"

namespace trainyard::emu {

/// A `$filter` DateTime (`2025-01-02T03:04:05.1234567Z`): `T`, seconds optional, 1 to 7
/// fraction digits (truncated to microseconds), UTC as `Z`, `+00:00` or no zone. Anything
/// else (another offset, a bad calendar date) is nullopt.
std::optional<Micros> read_wire_time(std::string_view text);

/// An xs:duration as the service reads one (`PT1H30M`, `P1DT2H`, `PT0.5S`): days, then `T`
/// and hours, minutes, seconds in that order, each at most once, a fraction (up to 7 digits)
/// only on seconds, at most TimeSpan.MaxValue (`P10675199DT2H48M5.4775807S`). A sign, weeks,
/// years, months or an empty part is nullopt. Microseconds (100 ns ticks truncated).
std::optional<Micros> read_wire_duration(std::string_view text);

/// The service's text for a duration: `PT0S`, `PT1H30M`, `P1DT2H`, `PT0.5S`; TimeSpan.MaxValue
/// (what read_wire_duration makes of it, or more) as `P10675199DT2H48M5.4775807S`.
std::string write_wire_duration(Micros us);

}  // namespace trainyard::emu
