#include "sim/trace/InstructionParser.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/trace/OpCatalog.h"

namespace npusim {

namespace {

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

const OpSpec& read_op(const nlohmann::json& line, const TracePlace& place) {
  std::string name = read_string(required_field(line, "op", place, "op"), place, "op");
  if (const OpSpec* spec = find_op(name)) return *spec;
  auto names = op_names();
  place.fail("op", fmt::format("unknown op '{}'{}; known ops: {}", name, did_you_mean(name, names), fmt::join(names, ", ")));
}

std::string core_list_text(const std::vector<std::uint32_t>& cores) {
  return cores.empty() ? std::string("none") : fmt::format("{}", fmt::join(cores, ", "));
}

// The op decides the engine; an explicit "engine" must agree, and the config
// must have that engine slot.
std::string read_engine(const nlohmann::json& line, const OpSpec& spec, std::uint32_t core,
                        const HardwareConfig& cfg, const TracePlace& place) {
  if (line.contains("engine")) {
    std::string engine = read_string(line.at("engine"), place, "engine");
    auto known = op_engine_names();
    if (!contains(known, engine))
      place.fail("engine", fmt::format("unknown engine '{}'{}; known engines: {}", engine, did_you_mean(engine, known),
                                       fmt::join(known, ", ")));
    if (engine != spec.engine)
      place.fail("engine", fmt::format("op '{}' runs on engine '{}', not '{}'", spec.name, spec.engine, engine));
  }
  const CoreConfig& kind = cfg.core_of(core);
  if (!kind.has_engine(spec.engine))
    place.fail(line.contains("engine") ? "engine" : "op",
               cfg.core_kinds.empty()
                   ? fmt::format("op '{}' needs engine '{}', which this config's cores do not have (engines: {})",
                                 spec.name, spec.engine, fmt::join(kind.engines, ", "))
                   : fmt::format("op '{}' needs engine '{}', which core {} (kind '{}') does not have (engines: {}); "
                                 "cores with it: {}",
                                 spec.name, spec.engine, core, kind.kind, fmt::join(kind.engines, ", "),
                                 core_list_text(cfg.cores_with(spec.engine))));
  return spec.engine;
}

std::string space_list(const std::vector<AddressSpace>& spaces) {
  std::string s;
  for (auto space : spaces) s += (s.empty() ? "" : " or ") + std::string(address_space_name(space));
  return s;
}

std::vector<TensorOperand> read_operands(const nlohmann::json& line, const char* key,
                                         const std::vector<OperandSlot>& slots, const std::string& op,
                                         std::uint32_t core, const HardwareConfig& cfg, const TracePlace& place) {
  // An op without operands (ml_set) may leave the list out.
  if (slots.empty() && !line.contains(key)) return {};
  const auto& list = required_field(line, key, place, key);
  if (!list.is_array()) place.fail(key, fmt::format("must be a list of tensors, got {}", list.type_name()));
  if (list.size() != slots.size())
    place.fail(key, fmt::format("op '{}' takes {} {}, got {}", op, slots.size(), key, list.size()));
  std::vector<TensorOperand> operands;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    std::string field = fmt::format("{}[{}]", key, i);
    TensorOperand t = read_tensor(list[i], core, cfg, place, field);
    const auto& allowed = slots[i].spaces;
    if (std::find(allowed.begin(), allowed.end(), t.space) == allowed.end())
      place.fail(field + ".space", fmt::format("{} of '{}' must be in {}, not {}", slots[i].role, op,
                                               space_list(allowed), address_space_name(t.space)));
    if (!t.dense() && !slots[i].pitched)
      place.fail(field + ".pitch", fmt::format("{} of '{}' must be dense; only the memory side (dram or cluster) "
                                               "of load and store may have a pitch",
                                               slots[i].role, op));
    if (t.cluster && !slots[i].remote)
      place.fail(field + ".cluster", fmt::format("{} of '{}' reaches only its own cluster's cache; only the cache side "
                                                 "of load and store may name another cluster",
                                                 slots[i].role, op));
    operands.push_back(std::move(t));
  }
  return operands;
}

nlohmann::json read_params(const nlohmann::json& line, const OpSpec& spec, const TracePlace& place) {
  if (!line.contains("params")) return nlohmann::json::object();
  const auto& params = line.at("params");
  if (!params.is_object()) place.fail("params", fmt::format("must be an object, got {}", params.type_name()));
  reject_unknown_keys(params, spec.params, place, "params");
  return params;
}

DependencyMode read_mode(const nlohmann::json& v, const TracePlace& place, const std::string& field) {
  std::string name = read_string(v, place, field);
  for (auto mode : kDependencyModes)
    if (name == dependency_mode_name(mode)) return mode;
  const std::vector<std::string> modes = json_names(kDependencyModes);
  place.fail(field, fmt::format("unknown dependency mode '{}'{}; choose one of {}", name, did_you_mean(name, modes),
                                fmt::join(modes, ", ")));
}

// Staged dependencies release the consumer piece by piece, so they say along
// which dimension the pieces are cut; the other modes have no pieces.
std::string read_granularity(const nlohmann::json& dep, DependencyMode mode, const TracePlace& place,
                             const std::string& field) {
  bool given = dep.contains("granularity");
  if (mode != DependencyMode::Staged) {
    if (given) place.fail(field, "granularity applies only to \"staged\" dependencies");
    return "";
  }
  if (!given) place.fail(field, "a staged dependency needs a granularity: rows, channels, tiles or batch");
  std::string g = read_string(dep.at("granularity"), place, field);
  std::vector<std::string> choices = {"rows", "channels", "tiles", "batch"};
  if (!contains(choices, g))
    place.fail(field, fmt::format("unknown granularity '{}'{}; choose one of rows, channels, tiles, batch", g,
                                  did_you_mean(g, choices)));
  return g;
}

Dependency read_dependency(const nlohmann::json& v, const TracePlace& place, const std::string& field) {
  Dependency d;
  if (!v.is_object()) {
    if (!v.is_number_unsigned()) place.fail(field, "a dependency is an id or {\"id\":N,\"mode\":...}");
    d.producer = read_uint(v, place, field, kMaxInstructionId);
    return d;
  }
  reject_unknown_keys(v, {"id", "mode", "granularity"}, place, field);
  d.producer = read_uint(required_field(v, "id", place, field + ".id"), place, field + ".id", kMaxInstructionId);
  if (v.contains("mode")) d.mode = read_mode(v.at("mode"), place, field + ".mode");
  d.granularity = read_granularity(v, d.mode, place, field + ".granularity");
  return d;
}

std::vector<Dependency> read_dependencies(const nlohmann::json& line, const TracePlace& place) {
  std::vector<Dependency> deps;
  if (!line.contains("deps")) return deps;
  const auto& list = line.at("deps");
  if (!list.is_array()) place.fail("deps", fmt::format("must be a list, got {}", list.type_name()));
  for (std::size_t i = 0; i < list.size(); ++i) deps.push_back(read_dependency(list[i], place, fmt::format("deps[{}]", i)));
  return deps;
}

}  // namespace

