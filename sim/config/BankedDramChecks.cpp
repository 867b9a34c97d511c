#include "sim/config/BankedDramChecks.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/config/ConfigSchema.h"
#include "sim/config/ConfigCrossChecks.h"
#include "sim/config/CrossCheckPlace.h"

namespace npusim {

namespace {

const std::vector<std::string> kMapFields = {"row", "rank", "bankgroup", "bank", "column", "channel"};

bool power_of_two(std::uint64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// Each of row, rank, bankgroup, bank, column once; channel at most once (without it the
// channel comes from interleave_bytes), and then the channel count a power of two.
void check_map(const DramConfig& d, const CrossCheckPlace& at) {
  const std::string& file = at.file();
  const auto fields = address_map_fields(d.banked.address_map);
  const std::string where = NPUSIM_CONFIG_PATH(chip.dram.banked.address_map);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (std::find(kMapFields.begin(), kMapFields.end(), fields[i]) == kMapFields.end())
      throw InputError(file, where, fmt::format("'{}' is no field; the fields are row, rank, bankgroup, bank, column, channel",
                                                fields[i]));
    if (std::find(fields.begin(), fields.begin() + i, fields[i]) != fields.begin() + i)
      throw InputError(file, where, fmt::format("names '{}' twice; each field goes in exactly once", fields[i]));
  }
  const bool channel = map_names_channel(d.banked);
  if (fields.size() != kMapFields.size() - (channel ? 0 : 1))
    throw InputError(file, where, "must name each of row, rank, bankgroup, bank, column once (and channel at most once)");
  if (channel && !power_of_two(d.channels))
    at.fail({NPUSIM_CONFIG_PATH(chip.dram.channels), where},
            fmt::format("{} channels is not a power of two, which the address map's channel field needs", d.channels));
}

#define NPUSIM_BANKED(key) NPUSIM_CONFIG_PATH(chip.dram.banked.key)

void check_spacings(const BankedDramConfig& b, const CrossCheckPlace& at) {
  if (b.trc < b.tras + b.trp)
    at.fail({NPUSIM_BANKED(trc), NPUSIM_BANKED(tras), NPUSIM_BANKED(trp)},
            fmt::format("tRC ({}) is less than tRAS + tRP ({} + {}): a bank cannot open, close and reopen faster",
                        b.trc, b.tras, b.trp));
  if (b.burst_length < b.transfers_per_clock)
    at.fail({NPUSIM_BANKED(burst_length), NPUSIM_BANKED(transfers_per_clock)},
            fmt::format("a burst of {} beats is less than one clock's {} transfers", b.burst_length, b.transfers_per_clock));
  if (b.tccd_s < b.burst_clocks())
    at.fail({NPUSIM_BANKED(tccd_s), NPUSIM_BANKED(burst_length), NPUSIM_BANKED(transfers_per_clock)},
            fmt::format("tCCD_S ({}) is shorter than one burst on the bus ({} clocks)", b.tccd_s, b.burst_clocks()));
  const std::tuple<std::uint32_t, std::uint32_t, const char*, std::string, std::string> pairs[] = {
      {b.tccd_l, b.tccd_s, "tCCD", NPUSIM_BANKED(tccd_l), NPUSIM_BANKED(tccd_s)},
      {b.trrd_l, b.trrd_s, "tRRD", NPUSIM_BANKED(trrd_l), NPUSIM_BANKED(trrd_s)},
      {b.twtr_l, b.twtr_s, "tWTR", NPUSIM_BANKED(twtr_l), NPUSIM_BANKED(twtr_s)}};
  for (const auto& [l, s, name, l_key, s_key] : pairs)
    if (l < s)
      at.fail({l_key, s_key}, fmt::format("{}_L ({}) is shorter than {}_S ({}): the same-bank-group spacing may "
                                          "not be shorter than the other-group one", name, l, name, s));
}

// Progress: a bank's burst is planned between two of its refresh windows (BankTimingState),
// so the time between them must hold a whole miss: PRE, ACT, the column command and its data
// (tRP + tRCD + max(CL, CWL) + a burst). With less, the planner would look for that room
// after every refresh window for ever; the largest spacings left are met by waiting whole
// refresh periods, which ends because each period leaves this room.
void check_refresh_room(const BankedDramConfig& b, const CrossCheckPlace& at) {
  const bool per_bank = b.refresh_mode == RefreshMode::PerBank;
  if (per_bank && b.trfc_pb == 0)
    at.fail({NPUSIM_BANKED(trfc_pb), NPUSIM_BANKED(refresh_mode)},
            "is 0 (no per-bank refresh) but refresh_mode is per_bank; give the standard's tRFCpb");
  const std::uint64_t refresh = std::uint64_t{b.trp} + (per_bank ? b.trfc_pb : b.trfc);
  const std::uint64_t miss = std::uint64_t{b.trp} + b.trcd + std::max(b.cl, b.cwl) + b.burst_clocks();
  if (b.trefi >= refresh + miss) return;
  const std::string window = per_bank ? NPUSIM_BANKED(trfc_pb) : NPUSIM_BANKED(trfc);
  at.fail({NPUSIM_BANKED(trefi), window, NPUSIM_BANKED(trcd), NPUSIM_BANKED(trp), NPUSIM_BANKED(cl),
           NPUSIM_BANKED(cwl), NPUSIM_BANKED(burst_length)},
          fmt::format("tREFI ({}) minus a{} refresh (tRP {} + {} {}) leaves {} clocks between refreshes; one access "
                      "needs {} (tRP {} + tRCD {} + max(CL, CWL) {} + a burst {}), so the DRAM could never serve it",
                      b.trefi, per_bank ? " per-bank" : "n all-bank", b.trp, per_bank ? "tRFCpb" : "tRFC",
                      per_bank ? b.trfc_pb : b.trfc, b.trefi > refresh ? b.trefi - refresh : 0, miss, b.trp, b.trcd,
                      std::max(b.cl, b.cwl), b.burst_clocks()));
}

void check_shape(const DramConfig& d, const CrossCheckPlace& at) {
  const BankedDramConfig& b = d.banked;
  if (b.device_width_bits > b.bus_width_bits)
    at.fail({NPUSIM_BANKED(device_width_bits), NPUSIM_BANKED(bus_width_bits)},
            fmt::format("devices {} bits wide are wider than the channel's bus ({} bits)", b.device_width_bits,
                        b.bus_width_bits));
  if (b.columns < b.burst_length)
    at.fail({NPUSIM_BANKED(columns), NPUSIM_BANKED(burst_length)},
            fmt::format("{} columns hold less than one burst of {}", b.columns, b.burst_length));
  if (b.write_high >= b.write_queue)
    at.fail({NPUSIM_BANKED(write_high), NPUSIM_BANKED(write_queue)},
            fmt::format("write_high ({}) must be below write_queue ({})", b.write_high, b.write_queue));
  if (b.write_low >= b.write_high)
    at.fail({NPUSIM_BANKED(write_low), NPUSIM_BANKED(write_high)},
            fmt::format("write_low ({}) must be below write_high ({})", b.write_low, b.write_high));
  if (d.interleave_bytes != 0 && d.interleave_bytes % b.burst_bytes() != 0)
    at.fail({NPUSIM_CONFIG_PATH(chip.dram.interleave_bytes), NPUSIM_BANKED(burst_length), NPUSIM_BANKED(bus_width_bits)},
            fmt::format("{} is not a whole number of {}-byte bursts", d.interleave_bytes, b.burst_bytes()));
  const long double device = static_cast<long double>(b.ranks) * b.bank_groups * b.banks_per_group * b.rows *
                             b.columns * (b.bus_width_bits / 8);
  if (static_cast<long double>(d.capacity_bytes) / d.channels > device)
    at.fail({NPUSIM_CONFIG_PATH(chip.dram.capacity_bytes), NPUSIM_CONFIG_PATH(chip.dram.channels), NPUSIM_BANKED(rows),
             NPUSIM_BANKED(columns), NPUSIM_BANKED(ranks), NPUSIM_BANKED(bank_groups), NPUSIM_BANKED(banks_per_group)},
            fmt::format("{} bytes over {} channel(s) is more than a channel's ranks, banks, rows and "
                        "columns hold ({:.0f} bytes)",
                        d.capacity_bytes, d.channels, static_cast<double>(device)));
}

// Every command's current must lie above the standby it interrupts, or its energy is negative.
void check_currents(const BankedDramConfig& b, const CrossCheckPlace& at) {
  const std::pair<double, const char*> above_active[] = {
      {b.idd0, "idd0"}, {b.idd4r, "idd4r"}, {b.idd4w, "idd4w"}, {b.idd5b, "idd5b"}};
  if (b.idd3n < b.idd2n)
    at.fail({NPUSIM_BANKED(idd3n), NPUSIM_BANKED(idd2n)},
            fmt::format("IDD3N ({} mA) is below IDD2N ({} mA): active standby draws at least precharged", b.idd3n, b.idd2n));
  for (const auto& [value, key] : above_active)
    if (value < b.idd3n)
      at.fail({std::string("/chip/dram/banked/") + key, NPUSIM_BANKED(idd3n)},
              fmt::format("{} mA is below IDD3N ({} mA), the standby it adds to", value, b.idd3n));
}

#undef NPUSIM_BANKED

}  // namespace

std::vector<std::string> address_map_fields(const std::string& map) {
  std::vector<std::string> fields;
  std::string field;
  for (char c : map + ":") {
    if (c != ':') { field += c; continue; }
    fields.push_back(field);
    field.clear();
  }
  return fields;
}

std::uint64_t address_field_count(const BankedDramConfig& cfg, const std::string& field) {
  if (field == "row") return cfg.rows;
  if (field == "rank") return cfg.ranks;
  if (field == "bankgroup") return cfg.bank_groups;
  if (field == "bank") return cfg.banks_per_group;
  if (field == "column") return cfg.columns / cfg.burst_length;  // in bursts
  return 1;                                                      // channel: not inside a channel
}

bool map_names_channel(const BankedDramConfig& cfg) {
  const auto fields = address_map_fields(cfg.address_map);
  return std::find(fields.begin(), fields.end(), "channel") != fields.end();
}

// The fields after `channel` are the bits below it: the channel changes every burst × their
// counts bytes, which is what interleave_bytes says for the bandwidth model.
std::uint64_t channel_interleave_bytes(const DramConfig& d) {
  if (d.model != DramModel::Banked || !map_names_channel(d.banked)) return d.interleave_bytes;
  const auto fields = address_map_fields(d.banked.address_map);
  std::uint64_t bytes = d.banked.burst_bytes();
  for (auto it = fields.rbegin(); *it != "channel"; ++it) bytes *= address_field_count(d.banked, *it);
  return bytes;
}

double channel_peak_bytes_per_cycle(const DramConfig& d, double chip_clock_mhz) {
  if (d.model != DramModel::Banked) return d.bytes_per_cycle;
  const double per_clock = double(d.banked.burst_bytes()) / double(d.banked.burst_clocks());
  return per_clock * d.banked.clock_mhz / chip_clock_mhz;
}

void check_banked_dram(const DramConfig& dram, const CrossCheckPlace& at) {
  if (dram.model != DramModel::Banked) return;
  check_map(dram, at);
  check_spacings(dram.banked, at);
  check_refresh_room(dram.banked, at);
  check_shape(dram, at);
  check_currents(dram.banked, at);
}

void check_banked_dram(const DramConfig& dram, const std::string& file) { check_banked_dram(dram, CrossCheckPlace(file)); }

}  // namespace npusim
