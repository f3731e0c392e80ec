// `--state FILE`: the whole account as JSON, written atomically when it changed, read at start
// (changes acknowledged since the last write are in the journal, changes.cpp).
#include <unistd.h>

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "durable_file.hpp"
#include "service.hpp"
#include "state_codec.hpp"

namespace trainyard::emu {

namespace {

using nlohmann::json;

constexpr int kStateVersion = 1;

}  // namespace

void Service::save_if_changed() {
  if (account_.options_.state_file.empty()) return;
  std::string text;
  uint64_t seen = 0;
  uint64_t journal_seq = 0;
  {
    std::unique_lock gate(writes_gate_);
    std::shared_lock lock(account_.mu_);
    seen = account_.changes_.load();
    journal_seq = journal_.last_seq();
    if (seen == saved_changes_ && !journal_.has_entries()) return;
    json doc{{"trainyardEmulatorState", kStateVersion},
             {"account", account_.options_.account},
             {"nodeSeq", account_.node_seq_},
             {"journalSeq", journal_seq}};
    for (const auto& [id, p] : account_.pools_) doc["pools"].push_back(pool_json(p));
    for (const auto& [id, n] : account_.nodes_) doc["nodes"].push_back(node_json(n));
    for (const auto& [id, j] : account_.jobs_) doc["jobs"].push_back(job_json(j));
    text = doc.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  // Nothing dropped from the journal unless the snapshot holding it is durable, rename included.
  const int fd = replace_file(account_.options_.state_file, text);
  if (fd < 0) return;
  ::close(fd);
  saved_changes_ = seen;
  journal_.drop_through(journal_seq);
}

Result<void> Service::load() {
  if (account_.options_.state_file.empty()) return {};
  auto snapshot_seq = load_snapshot();
  if (!snapshot_seq) return snapshot_seq.error();
  saved_changes_ = account_.changes_.load();
  if (auto ok = open_journal(*snapshot_seq); !ok) return ok.error();
  return {};
}

Result<uint64_t> Service::load_snapshot() {
  std::ifstream in(account_.options_.state_file);
  if (!in) return uint64_t{0};  // a new state file
  std::stringstream buf;
  buf << in.rdbuf();
  json doc = json::parse(buf.str(), nullptr, false);
  const json version = doc.is_object() ? doc.value("trainyardEmulatorState", json()) : json();
  if (!version.is_number_integer() || version.get<int64_t>() != kStateVersion) {
    return make_error(ErrorKind::Parse, fmt::format("{}: not an emulator state file (version {})",
                                                    account_.options_.state_file, kStateVersion));
  }
  std::unique_lock lock(account_.mu_);
  try {
    const Fields top(doc, "");
    account_.node_seq_ = doc.contains("nodeSeq") ? top.whole<uint64_t>("nodeSeq") : 0;
    auto list = [&](const char* key, auto add) {
      if (doc.contains(key)) top.each(key, add);
    };
    list("pools", [this](const Fields& p) {
      account_.pools_.emplace(p.get<std::string>("id"), pool_from(p));
    });
    list("nodes", [this](const Fields& n) {
      account_.nodes_.emplace(n.get<std::string>("id"), node_from(n));
    });
    list("jobs", [this](const Fields& j) {
      account_.jobs_.emplace(j.get<std::string>("id"), job_from(j));
    });
    return doc.contains("journalSeq") ? top.whole<uint64_t>("journalSeq") : 0;
  } catch (const std::exception& e) {  // StateFieldError: names the place
    account_.pools_.clear();
    account_.nodes_.clear();
    account_.jobs_.clear();
    return make_error(ErrorKind::Parse,
                      fmt::format("{}: {}", account_.options_.state_file, e.what()));
  }
}

}  // namespace trainyard::emu