Instruction parse_instruction(const nlohmann::json& line, const HardwareConfig& cfg, const TracePlace& place) {
  if (!line.is_object()) place.fail(fmt::format("an instruction must be a JSON object, got {}", line.type_name()));
  reject_unknown_keys(line, {"id", "op", "core", "engine", "inputs", "outputs", "params", "deps"}, place, "");
  Instruction ins;
  ins.line = place.line;
  ins.id = read_uint(required_field(line, "id", place, "id"), place, "id", kMaxInstructionId);
  const OpSpec& spec = read_op(line, place);
  ins.op = spec.name;
  if (line.contains("core")) ins.core = read_core(line.at("core"), cfg, place, "core");
  ins.engine = read_engine(line, spec, ins.core, cfg, place);
  ins.inputs = read_operands(line, "inputs", spec.inputs, spec.name, ins.core, cfg, place);
  ins.outputs = read_operands(line, "outputs", spec.outputs, spec.name, ins.core, cfg, place);
  if (auto problem = operand_overlap(ins)) place.fail(problem->field, problem->reason);
  ins.params = read_params(line, spec, place);
  ins.deps = read_dependencies(line, place);
  if (auto problem = spec.check(ins)) place.fail(problem->field, problem->reason);
  if (spec.hardware_check)
    if (auto problem = spec.hardware_check(ins, cfg.core_of(ins.core))) place.fail(problem->field, problem->reason);
  return ins;
}

}  // namespace npusim
