// Errors as values across library boundaries.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace trainyard {

/// What kind of failure an Error is; decides exit codes and retries.
enum class ErrorKind {
  Usage,     ///< bad input from the user (exit 2)
  NotFound,  ///< the named entity does not exist
  Conflict,  ///< the entity is in the wrong state or exists already
  Io,        ///< file system or process failure
  Db,        ///< SQLite failure
  Busy,      ///< another connection held the store's write lock past the busy timeout; retryable
  Parse,     ///< malformed data
  Network,   ///< transport failure, retryable
  Http,      ///< an HTTP error status
  Auth,      ///< authentication failure
  Internal,  ///< a bug
};

/// A failure with a one-line, user-facing message.
struct Error {
  ErrorKind kind = ErrorKind::Internal;
  std::string message;
};

/// Builds an Error; the usual way to fail a Result.
inline Error make_error(ErrorKind kind, std::string message) {
  return Error{kind, std::move(message)};
}

/// Either a value or an Error (C++20 stand-in for std::expected).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  /// True when a value is held.
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  /// The value; only valid when ok().
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  /// The value, or `fallback` when this holds an error.
  T value_or(T fallback) const& { return ok() ? std::get<0>(v_) : std::move(fallback); }

  /// The error; only valid when !ok().
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

/// Result of an operation that yields nothing on success.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error)
      : error_(std::move(error)), ok_(false) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

/// An empty success, for Result<void> returns.
inline Result<void> ok_result() {
  return {};
}

}  // namespace trainyard

// Returns the error of a failed Result from the enclosing function. __COUNTER__ keeps the
// temporary's name unique when TY_TRY nests (a lambda inside TY_TRY(read(...))).
#define TY_TRY_CAT2(a, b) a##b
#define TY_TRY_CAT(a, b) TY_TRY_CAT2(a, b)
#define TY_TRY(expr) TY_TRY_IMPL(expr, TY_TRY_CAT(ty_try_result_, __COUNTER__))
#define TY_TRY_IMPL(expr, var)    \
  do {                            \
    auto var = (expr);            \
    if (!var) return var.error(); \
  } while (0)
