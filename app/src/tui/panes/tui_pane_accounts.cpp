// The Accounts pane: local and every configured or cached Batch account; Enter opens its jobs.
#include "tui_state.hpp"

namespace trainyard {
namespace {

const std::vector<ColumnDef<Account>>& account_columns() {
  static const std::vector<ColumnDef<Account>> columns = {
      {"account", {"ACCOUNT", 0, 8, 2}, [](const Account& a) { return TableCell{a.name}; }},
      {"kind", {"KIND", 9}, [](const Account& a) { return TableCell{to_string(a.kind)}; }},
      {"endpoint", {"ENDPOINT", 0, 8, 3}, [](const Account& a) {
         return TableCell{a.endpoint.empty() ? "this machine" : a.endpoint, Role::Dim};
       }}};
  return columns;
}

class AccountsPane : public Pane {
 public:
  std::string label() const override { return "Accounts"; }
  std::string name() const override { return "accounts"; }
  std::string row_kind() const override { return "account"; }
  std::string title(const Frame&) const override { return "Accounts"; }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    return {st.stack.back().account};
  }
  std::vector<Context> contexts() const override {
    return {Context::Accounts, Context::Table, Context::Global};
  }
  bool quits_back() const override { return false; }
  bool per_account() const override { return false; }

  std::optional<Frame> drill(const Frame& f, const std::string& key) const override {
    Frame next = f;
    next.account = key;
    next.view = View::Jobs;
    return next;
  }

  TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows) override {
    TablePage p;
    p.columns = layouts_of(shown_columns(account_columns(), false));
    auto accounts = ctx.store->accounts();
    if (!accounts) return p;
    fill_page(
        p, account_columns(), false, *accounts, [](const Account& a) { return a.name; },
        st.top().cursor, first, rows);
    return p;
  }
};

}  // namespace

std::unique_ptr<Pane> make_accounts_pane() {
  return std::make_unique<AccountsPane>();
}

}  // namespace trainyard
