#include "models/banked_dram/CommandEnergy.h"

namespace npusim {

CommandEnergy command_energy(const BankedDramConfig& c) {
  const double tck_ns = 1000.0 / c.clock_mhz;
  const double devices = double(c.bus_width_bits) / double(c.device_width_bits);
  // mA × V × clocks × ns/clock × devices = pJ.
  auto energy = [&](double milliamps, double clocks) { return milliamps * c.vdd * clocks * tck_ns * devices; };
  CommandEnergy e;
  e.act = energy(c.idd0 - c.idd3n, c.tras);
  e.pre = energy(c.idd0 - c.idd2n, c.trp);
  e.read = energy(c.idd4r - c.idd3n, c.burst_clocks());
  e.write = energy(c.idd4w - c.idd3n, c.burst_clocks());
  // A per-bank refresh is taken as one bank's share of the all-bank current (assumption).
  const double banks = double(c.bank_groups) * c.banks_per_group;
  e.refresh = c.refresh_mode == RefreshMode::PerBank ? energy(c.idd5b - c.idd3n, c.trfc_pb) / banks
                                                     : energy(c.idd5b - c.idd3n, c.trfc);
  e.background_per_clock = energy(c.page_policy == PagePolicy::Open ? c.idd3n : c.idd2n, 1);
  return e;
}

}  // namespace npusim
