#include "apps/frontend/WorkloadReader.h"

#include "apps/frontend/onnx/OnnxWorkload.h"
#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"

namespace npusim {

Workload read_workload(const std::string& path, const WorkloadOptions& options) {
  if (looks_like_onnx(path, read_input_prefix(path, 1))) return read_onnx_workload(path, options);
  const std::string body = read_input_file(path);
  if (!options.input_shapes.empty())
    throw InputError(path, "--input-shape", "only ONNX models take input shapes; JSON and CSV workloads give theirs");
  const bool csv = path.size() > 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
  return csv ? parse_scale_sim_csv(body, path) : parse_workload_json(body, path);
}

}  // namespace npusim
