// The Accounts pane: local and every configured or cached Batch account; Enter opens its jobs.
#include "tui_state.hpp"

namespace trainyard {
namespace {

/// An account and how its poller fares (empty: not polled by this window).
struct AccountRow {
  Account account;
  std::string poll;
};

/// What the UI thread knows of the pollers, handed to the reader's pane.
struct AccountPolls : PaneData {
  std::map<std::string, std::string> notes;
};

Role poll_role(const std::string& note) {
  if (note.rfind("no answer", 0) == 0 || note.rfind("failing", 0) == 0) return Role::StatusError;
  return Role::Dim;
}

const std::vector<ColumnDef<AccountRow>>& account_columns() {
  using R = AccountRow;
  static const std::vector<ColumnDef<R>> columns = {
      {"account", {"ACCOUNT", 0, 8, 2}, [](const R& r) { return TableCell{r.account.name}; }},
      {"kind", {"KIND", 9}, [](const R& r) { return TableCell{to_string(r.account.kind)}; }},
      {"poll",
       {"POLL", 0, 6, 1},
       [](const R& r) {
         if (r.account.kind == AccountKind::Local) return TableCell{"-", Role::Dim};
         return r.poll.empty() ? TableCell{"not polled", Role::Dim}
                               : TableCell{r.poll, poll_role(r.poll)};
       }},
      {"endpoint", {"ENDPOINT", 0, 8, 3}, [](const R& r) {
         const auto& e = r.account.endpoint;
         return TableCell{e.empty() ? "this machine" : e, Role::Dim};
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

  // The reader's pane takes the UI thread's view of the pollers.
  std::shared_ptr<const PaneData> read_input(const TuiState& st) const override {
    auto input = std::make_shared<AccountPolls>();
    input->notes = st.notes.account_polls;
    return input;
  }
  void accept_input(TuiState& st, const PaneData* in) override {
    if (const auto* input = dynamic_cast<const AccountPolls*>(in))
      st.notes.account_polls = input->notes;
  }

  TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows) override {
    TablePage p;
    p.columns = layouts_of(shown_columns(account_columns(), false));
    auto accounts = ctx.store->accounts();
    if (!accounts) return p;
    std::vector<AccountRow> rows_of;
    for (auto& a : *accounts) {
      auto note = st.notes.account_polls.find(a.name);
      rows_of.push_back(
          {std::move(a), note == st.notes.account_polls.end() ? std::string() : note->second});
    }
    fill_page(
        p, account_columns(), false, rows_of, [](const AccountRow& r) { return r.account.name; },
        st.top().cursor, first, rows);
    return p;
  }
};

}  // namespace

std::unique_ptr<Pane> make_accounts_pane() {
  return std::make_unique<AccountsPane>();
}

}  // namespace trainyard
