// The emulated Batch account behind its HTTP routes: the route table, the checks every request
// passes, the journal, and a handler object per resource over one Account.
#pragma once

#include <httplib.h>

#include <atomic>
#include <functional>
#include <memory>
#include <regex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "account.hpp"
#include "call.hpp"
#include "emulator/emulator.hpp"
#include "faults.hpp"
#include "file_api.hpp"
#include "identity_api.hpp"
#include "job_api.hpp"
#include "journal.hpp"
#include "node_api.hpp"
#include "pool_api.hpp"
#include "task_api.hpp"

namespace trainyard::emu {

/// The service: routes each request through its checks to the resource's handler, and keeps
/// the account durable with `--state`.
class Service {
 public:
  Service(EmulatorOptions options, Runner* runner);
  ~Service();

  /// Registers every route on `server`.
  void install(httplib::Server& server);
  /// One step of the simulation (called a few times a second).
  void tick() { account_.tick(); }
  /// Builds the deterministic `--seed-tasks` account.
  void seed(int64_t tasks) { account_.seed(tasks); }
  /// The endpoint clients use, e.g. `http://127.0.0.1:8080`.
  void set_base_url(std::string url) { account_.base_url_ = std::move(url); }
  const std::string& base_url() const { return account_.base_url_; }
  /// Writes the state to `options.state_file` when it changed (atomic rename), then drops
  /// the journal entries it now holds.
  void save_if_changed();
  /// Loads `options.state_file` and replays its journal; an error names the file and place.
  Result<void> load();
  /// Stops every run the engine holds (on exit without `--state`).
  void stop_all_runs() { account_.stop_all_runs(); }
  /// Faults and counters, shared with the control endpoint.
  Faults& faults() { return faults_; }
  Micros now() const { return account_.now(); }

 private:
  using Handler = std::function<void(Call&, const httplib::Match&)>;
  /// What a request must pass before its route's handler runs.
  enum class Gate {
    Signed,    ///< a known api-version and SharedKey or a bearer token; faults apply
    Control,   ///< as Signed, but never faulted (the test's own control endpoint)
    Identity,  ///< token, IMDS and management endpoints: only with `--identity`; they check
               ///< their own credentials (client secret, `Metadata: true`, bearer token)
  };
  /// One operation: the HTTP server and the journal's replay both route through the table.
  struct Route {
    std::string method;
    std::string pattern;
    std::regex regex;
    Handler fn;
    Gate gate = Gate::Signed;
    /// Answered 2xx, it changed the account: journaled with `--state`. Files are not (they
    /// live on disk, durable on their own), nor tokens, faults and counters.
    bool changes_account = false;
  };
  std::vector<Route> build_routes();
  /// The route `method` (HEAD as GET) and `path` take, as the server picks it (the first in
  /// table order); nullptr when none does.
  const Route* find_route(const std::string& method, const std::string& path,
                          httplib::Match& matches) const;
  /// Runs a route's handler; a change it acknowledges is journaled (with `--state`) before
  /// the answer goes out.
  void answer(const Route& r, const httplib::Request& req, httplib::Response& res);
  /// Applies one journaled change again, as its request was first answered.
  void replay(const JournalEntry& e);
  /// Reads the snapshot; returns the number of the last journal entry it holds.
  Result<uint64_t> load_snapshot();
  /// Replays the journal's entries after `snapshot_seq` and opens it for appending.
  Result<void> open_journal(uint64_t snapshot_seq);

  // Common checks of every request, run before routing: ids, api-version, auth, faults.
  httplib::Server::HandlerResponse pre_route(const httplib::Request& req, httplib::Response& res);
  /// A known api-version and a valid `timeout`; else answers 400.
  bool valid_query(Call& c);
  bool authorized(Call& c);
  /// Draws from `--faults`: answers the fault (Handled) or lets the request through.
  httplib::Server::HandlerResponse inject_fault(Call& c);
  Call call(const httplib::Request& req, httplib::Response& res);

  // Control endpoint (faults, preemption, counters)
  void control(Call& c, const std::string& what);

  Account account_;
  PoolApi pool_api_{account_};
  NodeApi node_api_{account_};
  JobApi job_api_{account_};
  TaskApi task_api_{account_};
  FileApi file_api_{account_};
  IdentityApi identity_api_{account_};
  uint64_t saved_changes_ = 0;
  // Requests that change state hold it shared from their handler to their journal entry; a
  // snapshot holds it exclusively, so it holds exactly the entries up to the number it records.
  std::shared_mutex writes_gate_;
  Journal journal_;
  std::vector<Route> routes_ = build_routes();
  Faults faults_;
};

}  // namespace trainyard::emu
