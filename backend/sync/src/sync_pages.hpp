// Sync-private: a list written page by page, and the pruning of cached ids the service lacks.
#pragma once

#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "azure/batch_client.hpp"
#include "store/store.hpp"
#include "sync/batch_sync.hpp"

namespace trainyard::detail {

/// Lists `path` and writes each page's items in one transaction, so a reader never sees half a
/// page; the ids written go to `seen`.
template <typename T, typename Parse, typename Write>
Result<void> sync_list(Store& store, azure::BatchClient& client, const std::string& path,
                       const azure::Query& q, Parse parse, Write write, std::set<std::string>& seen,
                       SyncStats& stats) {
  return client.list(path, q, [&](const azure::ListPage& page) -> Result<void> {
    std::vector<T> items;
    items.reserve(page.items.size());
    for (const auto& j : page.items) {
      auto e = parse(j);
      if (!e) return make_error(ErrorKind::Parse, fmt::format("{}: {}", path, e.error().message));
      items.push_back(std::move(*e));
    }
    return store.write([&]() -> Result<void> {
      for (const auto& item : items) {
        if (auto ok = write(item); !ok) return ok;
        seen.insert(item.id);
        ++stats.entities;
      }
      return {};
    });
  });
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
