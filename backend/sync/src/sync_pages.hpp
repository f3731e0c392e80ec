// Sync-private: a list written page by page, and the pruning of cached ids the service lacks.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "azure/batch_client.hpp"
#include "store/store.hpp"
#include "sync/batch_sync.hpp"

namespace trainyard::detail {

/// Writes pages on a thread of its own while the caller fetches and parses the next one: the
/// service's time and ours overlap. At most two parsed pages wait, so memory stays flat however
/// long the list. The pages waiting when the writer turns to them are written in one transaction
/// (so a writer that falls behind commits less often), and a reader never sees half a page. The
/// store is used by this thread alone while the writer lives.
template <typename T>
class PageWriter {
 public:
  /// Writes one page's items (inside its transaction).
  using Write = std::function<Result<void>(const std::vector<T>&)>;
  /// Runs in each page's transaction with the page's next link (empty on the last page).
  using AfterPage = std::function<Result<void>(const std::string& next_link)>;

  PageWriter(Store& store, Write write, AfterPage after_page, std::set<std::string>& seen,
             SyncStats& stats)
      : store_(store),
        write_(std::move(write)),
        after_page_(std::move(after_page)),
        seen_(seen),
        stats_(stats),
        thread_([this] { run(); }) {}
  ~PageWriter() { (void)finish(); }
  PageWriter(const PageWriter&) = delete;
  PageWriter& operator=(const PageWriter&) = delete;

  /// Queues a page (waiting while two are queued); the writer's first error, if it failed.
  Result<void> push(std::vector<T>&& items, std::string next_link) {
    std::unique_lock<std::mutex> g(mu_);
    cv_.wait(g, [&] { return pages_.size() < 2 || error_; });
    if (error_) return *error_;
    pages_.push_back({std::move(items), std::move(next_link)});
    cv_.notify_all();
    return {};
  }
  /// Waits for every queued page to be written; the first error, if any.
  Result<void> finish() {
    {
      std::lock_guard<std::mutex> g(mu_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    if (error_) return *error_;
    return {};
  }

 private:
  struct Page {
    std::vector<T> items;
    std::string next_link;
  };

  void run() {
    for (;;) {
      std::deque<Page> pages;
      {
        std::unique_lock<std::mutex> g(mu_);
        cv_.wait(g, [&] { return !pages_.empty() || done_; });
        if (pages_.empty()) return;
        pages.swap(pages_);
        cv_.notify_all();
      }
      if (auto ok = write_pages(pages); !ok) {
        std::lock_guard<std::mutex> g(mu_);
        error_ = ok.error();
        cv_.notify_all();
        return;
      }
    }
  }

  // The pages in one transaction; `after_page` runs after each (the last one's link is the one
  // that stays).
  Result<void> write_pages(const std::deque<Page>& pages) {
    return store_.write([&]() -> Result<void> {
      for (const auto& page : pages) {
        TY_TRY(write_(page.items));
        for (const auto& item : page.items) seen_.insert(item.id);
        stats_.entities += static_cast<int64_t>(page.items.size());
        if (after_page_) TY_TRY(after_page_(page.next_link));
      }
      return {};
    });
  }

  Store& store_;
  Write write_;
  AfterPage after_page_;
  std::set<std::string>& seen_;
  SyncStats& stats_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Page> pages_;
  std::optional<Error> error_;
  bool done_ = false;
  std::thread thread_;  // last: started once everything it uses exists
};

/// Where a list starts: `path` with `query`, or, when `resume_link` is set, that next-page link
/// of an earlier listing of `path`.
struct ListStart {
  std::string path;
  azure::Query query;
  std::string resume_link;
};

/// Lists and writes each page's items (converted by `parse`, written one by one by `write`) in
/// one transaction per page, with `after_page` (may be empty) in the same transaction; the ids
/// written go to `seen`.
template <typename T, typename Parse, typename Write>
Result<void> sync_list(Store& store, azure::BatchClient& client, const ListStart& start,
                       Parse parse, Write write, std::set<std::string>& seen, SyncStats& stats,
                       typename PageWriter<T>::AfterPage after_page = {}) {
  auto write_all = [&](const std::vector<T>& items) -> Result<void> {
    for (const auto& item : items) TY_TRY(write(item));
    return {};
  };
  PageWriter<T> writer(store, write_all, std::move(after_page), seen, stats);
  auto push = [&](azure::ListPage& page) -> Result<void> {
    std::vector<T> items;
    items.reserve(page.items.size());
    for (const auto& j : page.items) {
      auto e = parse(j);
      if (!e)
        return make_error(ErrorKind::Parse, fmt::format("{}: {}", start.path, e.error().message));
      items.push_back(std::move(*e));
    }
    return writer.push(std::move(items), page.next_link);
  };
  auto listed = start.resume_link.empty() ? client.list(start.path, start.query, push)
                                          : client.list_from(start.resume_link, push);
  auto written = writer.finish();
  if (!listed) return listed;
  return written;
}

/// Deletes each of `cached` not in `seen` with `remove(id)`, in one transaction.
template <typename Remove>
Result<void> prune(Store& store, const std::vector<std::string>& cached,
                   const std::set<std::string>& seen, Remove remove, SyncStats& stats) {
  return store.write([&]() -> Result<void> {
    for (const auto& id : cached) {
      if (seen.count(id)) continue;
      if (auto d = remove(id); !d) return d;
      ++stats.deleted;
    }
    return {};
  });
}

}  // namespace trainyard::detail
