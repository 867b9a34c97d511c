#include "apps/regression/RunOutputs.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"
#include "sim/common/StrictJson.h"
#include "sim/report/RunRecorder.h"

namespace npusim {

namespace fs = std::filesystem;

RunOutputs load_run_outputs(const std::string& dir) {
  if (!fs::is_directory(dir)) throw InputError(dir, "", "no such run directory");
  RunOutputs run;
  run.dir = dir;
  const std::string report_path = (fs::path(dir) / "report.json").string();
  run.report = parse_strict_json<nlohmann::ordered_json>(read_input_file(report_path), report_path);
  if (!run.report.is_object()) throw InputError(report_path, "", "expected a JSON object");
  const std::string csv_path = (fs::path(dir) / "instructions.csv").string();
  // A run that left its instruction rows out (report "rows", `run --rows`) has no instructions.csv: no rows.
  const bool left_out = run.report.contains("rows") && !fs::exists(csv_path);
  run.instructions = parse_csv(left_out ? std::string(kInstructionsCsvHeader) : read_input_file(csv_path), csv_path);
  return run;
}

}  // namespace npusim
