#include "apps/compiler/TraceWriter.h"

#include "sim/report/OutputOwnership.h"

#include <filesystem>
#include <fstream>
#include <map>

#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"
#include "sim/common/Interruption.h"
#include "sim/tensor/Npy.h"
#include "sim/trace/TraceReader.h"

namespace npusim {

namespace {

nlohmann::json tensor_json(const TensorOperand& t) {
  nlohmann::json j = {{"space", address_space_name(t.space)}, {"offset", t.offset}, {"shape", t.shape},
                      {"dtype", dtype_name(t.dtype)}};
  if (!t.dense()) j["pitch"] = t.pitch;
  if (t.cluster) j["cluster"] = *t.cluster;
  return j;
}

nlohmann::json binding_json(const DataBinding& b, const std::string& trace_dir) {
  nlohmann::json j = {{"name", b.name}, {"space", address_space_name(b.region.space)}, {"offset", b.region.offset}};
  if (b.dilated()) j["dilation"] = b.dilation;
  for (const auto& c : b.chunks)
    j["chunks"].push_back(b.region.space == AddressSpace::Cluster ? nlohmann::json{c.offset, c.bytes, c.cluster}
                                                                   : nlohmann::json{c.offset, c.bytes});
  if (b.compressed_indices) j["compressed"] = {{"indices", *b.compressed_indices}};
  if (!b.file.empty()) {
    j["file"] = std::filesystem::relative(std::filesystem::absolute(b.file_path), std::filesystem::absolute(trace_dir)).string();
    return j;
  }
  j["shape"] = b.data_shape;
  j["dtype"] = dtype_name(b.region.dtype);
  if (b.random_seed) j["random_seed"] = *b.random_seed;
  if (b.zero_fraction) j["zeros"] = *b.zero_fraction;
  return j;
}

}  // namespace

nlohmann::json header_line(const TraceHeader& header, const std::string& trace_dir) {
  nlohmann::json j = {{"format", kTraceFormat}, {"version", kTraceVersion}, {"compiled_by", kCompiledBy}};
  j["inputs"] = nlohmann::json::array();
  j["outputs"] = nlohmann::json::array();
  for (const auto& b : header.inputs) j["inputs"].push_back(binding_json(b, trace_dir));
  for (const auto& b : header.outputs) j["outputs"].push_back(binding_json(b, trace_dir));
  return j;
}

nlohmann::json instruction_line(const Instruction& inst) {
  nlohmann::json j = {{"id", inst.id}, {"op", inst.op}, {"core", inst.core}};
  j["inputs"] = nlohmann::json::array();
  j["outputs"] = nlohmann::json::array();
  for (const auto& t : inst.inputs) j["inputs"].push_back(tensor_json(t));
  for (const auto& t : inst.outputs) j["outputs"].push_back(tensor_json(t));
  if (!inst.params.empty()) j["params"] = inst.params;
  if (!inst.deps.empty()) {
    j["deps"] = nlohmann::json::array();
    for (const auto& d : inst.deps) {
      if (d.mode == DependencyMode::Full) {
        j["deps"].push_back(d.producer);
      } else {
        nlohmann::json dep = {{"id", d.producer}, {"mode", dependency_mode_name(d.mode)}};
        if (!d.granularity.empty()) dep["granularity"] = d.granularity;
        j["deps"].push_back(dep);
      }
    }
  }
  return j;
}

void save_carried_inputs(TraceHeader& header, const std::string& trace_path) {
  namespace fs = std::filesystem;
  const fs::path dir = trace_path + ".data";
  std::map<const void*, std::string> saved;  // weight copies share one file
  for (DataBinding& b : header.inputs) {
    if (!b.values) continue;
    auto [it, fresh] = saved.try_emplace(b.values.get(), (dir / (b.name + ".npy")).string());
    if (fresh && saved.size() == 1) {
      // Only into a directory npusim made for a trace (or a new or empty one).
      check_output_place(dir.string(), OutputKind::TraceData, "-o");
      {
        CreationGuard guard;
        fs::create_directories(dir);
      }
      if (!has_marker(dir, OutputKind::TraceData)) write_marker(dir, OutputKind::TraceData);
    }
    if (fresh) {
      NpyArray a;
      a.shape = b.data_shape;
      a.data.assign(b.values->begin(), b.values->end());
      write_npy(it->second, a);
    }
    b.file = fs::path(it->second).filename().string();
    b.file_path = it->second;
    b.values.reset();
  }
}

bool is_npusim_trace(const std::string& path) {
  if (!input_file_problem(path).empty()) return false;
  nlohmann::json line;
  try {
    line = first_trace_line(path);
  } catch (const InputError&) {
    return false;  // a first line past the trace reader's cap is no trace of ours
  }
  // Only what `compile` wrote says so: a hand-written trace is the user's.
  return line.is_object() && line.contains("compiled_by") && line["compiled_by"] == kCompiledBy &&
         line.contains("format") && line["format"] == kTraceFormat;
}

}  // namespace npusim
