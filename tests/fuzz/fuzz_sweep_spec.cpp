// Sweep spec reader and the expansion of its axes into points. The seed specs name
// "default.json", "t.jsonl" and "w.json": they are made beside the spec once, so
// the fuzzer gets past the path checks into the axes.
#include "FuzzInput.h"
#include "apps/sweep/SweepPoints.h"
#include "apps/sweep/SweepSpec.h"

namespace {

void write_referenced_files() {
  const std::string header = "{\"format\":\"npusim-trace\",\"version\":1}\n";
  const std::string workload = R"({"input":{"h":4,"w":4,"c":4},"layers":[{"name":"c","type":"conv","co":4,"k":1}]})";
  const auto bytes = [](const std::string& s) { return reinterpret_cast<const std::uint8_t*>(s.data()); };
  npusim::fuzz::write_input_file(bytes("{}"), 2, "default.json");
  npusim::fuzz::write_input_file(bytes(header), header.size(), "t.jsonl");
  npusim::fuzz::write_input_file(bytes(workload), workload.size(), "w.json");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool ready = (write_referenced_files(), true);
  (void)ready;
  const std::string path = npusim::fuzz::write_input_file(data, size, "sweep.json");
  npusim::fuzz::expect_only_input_errors([&] { npusim::expand_points(npusim::load_sweep_spec(path)); });
  return 0;
}
