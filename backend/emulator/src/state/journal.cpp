#include "journal.hpp"

#include <unistd.h>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "durable_file.hpp"

namespace trainyard::emu {

namespace {

using nlohmann::json;

Result<JournalEntry> entry_of(const std::string& line) {
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return make_error(ErrorKind::Parse, "not a JSON object");
  // Checked first: nlohmann converts a float or a negative number to an integer without a word.
  if (!j.value("seq", json()).is_number_unsigned() || !j.value("at", json()).is_number_integer())
    return make_error(ErrorKind::Parse, "seq and at must be whole numbers");
  try {
    return JournalEntry{j.at("seq"), j.at("at"), j.at("method"), j.at("target"), j.at("body")};
  } catch (const json::exception& e) {
    return make_error(ErrorKind::Parse, e.what());
  }
}

}  // namespace

std::string journal_line(const JournalEntry& e) {
  json j{
      {"seq", e.seq}, {"at", e.at}, {"method", e.method}, {"target", e.target}, {"body", e.body}};
  return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

Result<std::vector<JournalEntry>> Journal::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::vector<JournalEntry>{};
  std::stringstream buf;
  buf << in.rdbuf();
  return parse(buf.str(), path);
}

Result<std::vector<JournalEntry>> Journal::parse(const std::string& text, const std::string& path) {
  std::vector<JournalEntry> out;
  size_t pos = 0;
  for (int line_no = 1;; ++line_no) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;  // nothing, or an append cut short by a crash
    auto e = entry_of(text.substr(pos, end - pos));
    if (!e)
      return make_error(ErrorKind::Parse,
                        fmt::format("{}:{}: {}", path, line_no, e.error().message));
    out.push_back(std::move(*e));
    pos = end + 1;
  }
  return out;
}

Result<void> Journal::open(const std::string& path, std::vector<JournalEntry> entries,
                           uint64_t last_seq) {
  std::lock_guard lock(mu_);
  path_ = path;
  last_seq_ = last_seq;
  std::string text;
  for (const auto& e : entries) {
    auto line = journal_line(e);
    text += line;
    lines_.emplace_back(e.seq, std::move(line));
    last_seq_ = std::max(last_seq_, e.seq);
  }
  // Rewritten rather than appended to, so a line cut short by a crash is not followed by more.
  fd_ = replace_file(path_, text);
  if (fd_ < 0) return make_error(ErrorKind::Io, fmt::format("{}: cannot write the journal", path_));
  return {};
}

bool Journal::append(JournalEntry e) {
  std::lock_guard lock(mu_);
  if (fd_ < 0) return false;
  e.seq = last_seq_ + 1;
  auto line = journal_line(e);
  const off_t before = ::lseek(fd_, 0, SEEK_END);
  if (!write_all(fd_, line) || ::fdatasync(fd_) != 0) {
    // A part-written line would make the next one unreadable: take it back.
    if (before >= 0 && ::ftruncate(fd_, before) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
    return false;
  }
  last_seq_ = e.seq;
  lines_.emplace_back(e.seq, std::move(line));
  return true;
}

// Locked: a failed append closes the file while request threads ask.
bool Journal::is_open() const {
  std::lock_guard lock(mu_);
  return fd_ >= 0;
}

uint64_t Journal::last_seq() const {
  std::lock_guard lock(mu_);
  return last_seq_;
}

bool Journal::has_entries() const {
  std::lock_guard lock(mu_);
  return !lines_.empty();
}

void Journal::drop_through(uint64_t seq) {
  std::lock_guard lock(mu_);
  if (fd_ < 0 || lines_.empty() || lines_.front().first > seq) return;
  auto kept = lines_;
  while (!kept.empty() && kept.front().first <= seq) kept.pop_front();
  std::string text;
  for (const auto& [n, line] : kept) text += line;
  // On failure the old file stays: its entries up to `seq` are skipped at load anyway.
  int fd = replace_file(path_, text);
  if (fd < 0) return;
  ::close(fd_);
  fd_ = fd;
  lines_ = std::move(kept);
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace trainyard::emu
