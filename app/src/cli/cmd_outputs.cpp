// `trainyard outputs --account A JOB/TASK [--get DIR] [--json]`: everything a Batch task produced,
// wherever it is, and fetching it.
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "account_lookup.hpp"
#include "action_util.hpp"
#include "app/cli.hpp"
#include "app/context.hpp"
#include "azure/blob_transfer.hpp"
#include "cmd_storage.hpp"
#include "output.hpp"
#include "progress_line.hpp"
#include "storage_lookup.hpp"
#include "task_output_sources.hpp"

namespace trainyard {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct OutputsFlags {
  std::string account, storage, ref, get;
  bool json = false;
};

std::string shown_name(const TaskOutput& o) {
  return o.container.empty() ? o.name : o.container + "/" + o.name;
}

void print_outputs(const TaskOutputs& found) {
  out::print("{:<12} {:>10}  {:<20}  {}", "SOURCE", "SIZE", "MODIFIED", "NAME");
  for (const auto& o : found.items)
    out::print("{:<12} {:>10}  {:<20}  {}", to_string(o.source), human_size(o.size),
               listing_time(o.last_modified), shown_name(o));
}

json outputs_json(const TaskOutputs& found) {
  json items = json::array();
  for (const auto& o : found.items)
    items.push_back({{"source", to_string(o.source)},
                     {"container", o.container},
                     {"name", o.name},
                     {"size", o.size},
                     {"lastModified", listing_time(o.last_modified)}});
  return {{"outputs", items}, {"notes", found.notes}};
}

int outputs(const CliState& st, const OutputsFlags& f) {
  auto ref = split_task_ref(f.ref);
  if (!ref) return report(ref.error());
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  auto account = find_account((*ctx)->settings, f.account);
  if (!account) return report(account.error());
  auto batch = open_batch_client(*account, (*ctx)->clock);
  if (!batch) return report(batch.error());
  auto found = find_task_outputs((*ctx)->settings, **batch, *account, f.storage, ref->first,
                                 ref->second, (*ctx)->clock);
  if (!found) return report_failure("outputs " + f.ref, found.error());
  for (const auto& n : found->notes) out::eprint("trainyard: {}", n);
  if (f.get.empty()) {
    if (f.json) {
      out::json(outputs_json(*found));
    } else {
      print_outputs(*found);
    }
    return kExitOk;
  }
  release_transfer_buffers_when_freed();
  for (const auto& o : found->items) {
    ProgressLine bar(o.name);
    azure::TransferOptions options;
    options.progress = [&](uint64_t done, uint64_t total) { bar.update(done, total); };
    auto ok = fetch_task_output(**batch, ref->first, ref->second, o, f.get, options);
    bar.done();
    if (!ok) return report_failure("outputs " + f.ref, ok.error());
    out::print("got {} {} ({})", to_string(o.source), shown_name(o), human_size(o.size));
  }
  return kExitOk;
}

}  // namespace

void register_outputs(CLI::App& app, CliState& st) {
  auto f = std::make_shared<OutputsFlags>();
  auto* c = app.add_subcommand(
      "outputs", "A Batch task's outputs: node files, outputFiles and File Conventions blobs");
  c->add_option("--account", f->account, "Batch or emulator account")->required();
  c->add_option("--storage", f->storage,
                "Storage account of the job's conventions container (default: autoStorage)");
  c->add_option("ref", f->ref, "JOB/TASK")->required();
  c->add_option("--get", f->get, "Download everything into this folder");
  c->add_flag("--json", f->json, "Print JSON");
  c->callback([&st, f] { st.action = [&st, f] { return outputs(st, *f); }; });
}

}  // namespace trainyard
