#include "progress_line.hpp"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

#include "cmd_storage.hpp"
#include "output.hpp"

namespace trainyard {

namespace {
// Back to the line's start, and erase it.
constexpr std::string_view kEraseLine = "\r\x1b[2K";
}  // namespace

std::string progress_text(const std::string& name, uint64_t done, uint64_t total, double seconds,
                          int width) {
  const double fraction = total == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
  const int filled = static_cast<int>(fraction * width);
  std::string bar = std::string(static_cast<size_t>(filled), '#') +
                    std::string(static_cast<size_t>(width - filled), '.');
  std::string rate =
      seconds > 0 ? human_size(static_cast<uint64_t>(static_cast<double>(done) / seconds)) + "/s"
                  : "";
  return fmt::format("{}  [{}] {:3}%  {} / {}  {}", name, bar, static_cast<int>(fraction * 100),
                     human_size(done), human_size(total), rate);
}

ProgressLine::ProgressLine(std::string name)
    : name_(std::move(name)),
      tty_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()) {}

void ProgressLine::update(uint64_t done_bytes, uint64_t total_bytes) {
  if (!tty_) return;
  auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100) && done_bytes < total_bytes) return;
  last_ = now;
  shown_ = true;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  out::raw(stderr, kEraseLine);  // our own control sequence; the text after it is sanitized
  out::text(stderr, progress_text(name_, done_bytes, total_bytes, seconds));
}

void ProgressLine::done() {
  if (!shown_) return;
  out::raw(stderr, kEraseLine);
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace trainyard
