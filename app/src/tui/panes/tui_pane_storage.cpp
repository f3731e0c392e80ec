// The Storage pane: the storage accounts trainyard knows, an account's containers, and a
// container's blobs with `/` as folders. Listings come from the storage worker and are kept
// for the session; Enter opens a container or folder, or a text blob in the log view; `d`
// downloads, `u` uploads, `R` lists again.
#include <fmt/format.h>

#include <map>

#include "core/byte_size.hpp"
#include "core/sanitizer.hpp"
#include "storage_lookup.hpp"
#include "tui_storage.hpp"

namespace trainyard {
namespace {

/// A listing as the pane holds it.
struct Listed {
  std::optional<StorageListing> listing;  ///< the last one read
  std::string error;                      ///< why the last read failed (sanitized)
  bool reading = false;                   ///< a read is with the worker
};

struct StorageRow {
  StorageEntry entry;
  Timestamp now;
};

std::string size_cell(const StorageRow& r) {
  if (r.entry.size) return human_size(*r.entry.size);
  return r.entry.kind == StorageEntryKind::Blob ? "-" : "";
}

const std::vector<ColumnDef<StorageRow>>& storage_columns() {
  using R = const StorageRow&;
  static const std::vector<ColumnDef<StorageRow>> columns = {
      {"name",
       {"NAME", 0, 10, 2},
       [](R r) {
         bool dir = r.entry.kind != StorageEntryKind::Blob;
         return TableCell{sanitize_text(r.entry.name),
                          dir ? std::optional(Role::StateActive) : std::nullopt};
       }},
      {"size",
       {"SIZE", 10, 1, 0, Align::Right},
       [](R r) { return TableCell{size_cell(r)}; },
       [](R r) { return SortKey{static_cast<int64_t>(r.entry.size.value_or(0))}; }},
      {"modified",
       {"MODIFIED", 8, 1, 0, Align::Right},
       [](R r) { return TableCell{r.entry.modified ? age_of(r.entry.modified, r.now) : ""}; },
       [](R r) {
         return SortKey{r.entry.modified ? r.entry.modified->time_since_epoch().count() : 0};
       }},
      {"time",
       {"MODIFIED AT", 20},
       [](R r) {
         return TableCell{listing_time(r.entry.modified), Role::Dim};
       },
       {},
       Shown::Always,
       {},
       true},
      {"info", {"INFO", 0, 8, 2}, [](R r) {
         return TableCell{sanitize_text(r.entry.info), Role::Dim};
       }}};
  return columns;
}

class StoragePane : public Pane {
 public:
  std::string label() const override { return "Storage"; }
  std::string name() const override { return "storage"; }
  std::string title(const Frame& f) const override {
    auto at = parse_location(f.entity);
    if (at.storage.empty()) return "Storage accounts";
    if (at.container.empty()) return "Containers · " + sanitize_text(at.storage);
    return "Blobs · " + sanitize_text(at.container + "/" + at.prefix);
  }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    auto at = parse_location(st.stack.back().entity);
    std::vector<std::string> parts{"storage"};
    for (const auto* part : {&at.storage, &at.container})
      if (!part->empty()) parts.push_back(sanitize_text(*part));
    if (!at.prefix.empty()) parts.push_back(sanitize_text(at.prefix));
    return parts;
  }
  std::vector<Context> contexts() const override {
    return {Context::Storage, Context::Table, Context::Global};
  }
  bool per_account() const override { return false; }
  // Its rows come from the storage worker, not the store: the UI thread loads them.
  bool reads_in_background() const override { return false; }

  std::optional<Frame> drill(const Frame& f, const std::string& key) const override {
    auto at = parse_location(f.entity);
    if (at.storage.empty()) {
      at.storage = key;
    } else if (at.container.empty()) {
      at.container = key;
    } else if (key.ends_with('/')) {
      at.prefix = key;
    } else {
      return std::nullopt;  // a blob: act() opens it
    }
    Frame next = f;
    next.entity = location_text(at);
    return next;
  }
  void entered(AppContext& ctx, TuiState& st) override { list(ctx, st, here(st)); }
  bool act(AppContext& ctx, TuiState& st, Action a) override;

  void refresh(AppContext& ctx, TuiState& st) override {
    auto at = here(st);
    if (!at.storage.empty() && !listed_.count(location_text(at))) list(ctx, st, at);
    Pane::refresh(ctx, st);
  }
  TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows) override {
    TablePage p;
    std::vector<StorageRow> items;
    for (auto& e : entries(ctx, st)) items.push_back({std::move(e), ctx.clock.now()});
    fill_page(
        p, storage_columns(), false, items, [](const StorageRow& r) { return r.entry.key; },
        st.top().cursor, first, rows);
    return p;
  }
  std::string empty_text(const TuiState& st) const override {
    auto at = here(st);
    if (at.storage.empty())
      return "no storage account: add storageAccounts to config.json, or set "
             "AZURE_STORAGE_CONNECTION_STRING";
    auto it = listed_.find(location_text(at));
    if (it == listed_.end() || (it->second.reading && !it->second.listing)) return "listing…";
    if (!it->second.error.empty()) return it->second.error;
    return at.container.empty() ? "no container in this account" : "no blob here";
  }
  void render(AppContext& ctx, TuiState& st, Canvas& c, Rect body) override {
    auto it = listed_.find(location_text(here(st)));
    bool capped = it != listed_.end() && it->second.listing && it->second.listing->capped;
    if (!capped || body.h < 3) return Pane::render(ctx, st, c, body);
    Pane::render(ctx, st, c, body.drop_bottom(1));
    c.draw_text_truncated(
        body.x, body.y + body.h - 1,
        fmt::format("the first {} entries; filter (/) to find others among them", kStorageListCap),
        Role::Dim, body.w);
  }
  Rect table_rect(const TuiState& st, Rect body) const override {
    auto it = listed_.find(location_text(here(st)));
    bool capped = it != listed_.end() && it->second.listing && it->second.listing->capped;
    return capped && body.h >= 3 ? body.drop_bottom(1) : body;
  }

