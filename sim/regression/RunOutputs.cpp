#include "sim/regression/RunOutputs.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/common/InputError.h"

namespace npusim {

namespace fs = std::filesystem;

std::string read_input_file(const std::string& path) {
  if (!fs::is_regular_file(path)) throw InputError(path, "", "no such file");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw InputError(path, "", "cannot read the file");
  return text.str();
}

RunOutputs load_run_outputs(const std::string& dir) {
  if (!fs::is_directory(dir)) throw InputError(dir, "", "no such run directory");
  RunOutputs run;
  run.dir = dir;
  const std::string report_path = (fs::path(dir) / "report.json").string();
  try {
    run.report = nlohmann::ordered_json::parse(read_input_file(report_path));
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(report_path, "", std::string("malformed JSON: ") + e.what());
  }
  if (!run.report.is_object()) throw InputError(report_path, "", "expected a JSON object");
  const std::string csv_path = (fs::path(dir) / "instructions.csv").string();
  run.instructions = parse_csv(read_input_file(csv_path), csv_path);
  return run;
}

}  // namespace npusim
