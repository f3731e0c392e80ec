// TaskPageSax: each Task is what parse_task gives for its item: the same members, types,
// defaults and words.
#include "task_page_sax.hpp"

#include <fmt/format.h>

#include "azure/parse.hpp"
#include "parse_values.hpp"

namespace trainyard::azure::detail {
namespace {

std::string expected(Kind k) {
  switch (k) {
    case Kind::Int:
      return "an integer";
    case Kind::Object:
      return "an object";
    case Kind::Array:
      return "an array";
    default:
      return "a string";
  }
}

}  // namespace

bool TaskPageSax::parse_error(std::size_t position, const std::string&,
                              const nlohmann::detail::exception&) {
  if (!error_) error_ = make_error(ErrorKind::Parse, fmt::format("not JSON at byte {}", position));
  return false;
}

std::string TaskPageSax::pointer(std::size_t depth) const {
  std::string out;
  for (std::size_t k = 0; k < depth && k < stack_.size(); ++k) {
    const Frame& f = stack_[k];
    if (f.array)
      out += "/" + std::to_string(f.index);
    else if (f.member)
      out += "/" + std::string(f.member->key);
  }
  return out;
}

bool TaskPageSax::fail_at(std::string where, std::string_view what) {
  if (where.empty()) where = "(root)";
  if (!error_) error_ = make_error(ErrorKind::Parse, fmt::format("{}: {}", where, what));
  return false;
}

void TaskPageSax::advance() {
  if (stack_.empty()) return;
  Frame& top = stack_.back();
  if (top.array)
    ++top.index;
  else
    top.member = nullptr;
}

bool TaskPageSax::key(std::string_view k) {
  Frame& top = stack_.back();
  top.member = nullptr;
  auto members = detail::members_of(top.node);
  for (std::size_t n = 0; n < members.size(); ++n) {
    if (members[n].key != k) continue;
    top.member = &members[n];
    if (top.seen & (1u << n)) return fail("given twice");
    top.seen |= 1u << n;
    break;
  }
  return true;
}

bool TaskPageSax::scalar(const Scalar& v) {
  if (stack_.empty()) return fail_at("", "expected an object, got " + a_type(v.type));
  Frame& top = stack_.back();
  bool ok = true;
  if (top.node == Node::Skip) return true;
  if (top.array && top.node == Node::TaskIds) {
    if (v.type != json::value_t::string) return fail("expected a string, got " + a_type(v.type));
    ids_.push_back(std::move(*v.text));
  } else if (top.array) {
    return fail("expected an object, got " + a_type(v.type));
  } else if (top.member && v.type != json::value_t::null) {
    ok = assign(*top.member, v);
  }
  advance();
  return ok;
}

bool TaskPageSax::open(bool array) {
  const json::value_t type = array ? json::value_t::array : json::value_t::object;
  if (stack_.empty()) {
    if (array) return fail_at("", "expected an object, got an array");
    stack_.push_back({Node::Page});
    return true;
  }
  const Frame& top = stack_.back();
  Node child = Node::Skip;
  if (top.node == Node::Skip) {
  } else if (top.array) {
    child = detail::element_of(top.node);
    if (child == Node::Skip) return fail("expected a string, got " + a_type(type));
    if (array) return fail("expected an object, got an array");
  } else if (top.member) {
    const Kind want = array ? Kind::Array : Kind::Object;
    if (top.member->kind != want)
      return fail("expected " + expected(top.member->kind) + ", got " + a_type(type));
    child = top.member->child;
  }
  stack_.push_back({child, array});
  begin(child);
  return true;
}

bool TaskPageSax::close() {
  const Node n = stack_.back().node;
  if (n != Node::Skip && !end(n)) return false;
  stack_.pop_back();
  advance();
  return true;
}

void TaskPageSax::begin(Node n) {
  switch (n) {
    case Node::Tasks:
      has_value_ = true;
      break;
    case Node::Task:
      t_ = Task{};
      t_.account = account_;
      t_.job_id = job_;
      has_id_ = false;
      break;
    case Node::EnvItem:
      t_.environment_settings.emplace_back();
      has_name_ = false;
      break;
    case Node::ResourceFile:
      t_.resource_files.emplace_back();
      break;
    case Node::OutputFile:
      t_.output_files.emplace_back();
      break;
    case Node::UploadHeader:
      t_.output_files.back().upload_headers.emplace_back();
      has_name_ = false;
      break;
    case Node::DependsOn:
      ids_.clear();
      ranges_.clear();
      break;
    case Node::Range:
      start_.reset();
      end_.reset();
      break;
    case Node::FailureInfo:
      t_.execution_info.failure_info = FailureInfo{};
      break;
    case Node::NodeInfo:
      t_.node_info = TaskNodeInfo{};
      break;
    case Node::MultiInstance:
      t_.multi_instance = MultiInstanceSettings{};
      break;
    default:
      break;
  }
}

bool TaskPageSax::end(Node n) {
  // Where this object is, for a message: built only when one is needed (most objects close fine).
  auto here = [this] { return pointer(stack_.size() - 1); };
  switch (n) {
    case Node::Page:
      return has_value_ || fail_at("/value", "missing");
    case Node::Task:
      if (!has_id_) return fail_at(here() + "/id", "missing");
      page_.tasks.push_back(std::move(t_));
      return true;
    case Node::EnvItem:
    case Node::UploadHeader:
      return has_name_ || fail_at(here() + "/name", "missing");
    case Node::Range:
      if (!start_) return fail_at(here() + "/start", "missing");
      if (!end_) return fail_at(here() + "/end", "missing");
      ranges_.push_back({*start_, *end_, stack_[stack_.size() - 2].index});
      return true;
    case Node::DependsOn:
      t_.depends_on.task_ids = std::move(ids_);
      for (const auto& r : ranges_) {
        auto ok = detail::append_id_range(r.start, r.end, t_.depends_on.task_ids);
        if (!ok)
          return fail_at(fmt::format("{}/taskIdRanges/{}", here(), r.index), ok.error().message);
      }
      return true;
    default:
      return true;
  }
}

bool TaskPageSax::assign(const Member& m, const Scalar& v) {
  const bool is_text = v.type == json::value_t::string;
  switch (m.kind) {
    case Kind::String:
    case Kind::Url:
    case Kind::Enum:
      if (!is_text) return fail("expected a string, got " + a_type(v.type));
      if (m.kind == Kind::Enum) return assign_enum(m.field, *v.text);
      if (m.kind == Kind::Url && !v.text->empty()) *v.text = redact_url(*v.text);
      return assign_text(m.field, *v.text);
    case Kind::Int: {
      if (v.type == json::value_t::number_float)
        return fail("expected an integer, got " + json(v.f).dump());
      if (v.type != json::value_t::number_integer && v.type != json::value_t::number_unsigned)
        return fail("expected an integer, got " + a_type(v.type));
      auto i = v.type == json::value_t::number_unsigned ? detail::int_value(v.u, std::nullopt)
                                                        : detail::int_value(std::nullopt, v.i);
      return i ? assign_int(m.field, *i) : fail(i.error().message);
    }
    case Kind::Time: {
      if (!is_text) return fail("expected a string, got " + a_type(v.type));
      auto t = detail::time_value(*v.text);
      return t ? assign_time(m.field, *t) : fail(t.error().message);
    }
    case Kind::Duration: {
      if (!is_text) return fail("expected a string, got " + a_type(v.type));
      auto d = detail::duration_value(*v.text);
      if (!d) return fail(d.error().message);
      t_.constraints.max_wall_clock_time = *d;
      return true;
    }
    default:
      return fail("expected " + expected(m.kind) + ", got " + a_type(v.type));
  }
}

bool TaskPageSax::assign_text(Field f, std::string& s) {
  ExecutionInfo& e = t_.execution_info;
  switch (f) {
    case Field::NextLink:
      page_.next_link = std::move(s);
      break;
    case Field::Id:
      t_.id = std::move(s);
      has_id_ = true;
      break;
    case Field::DisplayName:
      t_.display_name = std::move(s);
      break;
    case Field::CommandLine:
      t_.command_line = std::move(s);
      break;
    case Field::ETag:
      t_.etag = std::move(s);
      break;
    case Field::Name:
    case Field::Value: {
      NameValue& nv = stack_.back().node == Node::EnvItem
                          ? t_.environment_settings.back()
                          : t_.output_files.back().upload_headers.back();
      if (f == Field::Name) has_name_ = true;
      (f == Field::Name ? nv.name : nv.value) = std::move(s);
      break;
    }
    case Field::HttpUrl:
      t_.resource_files.back().http_url = std::move(s);
      break;
    case Field::StorageContainerUrl:
      t_.resource_files.back().storage_container_url = std::move(s);
      break;
    case Field::AutoStorageContainerName:
      t_.resource_files.back().auto_storage_container_name = std::move(s);
      break;
    case Field::BlobPrefix:
      t_.resource_files.back().blob_prefix = std::move(s);
      break;
    case Field::FilePath:
      t_.resource_files.back().file_path = std::move(s);
      break;
    case Field::FileMode:
      t_.resource_files.back().file_mode = std::move(s);
      break;
    case Field::ResourceId:
      // identityReference of a resource file, or of an output file's container.
      (enclosing() == Node::ResourceFile ? t_.resource_files.back().identity
                                         : t_.output_files.back().identity) = std::move(s);
      break;
    case Field::FilePattern:
      t_.output_files.back().file_pattern = std::move(s);
      break;
    case Field::ContainerUrl:
      t_.output_files.back().container_url = std::move(s);
      break;
    case Field::Path:
      t_.output_files.back().path = std::move(s);
      break;
    case Field::UploadCondition:
      t_.output_files.back().upload_condition = std::move(s);
      break;
    case Field::Code:
      e.failure_info->code = std::move(s);
      break;
    case Field::Message:
      e.failure_info->message = std::move(s);
      break;
    case Field::PoolId:
      t_.node_info->pool_id = std::move(s);
      break;
    case Field::NodeId:
      t_.node_info->node_id = std::move(s);
      break;
    case Field::TaskRootDirectory:
      t_.node_info->task_root_directory = std::move(s);
      break;
    case Field::CoordinationCommandLine:
      t_.multi_instance->coordination_command_line = std::move(s);
      break;
    default:
      break;
  }
  return true;
}

bool TaskPageSax::assign_int(Field f, int v) {
  switch (f) {
    case Field::RequiredSlots:
      t_.required_slots = v;
      break;
    case Field::MaxRetries:
      t_.constraints.max_task_retry_count = v;
      break;
    case Field::Start:
      start_ = v;
      break;
    case Field::End:
      end_ = v;
      break;
    case Field::ExitCode:
      t_.execution_info.exit_code = v;
      break;
    case Field::RetryCount:
      t_.execution_info.retry_count = v;
      break;
    case Field::RequeueCount:
      t_.execution_info.requeue_count = v;
      break;
    case Field::NumberOfInstances:
      t_.multi_instance->number_of_instances = v;
      break;
    default:
      break;
  }
  return true;
}

bool TaskPageSax::assign_time(Field f, Timestamp t) {
  switch (f) {
    case Field::CreationTime:
      t_.creation_time = t;
      break;
    case Field::StateTransitionTime:
      t_.state_transition_time = t;
      break;
    case Field::LastModified:
      t_.last_modified = t;
      break;
    case Field::StartTime:
      t_.execution_info.start_time = t;
      break;
    case Field::EndTime:
      t_.execution_info.end_time = t;
      break;
    case Field::LastRetryTime:
      t_.execution_info.last_retry_time = t;
      break;
    default:
      break;
  }
  return true;
}

// Unknown values read as parse_task reads them (see parse_task.cpp for why each default).
bool TaskPageSax::assign_enum(Field f, const std::string& s) {
  switch (f) {
    case Field::State:
      t_.state = from_wire<TaskState>(s).value_or(TaskState::Active);
      break;
    case Field::PreviousState:
      t_.previous_state = from_wire<TaskState>(s);
      break;
    case Field::Result: {
      auto r = from_wire<TaskResult>(s);
      t_.execution_info.result = r ? r : std::optional<TaskResult>(TaskResult::Failure);
      break;
    }
    case Field::Category:
      t_.execution_info.failure_info->category =
          from_wire<ErrorCategory>(s).value_or(ErrorCategory::UserError);
      break;
    default:
      break;
  }
  return true;
}

}  // namespace trainyard::azure::detail
