// Form keys beyond editing: ^O opens the whole request in $EDITOR (checked before it is sent),
// ^T evaluates; and how a service's error reads in a form.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "spec/spec_error.hpp"
#include "tui_batch.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

// A private temporary file holding `text`, named after the request (`trainyard-XXXXXX-pool.json`)
// so the editor picks JSON highlighting.
Result<std::string> write_temp(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = fmt::format("{}/trainyard-XXXXXX-{}", dir && *dir ? dir : "/tmp", name);
  int fd = mkstemps(path.data(), static_cast<int>(name.size() + 1));
  if (fd < 0) return make_error(ErrorKind::Io, "cannot create a file for the editor in " + path);
  auto written = ::write(fd, text.data(), text.size());
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size()))
    return make_error(ErrorKind::Io, "cannot write " + path);
  return path;
}

// The request as the editor left it; the temporary file is removed either way.
Result<std::string> edit_in_editor(TuiState& st, const std::string& name, const std::string& text) {
  auto path = write_temp(name, text);
  if (!path) return path.error();
  auto edited = st.modal.edit_file(*path);
  auto out = edited ? read_whole_file(*path) : Result<std::string>(edited.error());
  std::remove(path->c_str());
  return out;
}

void edit_form_request(TuiState& st) {
  auto& hooks = st.modal.form_hooks;
  if (!hooks.to_json || !hooks.send_json || !st.modal.edit_file) return;
  std::string text = hooks.draft.empty() ? hooks.to_json(*st.modal.form) : hooks.draft;
  auto edited = edit_in_editor(st, hooks.json_name, text);
  if (!edited) {
    st.modal.form->clear_errors();
    st.modal.form->error = sanitize_text(edited.error().message) + ": nothing sent";
    return;
  }
  if (edited->find_first_not_of(" \t\r\n") == std::string::npos) {
    st.modal.form->clear_errors();
    st.modal.form->error = "the editor left " + hooks.json_name + " empty: nothing sent";
    return;
  }
  // A copy: sending closes the form, which drops the hooks (and the one running).
  auto send = hooks.send_json;
  Form form = *st.modal.form;
  auto sent = send(*edited, form);
  if (sent) return;
  // The check failed: nothing was sent; the next ^O opens this text again.
  st.modal.form_hooks.draft = *edited;
  st.modal.form->clear_errors();
  st.modal.form->error = sanitize_text(sent.error().message) + " · ^O edits it again";
}

}  // namespace

bool handle_form_hook_key(TuiState& st, const KeyEvent& key) {
  if (key.key != Key::Char || !key.ctrl || !st.modal.form) return false;
  if (key.ch == 'o' && st.modal.form_hooks.to_json) {
    edit_form_request(st);
    return true;
  }
  if (key.ch == 't' && st.modal.form_hooks.evaluate) {
    st.modal.form_hooks.evaluate(*st.modal.form);
    return true;
  }
  return false;
}

void close_form(TuiState& st) {
  st.modal.form.reset();
  st.modal.on_form_submit = nullptr;
  st.modal.form_hooks = {};
  if (st.modal.mode == Mode::Form) st.modal.mode = Mode::Normal;
}

Result<std::string> read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorKind::Io, "cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Result<nlohmann::json> parse_request_json(const std::string& name, const std::string& text) {
  try {
    auto j = nlohmann::json::parse(text);
    if (!j.is_object())
      return make_error(ErrorKind::Parse, name + ":1:1: expected a JSON object (the request)");
    return j;
  } catch (const nlohmann::json::parse_error& e) {
    // `byte` is 1-based: the character the parser stopped at.
    auto pos = spec::pos_at_offset(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string what = e.what();
    if (auto colon = what.find(": syntax error"); colon != std::string::npos)
      what = what.substr(colon + 2);
    return make_error(ErrorKind::Parse, fmt::format("{}:{}:{}: {}", name, pos.line, pos.col, what));
  }
}

std::string service_error_text(const std::string& message) {
  std::string text = message;
  if (auto http = text.find(" (HTTP "); http != std::string::npos) text.erase(http);
  std::string detail;
  for (const char* tag : {"[Message: ", "[Reason: "}) {
    auto at = text.find(tag);
    if (at == std::string::npos) continue;
    auto end = text.find(']', at);
    detail = text.substr(at + std::strlen(tag),
                         end == std::string::npos ? end : end - at - std::strlen(tag));
    break;
  }
  auto colon = text.find(':');
  std::string code = colon == std::string::npos ? text : text.substr(0, colon);
  if (!detail.empty()) return sanitize_text(detail + " (" + code + ")");
  if (auto tag = text.find(" ["); tag != std::string::npos) text.erase(tag);
  return sanitize_text(text);
}

}  // namespace trainyard
