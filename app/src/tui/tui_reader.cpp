// The TUI's reader thread: requests are coalesced into one slot, each read runs the focused
// pane's load on the reader's own connection, and the model goes back through a slot and an event.
#include "tui_reader.hpp"

#include "core/sanitizer.hpp"
#include "tui_services.hpp"
#include "tui_state.hpp"

namespace trainyard {

std::unique_ptr<TuiReader> TuiReader::open(const AppContext& ctx, std::function<void(Event)> post) {
  auto store = Store::open(ctx.data_dir + "/cache.db");
  if (!store) return nullptr;  // the UI thread reads as before
  auto own = std::make_unique<AppContext>(ctx.clock);
  own->data_dir = ctx.data_dir;
  own->store = std::move(*store);
  own->engine = ctx.engine;
  own->settings = ctx.settings;
  return std::unique_ptr<TuiReader>(new TuiReader(std::move(own), std::move(post)));
}

TuiReader::TuiReader(std::unique_ptr<AppContext> ctx, std::function<void(Event)> post)
    : ctx_(std::move(ctx)),
      scratch_(std::make_unique<TuiState>()),
      post_(std::move(post)),
      thread_([this] { run(); }) {}

TuiReader::~TuiReader() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void TuiReader::request(ReadRequest r) {
  {
    std::lock_guard<std::mutex> g(mu_);
    // A check never cancels a read still waiting to run.
    if (pending_ && !pending_->only_if_changed) r.only_if_changed = false;
    pending_ = std::move(r);
  }
  cv_.notify_all();
}

std::optional<PageModel> TuiReader::take() {
  std::lock_guard<std::mutex> g(mu_);
  auto out = std::move(ready_);
  ready_.reset();
  return out;
}

std::optional<PageModel> TuiReader::wait_for(uint64_t generation,
                                             std::optional<std::chrono::milliseconds> limit) {
  std::unique_lock<std::mutex> lock(mu_);
  auto read = [&] { return stopping_ || (ready_ && ready_->generation >= generation); };
  if (!limit)
    cv_.wait(lock, read);
  else if (!cv_.wait_for(lock, *limit, read))
    return std::nullopt;
  auto out = std::move(ready_);
  ready_.reset();
  return out;
}

void TuiReader::run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [&] { return stopping_ || pending_; });
    if (stopping_) return;
    ReadRequest r = std::move(*pending_);
    pending_.reset();
    lock.unlock();
    if (r.only_if_changed && !store_changed()) {
      lock.lock();
      continue;
    }
    PageModel m;
    m.generation = r.generation;
    // No exception may cross into the UI thread, nor end this one: a failed read says why.
    try {
      m = read(r);
    } catch (const std::exception& e) {
      m.error = e.what();
    } catch (...) {
      m.error = "an unknown failure";
    }
    lock.lock();
    // News is told once: a model the UI never takes keeps its news for the next one.
    if (ready_ && m.preemption_news.empty()) m.preemption_news = ready_->preemption_news;
    if (ready_) m.alerts.insert(m.alerts.begin(), ready_->alerts.begin(), ready_->alerts.end());
    ready_ = std::move(m);
    cv_.notify_all();
    post_(PageReady{r.generation});
  }
}

bool TuiReader::store_changed() const {
  return ctx_->store->data_version().value_or(-1) != data_version_;
}

PageModel TuiReader::read(const ReadRequest& r) {
  auto& st = *scratch_;
  // Another connection (the UI's, a poller's, a supervisor's) committed: cached cells are old.
  auto version = ctx_->store->data_version().value_or(-1);
  if (version != data_version_) st.panes.store_changed();
  data_version_ = version;
  st.stack = {r.frame};
  st.pinned = r.pinned;
  st.work.cost_view = r.costs;
  st.table.body_height = r.rows;
  st.table.page = {};
  PageModel m;
  m.generation = r.generation;
  m.frame = frame_key(r.frame);
  m.data_version = version;
  auto& pane = focused_pane(st);
  pane.accept_input(st, r.input.get());
  m.loaded = pane.reads_in_background();
  m.table = m.loaded && pane.is_table();
  if (m.table) load_page(*ctx_, st);
  if (m.loaded) m.data = pane.read_data(*ctx_, st);
  m.cursor = st.top().cursor;
  m.sync = read_sync_facts(*ctx_, st);
  auto news = preemption_news_by_account(*ctx_, r.watched, r.frame.account, st.notes.preemptions);
  m.preemption_news = news_line(news, r.frame.account);
  m.alerts = read_alerts(news, version);
  m.page = std::move(st.table.page);
  return m;
}

void TuiReader::watch_alerts(AlertConfig config) {
  std::lock_guard<std::mutex> g(mu_);
  alert_config_ = std::move(config);
}

// Transitions are looked for only when another connection committed (or news came).
std::vector<Alert> TuiReader::read_alerts(const std::map<std::string, std::string>& news,
                                          int64_t version) {
  AlertConfig config;
  {
    std::lock_guard<std::mutex> g(mu_);
    config = alert_config_;
  }
  if (config.empty() || (version == alert_version_ && news.empty())) return {};
  alert_version_ = version;
  return trainyard::watch_alerts(*ctx_->store, config, news, alert_watch_);
}

namespace {

ReadRequest request_of(const TuiState& st) {
  ReadRequest r;
  r.generation = st.work.read_generation;
  r.frame = st.stack.back();
  r.pinned = st.pinned;
  r.rows = std::max(1, st.table.body_height);
  for (const auto& entry : st.work.pollers) r.watched.push_back(entry.first);
  r.input = focused_pane(st).read_input(st);
  r.costs = st.work.cost_view;
  return r;
}

}  // namespace

void request_page(TuiState& st) {
  ++st.work.read_generation;
  st.work.reader->request(request_of(st));
  // A key press usually draws the rows it asked for: a page read takes a few milliseconds.
  auto limit = st.work.live ? std::optional(std::chrono::milliseconds(50)) : std::nullopt;
  if (auto m = st.work.reader->wait_for(st.work.read_generation, limit))
    apply_model(st, std::move(*m));
}

// The same generation as the model on screen: a newer data version replaces it, and a read
// already asked for is still the one shown.
void request_page_if_changed(TuiState& st) {
  auto r = request_of(st);
  r.only_if_changed = true;
  st.work.reader->request(std::move(r));
}

bool apply_page(TuiState& st) {
  auto m = st.work.reader->take();
  return m && apply_model(st, std::move(*m));
}

bool apply_model(TuiState& st, PageModel m) {
  announce_alerts(st, m.alerts);  // told once, whatever else the model brings
  if (!m.error.empty()) {
    if (m.generation != st.work.read_generation) return false;
    set_status(st, "reading the cache failed: " + sanitize_text(m.error), StatusLevel::Error);
    return true;
  }
  if (m.generation == st.work.read_generation) st.work.read_version = m.data_version;
  if (!m.preemption_news.empty())
    set_status(st, sanitize_text(m.preemption_news), StatusLevel::Error);
  if (m.generation != st.work.read_generation)
    return !m.preemption_news.empty() || !m.alerts.empty();
  st.work.sync = std::move(m.sync);
  if (!m.loaded) return true;
  st.shown.data = std::move(m.data);
  st.shown.frame = std::move(m.frame);
  if (!m.table) return true;
  st.table.page = std::move(m.page);
  auto& c = st.top().cursor;
  c.selected = m.cursor.selected;
  c.first = m.cursor.first;
  return true;
}

}  // namespace trainyard
