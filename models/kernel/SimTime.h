#pragma once
#include <systemc>

#include "sim/common/Cycles.h"

namespace npusim {

// One clock cycle is one SC_NS of SystemC time (see sim/common/Cycles.h).
inline sc_core::sc_time cycles_to_time(Cycles c) {
  return sc_core::sc_time(static_cast<double>(c), sc_core::SC_NS);
}
inline Cycles to_cycles(const sc_core::sc_time& t) {
  return static_cast<Cycles>(t.value() / sc_core::sc_time(1, sc_core::SC_NS).value());
}
inline Cycles now_cycles() { return to_cycles(sc_core::sc_time_stamp()); }
// Suspends the calling SC_THREAD until cycle `at` (no-op if it has passed).
inline void wait_until(Cycles at) {
  Cycles now = now_cycles();
  if (at > now) sc_core::wait(cycles_to_time(at - now));
}

}  // namespace npusim
