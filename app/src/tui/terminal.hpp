// The Terminal interface: the UI loop's only way to draw and read keys.
#pragma once

#include <deque>
#include <optional>
#include <string>

#include "widgets/canvas.hpp"
#include "widgets/key.hpp"

namespace trainyard {

/// Columns and rows.
struct TermSize {
  int width = 80;
  int height = 24;
};

/// A place to present canvases and read keys from: ncurses, or headless for tests.
class Terminal {
 public:
  virtual ~Terminal() = default;
  /// Current size.
  virtual TermSize size() const = 0;
  /// Shows the canvas (only changed cells reach a real terminal).
  virtual void present(const Canvas& canvas) = 0;
  /// The next key if one is waiting; never blocks.
  virtual std::optional<KeyEvent> read_key() = 0;
  /// An fd to poll() for input, or -1 when keys are injected.
  virtual int input_fd() const = 0;
  /// Gives the terminal back as it was before the UI (an editor runs in it meanwhile).
  virtual void suspend() {}
  /// Takes the terminal again after suspend() and redraws it whole at the next present().
  virtual void resume() {}
};

/// A terminal in memory: fixed size, scripted keys, remembers the last frame.
class HeadlessTerminal final : public Terminal {
 public:
  explicit HeadlessTerminal(TermSize size) : size_(size), last_(size.width, size.height) {}
  TermSize size() const override { return size_; }
  void present(const Canvas& canvas) override {
    last_ = canvas;
    ++frames_;
  }
  std::optional<KeyEvent> read_key() override {
    if (keys_.empty()) return std::nullopt;
    auto k = keys_.front();
    keys_.pop_front();
    return k;
  }
  int input_fd() const override { return -1; }

  /// Queues a key for read_key().
  void push_key(const KeyEvent& k) { keys_.push_back(k); }
  /// Changes the size (as a resize would) and queues Key::Resize.
  void resize(TermSize s) {
    size_ = s;
    keys_.push_back(KeyEvent::named(Key::Resize));
  }
  /// The last presented frame.
  const Canvas& last_frame() const { return last_; }
  /// How many frames were presented.
  int frames() const { return frames_; }

 private:
  TermSize size_;
  Canvas last_;
  std::deque<KeyEvent> keys_;
  int frames_ = 0;
};

}  // namespace trainyard