 private:
  static StorageLocation here(const TuiState& st) { return parse_location(st.stack.back().entity); }

  std::vector<StorageEntry> entries(AppContext& ctx, const TuiState& st) {
    auto at = here(st);
    // Read once (the discovery cache is a file), not on every refresh; `R` reads them again.
    if (at.storage.empty() && !accounts_) accounts_ = storage_account_entries(ctx.settings);
    if (at.storage.empty()) return *accounts_;
    auto it = listed_.find(location_text(at));
    if (it == listed_.end() || !it->second.listing) return {};
    return it->second.listing->entries;
  }
  const StorageEntry* selected_entry(AppContext& ctx, const TuiState& st) {
    auto key = selected_key(st);
    if (!key) return nullptr;
    selected_ = entries(ctx, st);
    for (const auto& e : selected_)
      if (e.key == *key) return &e;
    return nullptr;
  }

  // Lists `at` on the storage worker; what was listed there before stays on screen meanwhile.
  void list(AppContext& ctx, TuiState& st, const StorageLocation& at) {
    if (at.storage.empty()) return;
    auto& slot = listed_[location_text(at)];
    if (slot.reading) return;
    slot.reading = true;
    auto out = std::make_shared<StorageListing>();
    storage_runner(ctx, st).submit(
        at.storage, "list " + location_text(at),
        [at, out](azure::BlobClient& c) -> Result<std::string> {
          auto l = list_location(c, at);
          if (!l) return l.error();
          *out = std::move(*l);
          return std::string();
        },
        true,
        [this, key = location_text(at), out](const Result<std::string>& r) {
          auto& s = listed_[key];
          s.reading = false;
          s.error = r ? "" : sanitize_text(r.error().message);
          if (r) s.listing = std::move(*out);
        });
  }

  void open_blob(AppContext& ctx, TuiState& st, const StorageEntry& e, bool as_text) {
    auto at = here(st);
    if (!as_text && !is_text_blob(e.key, e.info))
      return set_status(st,
                        fmt::format("{} is not text ({}): l opens it as text, d downloads it",
                                    sanitize_text(e.name), sanitize_text(e.info)),
                        StatusLevel::Info);
    // A blob belongs to no Batch account: no poller's age or error is shown with it.
    Frame next = make_frame(View::Logs, kLocalAccount);
    next.entity = blob_log_entity({at.storage, at.container, e.key});
    push_frame(ctx, st, next);
  }

  std::optional<std::vector<StorageEntry>> accounts_;  // the storage accounts, once read
  std::map<std::string, Listed> listed_;               // by location_text()
  std::vector<StorageEntry> selected_;                 // what selected_entry() points into
};

bool StoragePane::act(AppContext& ctx, TuiState& st, Action a) {
  auto at = here(st);
  switch (a) {
    case Action::Refresh:
      if (at.storage.empty()) accounts_.reset();
      if (at.storage.empty()) return false;
      list(ctx, st, at);
      return true;
    case Action::Enter:
    case Action::Logs: {
      const auto* e = selected_entry(ctx, st);
      if (!e || e->kind != StorageEntryKind::Blob) return a == Action::Logs;
      open_blob(ctx, st, *e, a == Action::Logs);
      return true;
    }
    case Action::Download: {
      const auto* e = selected_entry(ctx, st);
      if (!e || e->kind == StorageEntryKind::Account)
        set_status(st, "d downloads a container, a folder or a blob: open an account first",
                   StatusLevel::Info);
      else
        open_download_form(ctx, st, at, *e);
      return true;
    }
    case Action::Upload:
      if (at.container.empty())
        set_status(st, "u uploads into a container: open one first", StatusLevel::Info);
      else
        open_upload_form(ctx, st, at, [this, &ctx, &st, at] { list(ctx, st, at); });
      return true;
    default:
      return false;
  }
}

}  // namespace

std::unique_ptr<Pane> make_storage_pane() {
  return std::make_unique<StoragePane>();
}

StorageRunner& storage_runner(AppContext& ctx, TuiState& st) {
  if (!st.work.storage)
    st.work.storage = std::make_unique<StorageRunner>(ctx.settings, ctx.clock, st.work.events);
  return *st.work.storage;
}

void open_storage_pane(AppContext& ctx, TuiState& st, const std::string& where) {
  Frame f = st.top();
  f.view = View::Storage;
  f.entity = location_text(location_from_command(where));
  push_frame(ctx, st, f);
}

}  // namespace trainyard
