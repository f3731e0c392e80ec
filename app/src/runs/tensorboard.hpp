// Internal: TensorBoard on a local run's working directory, as a child the TUI supervises: it
// is stopped (its whole process group) when another run's takes its place and when the TUI exits.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace trainyard {

/// The full path of `program` found on `path` (a PATH value); none when it is not there.
std::optional<std::string> find_on_path(const std::string& program, const std::string& path);

/// The first port from `first` to `first + 19` free on 127.0.0.1; none when all are taken.
std::optional<int> free_local_port(int first);

/// One TensorBoard at a time.
class TensorBoard {
 public:
  TensorBoard() = default;
  /// Stops it.
  ~TensorBoard();
  TensorBoard(const TensorBoard&) = delete;
  TensorBoard& operator=(const TensorBoard&) = delete;

  /// Starts `program --logdir DIR --host 127.0.0.1 --port P` (the one running before is
  /// stopped) with `env`; its URL (`http://127.0.0.1:6006/`). The same directory again gives
  /// the running one's URL.
  Result<std::string> start(const std::string& program, const std::string& logdir,
                            const std::vector<std::string>& env);
  /// Ends its process group (TERM, then KILL after 2 s) and reaps it.
  void stop();
  /// Its process id; 0 when none runs.
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = 0;
  std::string logdir_, url_;
};

}  // namespace trainyard
