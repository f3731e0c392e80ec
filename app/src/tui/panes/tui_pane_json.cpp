// The JSON view (`y`): the selected pool, node, job, task or account as Batch wire JSON, read
// by the reader from the store, pretty-printed and scrolled like a log. A local run's task adds
// its run record.
#include <fmt/format.h>

#include "app/wire_json.hpp"
#include "core/sanitizer.hpp"
#include "text_view.hpp"
#include "tui_pane_json.hpp"
#include "tui_pane_routes.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

struct JsonLines : PaneData {
  std::vector<std::string> lines;  ///< sanitized
};

std::string kind_of(const Frame& f) {
  return f.entity.substr(0, f.entity.find('/'));
}

std::string id_of(const Frame& f) {
  auto slash = f.entity.find('/');
  return slash == std::string::npos ? "" : f.entity.substr(slash + 1);
}

nlohmann::json local_run_json(const LocalRun& r) {
  return {{"runDir", r.run_dir},
          {"workdir", r.workdir},
          {"gpuIds", r.gpu_ids},
          {"pinnedGpuIds", r.pinned_gpu_ids},
          {"attempt", r.attempt},
          {"supervisorPid", r.supervisor_pid},
          {"pid", r.pid},
          {"pgid", r.pgid},
          {"stopRequested", r.stop_requested},
          {"graceSeconds", r.grace_seconds},
          {"waitingReason", r.waiting_reason}};
}

template <typename T>
std::optional<T> find_by_id(Result<std::vector<T>> items, const std::string& id) {
  if (items)
    for (auto& item : *items)
      if (item.id == id) return std::move(item);
  return std::nullopt;
}

std::optional<Account> find_account(Result<std::vector<Account>> accounts, const std::string& n) {
  if (accounts)
    for (auto& a : *accounts)
      if (a.name == n) return std::move(a);
  return std::nullopt;
}

std::optional<nlohmann::json> read_task(Store& store, const Frame& f, const std::string& id) {
  auto t = store.task(f.account, f.job, id);
  if (!t || !*t) return std::nullopt;
  auto j = task_to_wire(**t);
  if (f.account == kLocalAccount)
    if (auto run = store.local_run(f.job, id); run && *run) j["localRun"] = local_run_json(**run);
  return j;
}

}  // namespace

std::optional<nlohmann::json> read_entity_json(Store& store, const Frame& f) {
  const auto kind = kind_of(f), id = id_of(f);
  if (kind == "task") return read_task(store, f, id);
  if (kind == "job") {
    auto j = store.job(f.account, id);
    if (j && *j) return job_to_wire(**j);
  } else if (kind == "pool") {
    if (auto p = find_by_id(store.pools(f.account), id)) return pool_to_wire(*p);
  } else if (kind == "node") {
    if (auto n = find_by_id(nodes_as_shown(store, f.account, f.pool), id)) return node_to_wire(*n);
  } else if (kind == "account") {
    if (auto a = find_account(store.accounts(), id)) return account_to_wire(*a);
  }
  return std::nullopt;
}

void redact_signatures(nlohmann::json& j) {
  if (j.is_object() || j.is_array()) {
    for (auto& v : j) redact_signatures(v);
    return;
  }
  if (!j.is_string()) return;
  auto text = j.get<std::string>();
  for (auto at = text.find("sig="); at != std::string::npos; at = text.find("sig=", at + 4)) {
    bool param = at > 0 && (text[at - 1] == '?' || text[at - 1] == '&');
    if (!param) continue;
    auto end = text.find('&', at);
    text.replace(at + 4, (end == std::string::npos ? text.size() : end) - at - 4, "REDACTED");
  }
  j = text;
}

std::vector<std::string> json_lines(const nlohmann::json& j) {
  std::vector<std::string> lines;
  auto text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(sanitize_text(text.substr(start, end - start)));
    start = end + 1;
  }
  return lines;
}

namespace {

class JsonPane : public Pane {
 public:
  std::string label() const override { return "JSON"; }
  std::string name() const override { return "json"; }
  std::string title(const Frame& f) const override {
    return sanitize_text(fmt::format("JSON · {} {}", kind_of(f), id_of(f)));
  }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    const auto& f = st.stack.back();
    return {f.account, kind_of(f) + "s", sanitize_text(id_of(f)), "json"};
  }
  std::vector<Context> contexts() const override { return {Context::Json, Context::Global}; }
  bool is_table() const override { return false; }
  bool reads_in_background() const override { return true; }
  void entered(AppContext&, TuiState&) override { text_ = TextView{}; }

  std::shared_ptr<const PaneData> read_data(AppContext& ctx, TuiState& st) override {
    auto data = std::make_shared<JsonLines>();
    auto j = read_entity_json(*ctx.store, st.top());
    if (!j) {
      data->lines = {sanitize_text(fmt::format("{} {} is not in the store (R refreshes)",
                                               kind_of(st.top()), id_of(st.top())))};
      return data;
    }
    redact_signatures(*j);
    data->lines = json_lines(*j);
    return data;
  }

  bool act(AppContext&, TuiState& st, Action a) override {
    return text_view_act(text_, lines(st), st, a);
  }
  void search_for(TuiState& st, const std::string& query) override {
    text_view_search(text_, lines(st), st, query);
  }
  void render(AppContext&, TuiState& st, Canvas& c, Rect body) override {
    render_text_view(text_, lines(st), c, body);
  }

 private:
  // The shown JSON's lines, converted once per answer of the reader.
  const std::vector<LogLine>& lines(const TuiState& st) {
    const auto* data = shown_data<JsonLines>(st);
    // Held, so that a later answer never lands at the address of the one converted.
    if (!data || st.shown.data != converted_) {
      converted_ = data ? st.shown.data : nullptr;
      lines_.clear();
      if (data)
        for (const auto& l : data->lines) lines_.push_back(text_line(l));
    }
    return lines_;
  }

  TextView text_;
  std::shared_ptr<const PaneData> converted_;
  std::vector<LogLine> lines_;
};

}  // namespace

std::unique_ptr<Pane> make_json_pane() {
  return std::make_unique<JsonPane>();
}

Frame json_frame(Frame from, std::string account, std::string entity) {
  from.view = View::Json;
  from.account = std::move(account);
  from.entity = std::move(entity);
  return from;
}

}  // namespace trainyard
