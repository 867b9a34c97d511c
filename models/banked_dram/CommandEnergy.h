#pragma once
#include "sim/config/HardwareConfig.h"

namespace npusim {

// Energy of each DRAM command of one channel (all its devices), in pJ, from the datasheet
// currents the DRAMPower way: a command's current above the standby it interrupts, times
// VDD, times how long it flows (mA × V × ns = pJ).
//   ACT: (IDD0 − IDD3N) over tRAS      PRE: (IDD0 − IDD2N) over tRP
//   RD:  (IDD4R − IDD3N) over a burst  WR:  (IDD4W − IDD3N) over a burst
//   REF: (IDD5B − IDD3N) over tRFC     background: IDD3N (open page) or IDD2N (closed) per clock
struct CommandEnergy {
  double act = 0, pre = 0, read = 0, write = 0, refresh = 0, background_per_clock = 0;
};

CommandEnergy command_energy(const BankedDramConfig& cfg);

}  // namespace npusim
