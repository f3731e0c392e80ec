#include "file_mover.hpp"

namespace trainyard::emu {

FileMover::FileMover() : thread_([this] { loop(); }) {}

FileMover::~FileMover() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    queue_.clear();
  }
  wake_.notify_all();
  thread_.join();
}

void FileMover::submit(Work work) {
  {
    std::lock_guard lock(mu_);
    queue_.push_back(std::move(work));
  }
  wake_.notify_all();
}

std::vector<FileMover::Done> FileMover::take_done() {
  std::lock_guard lock(mu_);
  return std::exchange(done_, {});
}

void FileMover::loop() {
  for (;;) {
    Work w;
    {
      std::unique_lock lock(mu_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      w = std::move(queue_.front());
      queue_.pop_front();
    }
    // Exceptions never leave this thread: a transfer that throws failed.
    std::optional<FileFailure> failure;
    try {
      failure = w.run();
    } catch (const std::exception& e) {
      failure = FileFailure{w.upload ? "FileUploadMiscError" : "BlobDownloadMiscError", e.what()};
    }
    std::lock_guard lock(mu_);
    done_.push_back({w.job, w.task, w.generation, w.upload, std::move(failure)});
  }
}

}  // namespace trainyard::emu
