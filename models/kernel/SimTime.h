#pragma once
#include <systemc>

#include "sim/common/Cycles.h"

namespace npusim {

// One clock cycle is one SC_NS of SystemC time (see sim/common/Cycles.h). The ticks of
// one SC_NS are looked up once: the time resolution cannot change after its first use,
// and building an sc_time from a double and a unit is slow on the per-transfer path.
inline sc_dt::uint64 ticks_per_cycle() {
  static const sc_dt::uint64 ticks = sc_core::sc_time(1, sc_core::SC_NS).value();
  return ticks;
}
inline sc_core::sc_time cycles_to_time(Cycles c) {
  return sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(c) * ticks_per_cycle());
}
inline Cycles to_cycles(const sc_core::sc_time& t) { return static_cast<Cycles>(t.value() / ticks_per_cycle()); }
inline Cycles now_cycles() { return to_cycles(sc_core::sc_time_stamp()); }
// Suspends the calling SC_THREAD until cycle `at` (no-op if it has passed).
inline void wait_until(Cycles at) {
  Cycles now = now_cycles();
  if (at > now) sc_core::wait(cycles_to_time(at - now));
}

}  // namespace npusim
