// Runs tasks' file transfers (resourceFiles before, outputFiles after) on a thread of their own,
// so the account's lock is never held across a download or an upload.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "task_files.hpp"

namespace trainyard::emu {

class FileMover {
 public:
  /// One transfer: which run of which task, and what it does.
  struct Work {
    std::string job, task;
    int generation = 0;  ///< the task's engine generation when it was asked for
    bool upload = false;
    std::function<std::optional<FileFailure>()> run;
  };
  /// A transfer that ended, with why it failed.
  struct Done {
    std::string job, task;
    int generation = 0;
    bool upload = false;
    std::optional<FileFailure> failure;
  };

  FileMover();
  /// Waits for the transfer in progress; those queued are dropped.
  ~FileMover();
  FileMover(const FileMover&) = delete;
  FileMover& operator=(const FileMover&) = delete;

  void submit(Work work);
  /// The transfers that ended since the last call.
  std::vector<Done> take_done();

 private:
  void loop();
  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<Work> queue_;
  std::vector<Done> done_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace trainyard::emu
