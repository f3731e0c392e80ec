// The all-accounts panes (`:alljobs`, `:allpools`): the jobs or pools of every account in one
// table, with the account (in its colour) and who submitted each job (`submittedBy`).
#include "core/sanitizer.hpp"
#include "tui_account_band.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

/// A job of some account.
struct AccountJob {
  Job job;
  std::optional<Role> colour;  ///< the account's band colour
  Timestamp now;
};

/// A pool of some account.
struct AccountPool {
  Pool pool;
  std::optional<Role> colour;
};

// `submittedBy` from the job's metadata (set by trainyard and other tools); `-` when none.
std::string submitted_by(const Job& j) {
  for (const auto& m : j.metadata)
    if (m.name == "submittedBy") return sanitize_text(m.value);
  return "-";
}

const std::vector<ColumnDef<AccountJob>>& all_job_columns() {
  using R = const AccountJob&;
  static const std::vector<ColumnDef<AccountJob>> columns = {
      {"account",
       {"ACCOUNT", 0, 6, 1},
       [](R r) {
         return TableCell{sanitize_text(r.job.account), r.colour};
       }},
      {"job",
       {.title = "JOB", .min_width = 8, .flex = 2, .cut = Cut::Middle},
       [](R r) { return TableCell{sanitize_text(r.job.id)}; }},
      {"state",
       {"STATE", 11},
       [](R r) {
         return TableCell{std::string(to_wire(r.job.state)), Role::StateActive};
       }},
      {"pool",
       {.title = "POOL", .min_width = 6, .flex = 1, .drop = 2, .cut = Cut::Middle},
       [](R r) { return TableCell{sanitize_text(r.job.pool_id)}; }},
      {"submitted_by",
       {.title = "SUBMITTED BY", .min_width = 12, .flex = 1, .drop = 1},
       [](R r) { return TableCell{submitted_by(r.job)}; }},
      {"age", {"AGE", 5, 1, 0, Align::Right}, [](R r) {
         return TableCell{age_of(r.job.creation_time, r.now)};
       }}};
  return columns;
}

const std::vector<ColumnDef<AccountPool>>& all_pool_columns() {
  using R = const AccountPool&;
  static const std::vector<ColumnDef<AccountPool>> columns = {
      {"account",
       {"ACCOUNT", 0, 6, 1},
       [](R r) {
         return TableCell{sanitize_text(r.pool.account), r.colour};
       }},
      {"pool",
       {.title = "POOL", .min_width = 8, .flex = 2, .cut = Cut::Middle},
       [](R r) { return TableCell{sanitize_text(r.pool.id)}; }},
      {"state",
       {"STATE", 9},
       [](R r) {
         return TableCell{std::string(to_wire(r.pool.state)), Role::StateActive};
       }},
      {"vm_size",
       {.title = "VM SIZE", .min_width = 8, .flex = 1, .drop = 2},
       [](R r) { return TableCell{sanitize_text(r.pool.vm_size)}; }},
      {"dedicated",
       {"DEDICATED", 9, 1, 0, Align::Right},
       [](R r) {
         return TableCell{std::to_string(r.pool.current_dedicated_nodes) + "/" +
                          std::to_string(r.pool.target_dedicated_nodes)};
       }},
      {"spot", {"SPOT", 7, 1, 0, Align::Right}, [](R r) {
         return TableCell{std::to_string(r.pool.current_low_priority_nodes) + "/" +
                          std::to_string(r.pool.target_low_priority_nodes)};
       }}};
  return columns;
}

std::vector<std::string> account_names(AppContext& ctx) {
  std::vector<std::string> out;
  if (auto accounts = ctx.store->accounts())
    for (const auto& a : *accounts) out.push_back(a.name);
  return out;
}

// The stack a row of another account opens into: that account's list, then `next`.
Frame drilled(View list, View target, const std::string& key) {
  Frame next = make_frame(target, key.substr(0, key.find('/')));
  (list == View::AllJobs ? next.job : next.pool) = key.substr(key.find('/') + 1);
  return next;
}

class AllAccountsPane : public Pane {
 public:
  explicit AllAccountsPane(View v) : view_(v) {}
  bool jobs() const { return view_ == View::AllJobs; }
  std::string label() const override { return jobs() ? "All jobs" : "All pools"; }
  std::string name() const override { return jobs() ? "alljobs" : "allpools"; }
  std::string title(const Frame&) const override {
    return jobs() ? "Jobs · every account" : "Pools · every account";
  }
  std::vector<std::string> crumbs(const TuiState&) const override {
    return {"all accounts", jobs() ? "jobs" : "pools"};
  }
  std::vector<Context> contexts() const override { return {Context::Table, Context::Global}; }
  bool per_account() const override { return false; }
  std::string row_kind() const override { return jobs() ? "job" : "pool"; }
  // The rows are `account/id`: the entity is that account's.
  std::pair<std::string, std::string> row_entity(const Frame&,
                                                 const std::string& key) const override {
    auto slash = key.find('/');
    return {key.substr(0, slash), slash == std::string::npos ? "" : key.substr(slash + 1)};
  }
  std::optional<Frame> drill(const Frame&, const std::string& key) const override {
    if (key.find('/') == std::string::npos) return std::nullopt;
    return drilled(view_, jobs() ? View::Tasks : View::Nodes, key);
  }
  TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows) override {
    return jobs() ? load_jobs(ctx, st, first, rows) : load_pools(ctx, st, first, rows);
  }

 private:
  TablePage load_jobs(AppContext& ctx, TuiState& st, size_t first, int rows) {
    std::vector<AccountJob> items;
    for (const auto& account : account_names(ctx))
      if (auto js = ctx.store->jobs(account))
        for (auto& j : *js)
          items.push_back({std::move(j), account_role(ctx.settings, account), ctx.clock.now()});
    TablePage p;
    fill_page(
        p, all_job_columns(), true, items,
        [](const AccountJob& r) { return r.job.account + "/" + r.job.id; }, st.top().cursor, first,
        rows);
    return p;
  }
  TablePage load_pools(AppContext& ctx, TuiState& st, size_t first, int rows) {
    std::vector<AccountPool> items;
    for (const auto& account : account_names(ctx))
      if (auto ps = ctx.store->pools(account))
        for (auto& pl : *ps) items.push_back({std::move(pl), account_role(ctx.settings, account)});
    TablePage p;
    fill_page(
        p, all_pool_columns(), true, items,
        [](const AccountPool& r) { return r.pool.account + "/" + r.pool.id; }, st.top().cursor,
        first, rows);
    return p;
  }
  View view_;
};

}  // namespace

std::unique_ptr<Pane> make_all_jobs_pane() {
  return std::make_unique<AllAccountsPane>(View::AllJobs);
}

std::unique_ptr<Pane> make_all_pools_pane() {
  return std::make_unique<AllAccountsPane>(View::AllPools);
}

}  // namespace trainyard
