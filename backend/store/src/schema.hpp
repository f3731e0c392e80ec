// Schema migrations (store-private).
#pragma once

#include <sqlite3.h>

#include <string>

#include "core/result.hpp"

namespace trainyard::detail {

/// The newest schema version this build knows.
int latest_schema_version();

/// Refuses an SQLite file that some other program made (tables but user_version 0); runs
/// before anything writes, so such a file is left untouched.
Result<void> check_is_ours(sqlite3* db, const std::string& path);

/// Brings the database to latest_schema_version() in one IMMEDIATE transaction; returns the
/// version. A database from a newer trainyard is refused, untouched.
Result<int> migrate(sqlite3* db, const std::string& path);

}  // namespace trainyard::detail
