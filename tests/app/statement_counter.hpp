// A test's count of the statements one SQLite connection runs.
#pragma once

#include <sqlite3.h>

#include <cstdlib>
#include <iostream>

namespace trainyard {

/// Counts every statement started on one connection while it lives (TY_SHOW_SQL=1 prints them).
class StatementCounter {
 public:
  explicit StatementCounter(sqlite3* db) : db_(db) {
    sqlite3_trace_v2(db_, SQLITE_TRACE_STMT, &StatementCounter::on_statement, this);
  }
  ~StatementCounter() { sqlite3_trace_v2(db_, 0, nullptr, nullptr); }
  int count() const { return count_; }

 private:
  static int on_statement(unsigned, void* self, void*, void* sql) {
    if (getenv("TY_SHOW_SQL")) std::cout << "SQL " << static_cast<const char*>(sql) << "\n";
    ++static_cast<StatementCounter*>(self)->count_;
    return 0;
  }
  sqlite3* db_;
  int count_ = 0;
};

}  // namespace trainyard
