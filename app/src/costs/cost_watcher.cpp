#include "cost_watcher.hpp"

namespace trainyard {

std::unique_ptr<CostWatcher> CostWatcher::open(const AppContext& ctx, std::function<void()> ready) {
  auto store = Store::open(ctx.data_dir + "/cache.db");
  if (!store) return nullptr;
  auto own = std::make_unique<AppContext>(ctx.clock);
  own->data_dir = ctx.data_dir;
  own->store = std::move(*store);
  own->settings = ctx.settings;
  return std::unique_ptr<CostWatcher>(new CostWatcher(std::move(own), std::move(ready)));
}

CostWatcher::CostWatcher(std::unique_ptr<AppContext> ctx, std::function<void()> ready)
    : ctx_(std::move(ctx)), ready_(std::move(ready)), thread_([this] { run(); }) {}

CostWatcher::~CostWatcher() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void CostWatcher::watch(std::set<std::string> accounts) {
  {
    std::lock_guard<std::mutex> g(mu_);
    if (accounts == accounts_) return;
    accounts_ = std::move(accounts);
    due_ = true;
    ++asked_;
  }
  cv_.notify_all();
}

std::shared_ptr<const CostSnapshot> CostWatcher::snapshot() const {
  std::lock_guard<std::mutex> g(mu_);
  return snapshot_;
}

std::vector<Alert> CostWatcher::take_alerts() {
  std::lock_guard<std::mutex> g(mu_);
  return std::exchange(alerts_, {});
}

void CostWatcher::settle() {
  std::unique_lock<std::mutex> lock(mu_);
  due_ = true;
  uint64_t want = ++asked_;
  cv_.notify_all();
  cv_.wait(lock, [&] { return stopping_ || done_ >= want; });
}

void CostWatcher::run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    cv_.wait_for(lock, kCostInterval, [&] { return stopping_ || due_; });
    if (stopping_) return;
    due_ = false;
    uint64_t serving = asked_;
    auto accounts = accounts_;
    lock.unlock();
    work_out(accounts);
    if (ready_ && !accounts.empty()) ready_();  // nothing watched: nothing to redraw
    lock.lock();
    done_ = std::max(done_, serving);
    cv_.notify_all();
  }
}

// No exception may end this thread: an account whose costs fail is left out of the snapshot.
void CostWatcher::work_out(const std::set<std::string>& accounts) {
  auto snap = std::make_shared<CostSnapshot>();
  std::vector<Alert> alerts;
  auto now = ctx_->clock.now();
  for (const auto& account : accounts) {
    try {
      auto costs = account_costs(*ctx_->store, ctx_->settings, account, now);
      if (!costs) continue;
      if (costs->budget) {
        auto crossed = budget_alerts(*costs, *costs->budget, crossed_[account]);
        alerts.insert(alerts.end(), crossed.begin(), crossed.end());
      }
      snap->accounts[account] = std::move(*costs);
    } catch (const std::exception&) {
    }
  }
  std::lock_guard<std::mutex> g(mu_);
  snap->serial = snapshot_ ? snapshot_->serial + 1 : 1;
  snapshot_ = std::move(snap);
  alerts_.insert(alerts_.end(), alerts.begin(), alerts.end());
}

}  // namespace trainyard
