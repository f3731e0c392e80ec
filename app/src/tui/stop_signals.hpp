// SIGTERM, SIGHUP and SIGINT while the TUI runs: turned into a readable fd the UI loop polls, so
// the TUI ends the way a quit does (pollers stopped, terminal restored) instead of dying in
// alternate-screen raw mode.
#pragma once

namespace trainyard {

/// Catches the stop signals for its lifetime (one instance at a time). Install it before curses
/// starts: curses then leaves those signals to us. A second signal of a kind ends the process at
/// once (the handler resets itself), so a TUI that cannot quit can still be stopped.
class StopSignals {
 public:
  StopSignals();
  /// Puts back the dispositions found at construction.
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// Readable once a stop signal arrived (-1 if the pipe could not be made).
  int fd() const { return read_fd_; }
  /// The signal that arrived, or 0.
  int received() const;
  /// Ends the process by the signal that arrived, so the parent sees how it ended (nothing when
  /// none did). Call it once the terminal is restored.
  void reraise() const;

 private:
  int read_fd_ = -1;
};

}  // namespace trainyard
