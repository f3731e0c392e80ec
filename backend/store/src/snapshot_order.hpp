// Store-private: the rule that keeps the cache from going back in time. A listing page read
// before the poller stored a newer version of an entity must not replace that version.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "statement.hpp"

namespace trainyard::detail {

/// The `WHERE` of an `ON CONFLICT … DO UPDATE` on `table` that lets the incoming row replace the
/// stored one unless it is an older snapshot: its lastModified is earlier, or equal with an
/// earlier stateTransitionTime. Equal times with another eTag replace (an eTag is opaque, so
/// two versions of one instant cannot be ordered, and the one read last is kept). A row
/// without lastModified on either side (local runs, rows from before it was stored) is always
/// replaced, as every upsert was before.
inline std::string replaces_unless_older(std::string_view table) {
  const std::string t(table);
  return " WHERE coalesce(excluded.last_modified > " + t + ".last_modified, 1) OR " +
         "(excluded.last_modified = " + t + ".last_modified AND " +
         "coalesce(excluded.state_transition_time >= " + t + ".state_transition_time, 1))";
}

/// `INSERT INTO table(columns) VALUES (?1 …) ON CONFLICT(the first key_count columns) DO UPDATE`
/// of every other column, with `guard` (a WHERE, may be empty). `columns` is comma-separated.
inline std::string upsert_sql(std::string_view table, std::string_view columns, size_t key_count,
                              const std::string& guard) {
  std::string params, keys, set;
  size_t i = 0;
  for (size_t pos = 0; pos <= columns.size(); ++i) {
    auto comma = std::min(columns.find(',', pos), columns.size());
    auto name = std::string(columns.substr(pos, comma - pos));
    name.erase(0, name.find_first_not_of(' '));
    params += (i ? ", ?" : "?") + std::to_string(i + 1);
    if (i < key_count)
      keys += (keys.empty() ? "" : ", ") + name;
    else
      set += (set.empty() ? "" : ", ") + name + " = excluded." + name;
    pos = comma + 1;
  }
  return "INSERT INTO " + std::string(table) + "(" + std::string(columns) + ") VALUES (" + params +
         ") ON CONFLICT(" + keys + ") DO UPDATE SET " + set + guard;
}

/// Whether the last INSERT … ON CONFLICT on this connection wrote its row (0 when the
/// conflict's WHERE kept the stored one).
inline bool wrote_row(const StatementCache& c) {
  return sqlite3_changes(c.db()) > 0;
}

}  // namespace trainyard::detail
