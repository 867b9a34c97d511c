#include <string>
#include <vector>

#include "sim/config/ChipField.h"

namespace npusim {

namespace {

// Defaults are one DDR4-3200AA x64 channel of 8 Gb x8 devices, one rank (Micron MT40A1G8 /
// JESD79-4B speed bin DDR4-3200AA, 22-22-22); configs/dram/ has the other presets.
constexpr double kMaxClocks = 1e6;  // no JEDEC timing comes near a million command clocks

ConfigKey clocks(Field f, std::uint64_t def, std::string meaning) {
  return integer(std::move(f), def, within(0, kMaxClocks), "nCK", std::move(meaning));
}

void add_organisation_keys(std::vector<ConfigKey>& keys) {
  keys.push_back(number(NPUSIM_FIELD(chip.dram.banked.clock_mhz), 1600, within(100, 10000), "MHz",
                        "command clock CK of the DRAM (its own, not the chip's); every banked timing counts it"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.transfers_per_clock), 2, powers_of_two(1, 16), "beats",
                         "data beats per CK: 2 for DDR4/DDR5/HBM, 8 for LPDDR5 (WCK = 4 CK, both edges)"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.bus_width_bits), 64, powers_of_two(8, 1024), "bits",
                         "data bus of one channel"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.device_width_bits), 8, powers_of_two(4, 1024), "bits",
                         "data pins of one device; bus_width_bits / device_width_bits devices form a rank"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.burst_length), 8, powers_of_two(2, 32), "beats",
                         "beats of one burst; a burst moves bus_width_bits / 8 × burst_length bytes"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.ranks), 1, powers_of_two(1, 8), "count", "ranks per channel"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.bank_groups), 4, powers_of_two(1, 16), "count",
                         "bank groups per rank"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.banks_per_group), 4, powers_of_two(1, 64), "count",
                         "banks in each bank group"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.rows), 65536, powers_of_two(64, 1 << 24), "count",
                         "rows per bank"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.columns), 1024, powers_of_two(16, 1 << 16), "count",
                         "columns per row of one device; a row of the rank holds columns × bus_width_bits / 8 bytes"));
}

void add_controller_keys(std::vector<ConfigKey>& keys) {
  keys.push_back(choice(NPUSIM_FIELD(chip.dram.banked.page_policy), "open", json_names(kPagePolicies),
                        "open: a row stays open until another row of its bank is needed; closed: every access "
                        "precharges its bank after itself"));
  keys.push_back(text(NPUSIM_FIELD(chip.dram.banked.address_map), "row:rank:bank:bankgroup:column",
                      "fields of a burst address, most significant first; each of row, rank, bankgroup, bank, "
                      "column exactly once, and channel at most once (then it, not interleave_bytes, picks the "
                      "channel) (models/banked_dram/README.md, bit by bit)"));
  keys.push_back(flag(NPUSIM_FIELD(chip.dram.banked.bank_group_xor), false,
                      "bank group = its address bits XOR the lowest row bits, so a stream strided by a row "
                      "spreads over the bank groups"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.read_queue), 32, within(1, 1024), "bursts",
                         "read queue: FR-FCFS picks among this many oldest reads"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.write_queue), 32, within(1, 1024), "bursts",
                         "write queue; a write waits for a free slot"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.write_high), 24, within(1, 1024), "bursts",
                         "writes queued that start a drain (high watermark); < write_queue"));
  keys.push_back(integer(NPUSIM_FIELD(chip.dram.banked.write_low), 8, within(0, 1024), "bursts",
                         "a drain stops with this many writes left (low watermark); < write_high"));
}

void add_timing_keys(std::vector<ConfigKey>& keys) {
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.cl), 22, "CL: READ to first data"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.cwl), 16, "CWL: WRITE to first data"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.trcd), 22, "tRCD: ACT to READ/WRITE"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.trp), 22, "tRP: PRE to ACT"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.tras), 52, "tRAS: ACT to PRE"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.trc), 74, "tRC: ACT to ACT, same bank; >= tRAS + tRP"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.trrd_s), 4, "tRRD_S: ACT to ACT, other bank group"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.trrd_l), 8, "tRRD_L: ACT to ACT, same bank group"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.tccd_s), 4, "tCCD_S: column to column, other bank group"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.tccd_l), 8, "tCCD_L: column to column, same bank group"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.tfaw), 34, "tFAW: window holding at most four ACTs of a rank"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.twr), 24, "tWR: end of write data to PRE"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.twtr_s), 4, "tWTR_S: end of write data to READ, other bank group"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.twtr_l), 12, "tWTR_L: end of write data to READ, same bank group"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.trtp), 12, "tRTP: READ to PRE"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.trtw), 2,
                        "read-to-write bus turnaround: READ to WRITE is CL + burst + this − CWL (also a rank switch)"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.trefi), 12480, "tREFI: one all-bank refresh every this many"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.trfc), 560, "tRFC: all-bank refresh to next ACT"));
  keys.push_back(choice(NPUSIM_FIELD(chip.dram.banked.refresh_mode), "all_bank", json_names(kRefreshModes),
                        "all_bank: all banks every tREFI for tRFC; per_bank: each bank on its own turn (turns spread "
                        "evenly over tREFI) for trfc_pb, the other banks working on"));
  keys.push_back(clocks(NPUSIM_FIELD(chip.dram.banked.trfc_pb), 0,
                        "tRFCpb (LPDDR5, HBM) / tRFCsb (DDR5): per-bank refresh to next ACT of that bank; "
                        "0 = the standard has none (DDR4)"));
}

ConfigKey current(Field f, double def, std::string meaning) {
  return number(std::move(f), def, within(0, 10000), "mA", std::move(meaning) + ", one device");
}

// Defaults: Micron MT40A1G8 (8 Gb x8) DDR4-3200 datasheet IDD table, rounded (see the README).
void add_energy_keys(std::vector<ConfigKey>& keys) {
  keys.push_back(number(NPUSIM_FIELD(chip.dram.banked.vdd), 1.2, within(0.1, 5), "V", "core supply VDD"));
  keys.push_back(current(NPUSIM_FIELD(chip.dram.banked.idd0), 58, "IDD0: one bank ACT-PRE cycling at tRC"));
  keys.push_back(current(NPUSIM_FIELD(chip.dram.banked.idd2n), 38, "IDD2N: precharged standby"));
  keys.push_back(current(NPUSIM_FIELD(chip.dram.banked.idd3n), 52, "IDD3N: active standby"));
  keys.push_back(current(NPUSIM_FIELD(chip.dram.banked.idd4r), 170, "IDD4R: burst reads"));
  keys.push_back(current(NPUSIM_FIELD(chip.dram.banked.idd4w), 160, "IDD4W: burst writes"));
  keys.push_back(current(NPUSIM_FIELD(chip.dram.banked.idd5b), 250, "IDD5B: all-bank refresh"));
}

}  // namespace

void add_banked_dram_keys(std::vector<ConfigKey>& keys) {
  add_organisation_keys(keys);
  add_controller_keys(keys);
  add_timing_keys(keys);
  add_energy_keys(keys);
}

}  // namespace npusim
