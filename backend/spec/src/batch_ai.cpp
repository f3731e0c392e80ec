#include "spec/batch_ai.hpp"

#include <cctype>
#include <climits>

#include <fmt/format.h>

#include "batch_ai_parts.hpp"

namespace trainyard::spec {

namespace {

constexpr std::string_view kTaskId = "main";

std::string stem_id(std::string_view file) {
  std::string id = std::filesystem::path(file).stem().string();
  for (char& c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '-';
  }
  if (id.size() > 64) id.resize(64);
  return id.empty() ? "batchai-job" : id;
}

// Double quotes keep `$AZ_BATCH_*` expandable by the task's shell.
std::string dquote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\' || c == '`') out += '\\';
    out += c;
  }
  return out + "\"";
}

bool is_var_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

void check_dir_id(const JsonFields& f, const std::string& id) {
  for (char c : id) {
    if (!is_var_char(c))
      f.fail("id", "expected letters, digits or '_' (it names $AZ_BATCHAI_…_<ID>)");
  }
}

void read_inputs(AiContext& ctx, JsonFields& p) {
  const json* arr = p.array_field("inputDirectories");
  for (std::size_t i = 0; arr && i < arr->size(); ++i) {
    std::string ptr = pointer_join(p.at("inputDirectories"), i);
    require_object(ctx.map, (*arr)[i], ptr);
    JsonFields f(ctx.map, (*arr)[i], ptr);
    std::string id = f.required_str("id");
    check_dir_id(f, id);
    ctx.vars.emplace_back("AZ_BATCHAI_INPUT_" + id, substitute(ctx, f.required_str("path")));
    ctx.spec.inputs.push_back({id, ctx.vars.back().second, ctx.map.place(f.at("path"))});
    for (const auto& k : f.unread()) unmapped(ctx, f, k, "unknown field of an input directory");
  }
}

std::string output_path(AiContext& ctx, JsonFields& f) {
  std::string prefix = substitute(ctx, f.required_str("pathPrefix"));
  auto suffix = f.str("pathSuffix");
  bool fresh = f.boolean("createNew").value_or(true);
  std::string path = fresh ? fmt::format("{}/{}/outputs", prefix, ctx.job_id) : prefix;
  return suffix && !suffix->empty() ? path + "/" + substitute(ctx, *suffix) : path;
}

std::vector<std::string> read_outputs(AiContext& ctx, JsonFields& p) {
  std::vector<std::string> dirs;
  const json* arr = p.array_field("outputDirectories");
  for (std::size_t i = 0; arr && i < arr->size(); ++i) {
    std::string ptr = pointer_join(p.at("outputDirectories"), i);
    require_object(ctx.map, (*arr)[i], ptr);
    JsonFields f(ctx.map, (*arr)[i], ptr);
    std::string id = f.required_str("id");
    check_dir_id(f, id);
    dirs.push_back(output_path(ctx, f));
    ctx.vars.emplace_back("AZ_BATCHAI_OUTPUT_" + id, dirs.back());
    if (f.object().contains("type"))
      unmapped(ctx, f, "type",
               "output directory type is informational in Batch AI; Batch has none");
    for (const auto& k : f.unread()) unmapped(ctx, f, k, "unknown field of an output directory");
  }
  return dirs;
}

void set_job_vars(AiContext& ctx) {
  for (const auto& [name, value] : ctx.vars) {
    if (name == "AZ_BATCHAI_JOB_TEMP") continue;  // exported by the task's shell (see header)
    ctx.spec.job.commonEnvironmentSettings.push_back({name, value, false});
    ctx.env_names.push_back(name);
  }
  ctx.env_names.push_back("AZ_BATCHAI_JOB_TEMP");
}

void read_env(AiContext& ctx, JsonFields& p) {
  const json* arr = p.array_field("environmentVariables");
  if (!arr) return;
  for (auto e : read_env_settings(ctx.map, *arr, p.at("environmentVariables"))) {
    e.value = substitute(ctx, e.value);
    ctx.env_names.push_back(e.name);
    ctx.spec.job.commonEnvironmentSettings.push_back(std::move(e));
  }
}

void read_secret(AiContext& ctx, SpecTask& task, JsonFields& f) {
  std::string name = f.required_str("name");
  if (f.object().contains("valueSecretReference")) {
    unmapped(
        ctx, f, "valueSecretReference",
        fmt::format("Key Vault reference for secret '{}' cannot be resolved; set it at submission",
                    name));
    return;
  }
  task.environmentSettings.push_back({name, f.str("value").value_or(""), true});
  ctx.spec.secret_names.push_back(name);
  ctx.env_names.push_back(name);
  for (const auto& k : f.unread()) unmapped(ctx, f, k, "unknown field of a secret");
}

void read_secrets(AiContext& ctx, SpecTask& task, JsonFields& p) {
  const json* arr = p.array_field("secrets");
  for (std::size_t i = 0; arr && i < arr->size(); ++i) {
    std::string ptr = pointer_join(p.at("secrets"), i);
    require_object(ctx.map, (*arr)[i], ptr);
    JsonFields f(ctx.map, (*arr)[i], ptr);
    read_secret(ctx, task, f);
  }
}

void read_registry(AiContext& ctx, ContainerSettings& c, JsonFields& r) {
  c.imageName = r.required_str("image");
  if (auto server = r.str("serverUrl")) {
    c.extra.emplace_back("registry", RawJson{json({{"registryServer", *server}}).dump()});
  }
  if (r.object().contains("credentials")) {
    unmapped(ctx, r, "credentials",
             "registry credentials are not carried over; give the pool the registry");
  }
  for (const auto& k : r.unread()) unmapped(ctx, r, k, "unknown field of imageSourceRegistry");
}

void read_container(AiContext& ctx, SpecTask& task, JsonFields& p) {
  const json* cs = p.object_field("containerSettings");
  if (!cs) return;
  JsonFields f(ctx.map, *cs, p.at("containerSettings"));
  const json* reg = f.object_field("imageSourceRegistry");
  if (!reg) f.fail("imageSourceRegistry", "required: an object with 'image'");
  JsonFields r(ctx.map, *reg, f.at("imageSourceRegistry"));
  task.containerSettings.emplace();
  read_registry(ctx, *task.containerSettings, r);
  if (f.object().contains("shmSize"))
    unmapped(ctx, f, "shmSize", "container shared memory size has no Batch task equivalent");
  for (const auto& k : f.unread()) unmapped(ctx, f, k, "unknown field of containerSettings");
}

void read_constraints(AiContext& ctx, JsonFields& p) {
  const json* c = p.object_field("constraints");
  if (!c) return;
  JsonFields f(ctx.map, *c, p.at("constraints"));
  auto wall = f.duration("maxWallClockTime");
  if (!wall) wall = f.duration("maxJobRunDuration");
  if (wall) ctx.spec.job.constraints = Constraints{wall, std::nullopt, std::nullopt};
  for (const auto& k : f.unread()) unmapped(ctx, f, k, "unknown constraint");
}

std::string bash(std::string_view script) {
  return "/bin/bash -c " + shell_quote(script);
}

void read_job_prep(AiContext& ctx, JsonFields& p, const std::string& setup) {
  const json* jp = p.object_field("jobPreparation");
  if (!jp) return;
  JsonFields f(ctx.map, *jp, p.at("jobPreparation"));
  JobAuxTask prep;
  prep.commandLine = bash(setup + substitute(ctx, f.required_str("commandLine")));
  ctx.spec.job.jobPreparationTask = std::move(prep);
  for (const auto& k : f.unread()) unmapped(ctx, f, k, "unknown field of jobPreparation");
}

void read_unmappable(AiContext& ctx, JsonFields& p) {
  if (p.object().contains("cluster"))
    unmapped(ctx, p, "cluster", "Batch AI cluster reference; the pool is chosen with --pool");
  if (p.object().contains("mountVolumes"))
    unmapped(ctx, p, "mountVolumes",
             "job-level mount volumes have no Batch task equivalent; mount them on the pool");
  if (p.object().contains("schedulingPriority"))
    unmapped(ctx, p, "schedulingPriority",
             "Batch AI scheduling priority has no exact Batch equivalent");
  if (auto dir = p.str("stdOutErrPathPrefix")) {
    ctx.vars.emplace_back("AZ_BATCHAI_STDOUTERR_DIR",
                          fmt::format("{}/{}/stdouterr", substitute(ctx, *dir), ctx.job_id));
    unmapped(
        ctx, p, "stdOutErrPathPrefix",
        "stdout and stderr stay in the task directory; AZ_BATCHAI_STDOUTERR_DIR names this folder");
  }
}

// Created on every node before the command: Batch AI created output and temp folders itself.
std::string setup_script(const AiContext& ctx, const std::vector<std::string>& dirs) {
  std::string s = fmt::format("export AZ_BATCHAI_JOB_TEMP={}; mkdir -p \"$AZ_BATCHAI_JOB_TEMP\"",
                              dquote("$AZ_BATCH_NODE_SHARED_DIR/" + ctx.job_id + "/temp"));
  for (const auto& d : dirs) s += " " + dquote(d);
  return s + " && ";
}

void read_layout(AiContext& ctx, JsonFields& p) {
  ctx.node_count = p.integer("nodeCount", 1, INT_MAX).value_or(1);
  ctx.spec.job.priority = p.integer("priority", -1000, 1000);  // 2017-09-01-preview
  ctx.spec.job.displayName = p.str("experimentName");
}

void build_task(AiContext& ctx, JsonFields& p, SpecTask& task, const std::string& setup) {
  task.id = std::string(kTaskId);
  task.origin = ctx.map.location(p.pointer());
  read_secrets(ctx, task, p);
  read_container(ctx, task, p);
  std::string cmd = read_toolkit(ctx, p);
  task.commandLine = bash(setup + cmd);
  if (ctx.node_count > 1) {
    // The coordination command runs on every node, so each gets its folders.
    task.multiInstanceSettings =
        MultiInstanceSettings{ctx.node_count, bash(setup.substr(0, setup.size() - 4)), {}};
  }
}

JobSpec map_job(const JsonSource& src, const json& props, const std::string& ptr,
                const BatchAiOptions& opt) {
  JobSpec spec;
  AiContext ctx{src.map, spec, opt.job_id.value_or(stem_id(src.map.file())), 1, {}, {}};
  check_batch_id(src.map, "", ctx.job_id);
  spec.job.id = ctx.job_id;
  spec.job.poolInfo.poolId = opt.pool_id;
  require_object(src.map, props, ptr);
  JsonFields p(src.map, props, ptr);
  read_layout(ctx, p);
  ctx.vars.emplace_back("AZ_BATCHAI_MOUNT_ROOT", opt.mount_root);
  read_inputs(ctx, p);
  std::vector<std::string> dirs = read_outputs(ctx, p);
  ctx.vars.emplace_back("AZ_BATCHAI_JOB_TEMP", "$AZ_BATCH_NODE_SHARED_DIR/" + ctx.job_id + "/temp");
  read_unmappable(ctx, p);
  set_job_vars(ctx);
  read_env(ctx, p);
  read_constraints(ctx, p);
  std::string setup = setup_script(ctx, dirs);
  read_job_prep(ctx, p, setup);
  SpecTask task;
  build_task(ctx, p, task, setup);
  spec.tasks.push_back(std::move(task));
  for (const auto& k : p.unread())
    unmapped(ctx, p, k, fmt::format("unknown Batch AI job field '{}'", k));
  return spec;
}

JobSpec map_root(const JsonSource& src, const BatchAiOptions& opt) {
  require_object(src.map, src.root, "");
  if (!src.root.contains("properties")) return map_job(src, src.root, "", opt);
  JobSpec spec = map_job(src, src.root["properties"], "/properties", opt);
  for (const auto& [k, v] : src.root.items()) {
    if (k == "properties") continue;
    spec.unmapped.push_back({src.map.place(pointer_join("", k)),
                             fmt::format("ARM resource field '{}' is not part of a Batch job", k)});
  }
  return spec;
}

}  // namespace

std::string substitute(const AiContext& ctx, std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    bool done = false;
    for (const auto& [name, value] : ctx.vars) {
      std::string braced = "${" + name + "}";
      std::string bare = "$" + name;
      if (text.substr(i).starts_with(braced)) {
        out += value, i += braced.size(), done = true;
      } else if (text.substr(i).starts_with(bare) &&
                 (i + bare.size() == text.size() || !is_var_char(text[i + bare.size()]))) {
        out += value, i += bare.size(), done = true;
      }
      if (done) break;
    }
    if (!done) out += text[i++];
  }
  return out;
}

std::string shell_quote(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

void unmapped(AiContext& ctx, JsonFields& f, std::string_view key, std::string what) {
  f.skip(key);
  ctx.spec.unmapped.push_back({ctx.map.place(f.at(key)), std::move(what)});
}

Result<JobSpec> parse_batch_ai_json(std::string_view file, std::string_view text,
                                    const BatchAiOptions& options) {
  auto src = load_json_source(std::string(file), text);
  if (!src) return src.error();
  try {
    return map_root(*src, options);
  } catch (const SpecFailure& f) {
    return f.error;
  }
}

Result<JobSpec> load_batch_ai_json(const std::filesystem::path& path,
                                   const BatchAiOptions& options) {
  auto text = read_source_file(path);
  if (!text) return text.error();
  return parse_batch_ai_json(path.string(), *text, options);
}

bool looks_like_batch_ai(std::string_view text) {
  json root = json::parse(text, nullptr, false);
  if (!root.is_object()) return false;
  const json& p = root.contains("properties") ? root["properties"] : root;
  if (!p.is_object()) return false;
  for (auto key : {"stdOutErrPathPrefix", "customToolkitSettings", "cntkSettings",
                   "pyTorchSettings", "tensorFlowSettings", "caffeSettings", "caffe2Settings",
                   "chainerSettings", "horovodSettings", "customMpiSettings"}) {
    if (p.contains(key)) return true;
  }
  return false;
}

}  // namespace trainyard::spec
