// The GPU pane: one row of gauges per GPU, its processes (ours or foreign) and a history chart.
#include <fmt/format.h>

#include "gpu_history_chart.hpp"
#include "local/gpu_processes.hpp"
#include "tui_state.hpp"
#include "widgets/charts.hpp"

namespace trainyard {
namespace {

std::string mem_text(const GpuSample& g) {
  if (!g.mem_used || !g.mem_total) return "mem ?";
  return fmt::format("{:.1f}/{:.0f} GiB", static_cast<double>(*g.mem_used) / (1u << 30),
                     static_cast<double>(*g.mem_total) / (1u << 30));
}

std::string extra_text(const GpuSample& g) {
  std::string out;
  if (g.temperature_c) out += fmt::format("{}°C ", *g.temperature_c);
  if (g.power_w) out += fmt::format("{:.0f}W ", *g.power_w);
  if (g.power_limit_w) out += fmt::format("/{:.0f}W", *g.power_limit_w);
  return out;
}

/// pgid → run, for the runs of this machine that are live now.
struct GpuRunsData : PaneData {
  std::map<int64_t, GpuRunRef> runs;
};

std::map<int64_t, GpuRunRef> our_runs(AppContext& ctx) {
  std::map<int64_t, GpuRunRef> out;
  for (auto state : {TaskState::Running, TaskState::Preparing}) {
    TaskQuery q;
    q.account = kLocalAccount;
    q.state = state;
    auto tasks = ctx.store->tasks(q);
    if (!tasks) continue;
    for (const auto& t : *tasks) {
      auto run = ctx.store->local_run(t.job_id, t.id);
      if (run && run->has_value() && (*run)->pgid > 0)
        out[(*run)->pgid] = GpuRunRef{t.job_id, t.id};
    }
  }
  return out;
}

int render_gpu_row(const GpuSample& g, Canvas& c, Rect r) {
  c.draw_text_truncated(r.x, r.y, fmt::format("GPU {} {}", g.index, g.name), Role::Title, r.w);
  GaugeVm util{"util", g.util_percent.value_or(0) / 100.0,
               g.util_percent ? fmt::format("{}%", *g.util_percent) : "?", 5};
  double mem_frac = g.mem_used && g.mem_total && *g.mem_total
                        ? static_cast<double>(*g.mem_used) / static_cast<double>(*g.mem_total)
                        : 0;
  GaugeVm mem{"mem", mem_frac, mem_text(g), 5};
  int half = r.w / 2;
  render_gauge(util, c, Rect{r.x, r.y + 1, half - 1, 1});
  render_gauge(mem, c, Rect{r.x + half, r.y + 1, r.w - half, 1});
  c.draw_text_truncated(r.x, r.y + 2, extra_text(g), Role::Dim, r.w);
  return 3;
}

// How many runs share this machine without GPUs, and who said so: a count picked up from an
// inherited TRAINYARD_CPU_SLOTS is the usual surprise.
std::string cpu_slots_line(const AppContext& ctx) {
  std::string from = ctx.cpu_slots_source.empty() ? "" : ", from " + ctx.cpu_slots_source;
  return fmt::format("Runs use {} CPU slot(s){}.", ctx.engine.cpu_slots, from);
}

}  // namespace

std::shared_ptr<const PaneData> read_gpu_runs(AppContext& ctx) {
  auto data = std::make_shared<GpuRunsData>();
  data->runs = our_runs(ctx);
  return data;
}

void render_gpus(AppContext& ctx, const TuiState& st, Canvas& c, Rect r) {
  if (!st.work.gpus) return;
  auto snap = st.work.gpus->snapshot();
  if (!snap->available && snap->latest.empty()) {
    auto msg = snap->last_error.empty() ? std::string("sampling GPUs…") : snap->last_error;
    c.draw_text_truncated(r.x, r.y, "No GPU telemetry: " + msg, Role::StatusError, r.w);
    c.draw_text_truncated(r.x, r.y + 1, cpu_slots_line(ctx), Role::Dim, r.w);
    return;
  }
  int y = r.y;
  // Before the reader's first answer every process reads as foreign.
  const auto* data = shown_data<GpuRunsData>(st);
  auto labeled =
      label_gpu_processes(snap->latest, data ? data->runs : std::map<int64_t, GpuRunRef>{});
  for (const auto& g : snap->latest) {
    if (y + 3 > r.bottom()) break;
    y += render_gpu_row(g, c, Rect{r.x, y, r.w, 3});
    for (const auto& p : labeled) {
      if (p.gpu_index != g.index || y >= r.bottom()) continue;
      auto who = p.run ? fmt::format("{}/{}", p.run->job, p.run->task) : std::string("foreign");
      c.draw_text_truncated(r.x + 2, y++, fmt::format("pid {} {}", p.process.pid, who),
                            p.run ? Role::StateRunning : Role::Dim, r.w - 2);
    }
  }
  if (snap->history.empty() || y + 6 > r.bottom()) return;
  auto vm = gpu_history_chart(snap->history, snap->last_sample_at.value_or(ctx.clock.now()));
  render_line_chart(vm, c, Rect{r.x, y + 1, r.w, r.bottom() - y - 1});
}

}  // namespace trainyard
