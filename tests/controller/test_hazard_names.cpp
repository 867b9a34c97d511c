// Issue 28: a hazard in a compiled workload named "line 0" for both instructions; the
// scoreboard now asks the compiler which layer emitted each one (Scoreboard::layer_of).
#include <catch2/catch.hpp>

#include "models/scoreboard/Scoreboard.h"
#include "sim/common/InputError.h"

using namespace npusim;

namespace {

TensorOperand dram_bytes(std::uint64_t offset, std::uint64_t bytes) {
  TensorOperand t;
  t.space = AddressSpace::Dram;
  t.offset = offset;
  t.shape = {bytes};
  t.dtype = DType::Int8;
  return t;
}

// A store that makes its 256 bytes final at cycle 1000, and a load that reads them at
// cycle 10 without declaring any dependency on it.
struct UndeclaredRead {
  TensorOperand stored = dram_bytes(4096, 256);
  Progress store, load;
  UndeclaredRead() {
    store.id = 6;
    store.op = "store";
    store.writes = true;
    store.output = stored;
    store.written = {{1000, 256}};
    store.done = 1000;
    load.id = 10;
    load.op = "load";
    load.steps = {ReadStep{{ReadRange{&stored, 4096, 4096 + 256}}, 10, 20}};
    load.start = 10;
    load.done = 30;
  }
};

std::string hazard_message(Scoreboard& sb, UndeclaredRead& r) {
  sb.dispatched(6);
  sb.dispatched(10);
  sb.publish(r.store);
  try {
    sb.publish(r.load);
  } catch (const InputError& e) {
    return e.location() + ": " + e.reason();
  }
  return "no hazard reported";
}

}  // namespace

TEST_CASE("hazard names: a compiled workload's instructions are named by their layers, not line 0",
          "[controller][hazard]") {
  Scoreboard sb;
  sb.layer_of = [](std::uint64_t id) { return std::string(id < 8 ? "conv1" : "pool1"); };
  UndeclaredRead r;
  const std::string message = hazard_message(sb, r);
  CHECK_THAT(message, Catch::StartsWith("layer 'pool1': dependency hazard: "));
  CHECK_THAT(message, Catch::Contains("instruction 10 (load, layer 'pool1') reads dram bytes [4096, 4352)"));
  CHECK_THAT(message, Catch::Contains("but instruction 6 (store, layer 'conv1') has made only 0 of the 256 bytes"));
  CHECK(message.find("line 0") == std::string::npos);
}

TEST_CASE("hazard names: a trace's instructions keep their line, and a traced params.layer is added", "[controller][hazard]") {
  Scoreboard sb;
  UndeclaredRead r;
  r.store.line = 7;
  r.load.line = 11;
  r.load.layer = "pool1";  // the trace named it
  const std::string message = hazard_message(sb, r);
  CHECK_THAT(message, Catch::StartsWith("line 11, layer 'pool1': dependency hazard: "));
  CHECK_THAT(message, Catch::Contains("instruction 10 (load, line 11, layer 'pool1')"));
  CHECK_THAT(message, Catch::Contains("instruction 6 (store, line 7)"));
}
