#include "sim/config/BankedDramChecks.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/config/ConfigSchema.h"

namespace npusim {

namespace {

const std::vector<std::string> kMapFields = {"row", "rank", "bankgroup", "bank", "column"};

void check_map(const BankedDramConfig& b, const std::string& file) {
  const auto fields = address_map_fields(b.address_map);
  const std::string where = NPUSIM_CONFIG_PATH(chip.dram.banked.address_map);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (std::find(kMapFields.begin(), kMapFields.end(), fields[i]) == kMapFields.end())
      throw InputError(file, where, fmt::format("'{}' is no field; the fields are row, rank, bankgroup, bank, column",
                                                fields[i]));
    if (std::find(fields.begin(), fields.begin() + i, fields[i]) != fields.begin() + i)
      throw InputError(file, where, fmt::format("names '{}' twice; each field goes in exactly once", fields[i]));
  }
  if (fields.size() != kMapFields.size())
    throw InputError(file, where, "must name each of row, rank, bankgroup, bank, column once");
}

void check_timings(const BankedDramConfig& b, const std::string& file) {
  if (b.trc < b.tras + b.trp)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.banked.trc),
                     fmt::format("{} is less than tRAS + tRP ({} + {}): a bank cannot open, close and reopen faster",
                                 b.trc, b.tras, b.trp));
  if (b.burst_length < b.transfers_per_clock)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.banked.burst_length),
                     fmt::format("{} beats is less than one clock's {} transfers", b.burst_length, b.transfers_per_clock));
  if (b.tccd_s < b.burst_clocks())
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.banked.tccd_s),
                     fmt::format("{} is shorter than one burst on the bus ({} clocks)", b.tccd_s, b.burst_clocks()));
  if (b.tccd_l < b.tccd_s || b.trrd_l < b.trrd_s || b.twtr_l < b.twtr_s)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.banked.tccd_l),
                     "the same-bank-group spacings (tCCD_L, tRRD_L, tWTR_L) may not be shorter than their _S forms");
  if (b.refresh_mode == RefreshMode::PerBank && b.trfc_pb == 0)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.banked.trfc_pb),
                     "is 0 (no per-bank refresh) but refresh_mode is per_bank; give the standard's tRFCpb");
  if (b.trefi <= b.trfc + b.trp)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.banked.trefi),
                     fmt::format("{} leaves no time between refreshes (tRFC {} + tRP {})", b.trefi, b.trfc, b.trp));
}

void check_shape(const DramConfig& d, const std::string& file) {
  const BankedDramConfig& b = d.banked;
  if (b.device_width_bits > b.bus_width_bits)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.banked.device_width_bits),
                     fmt::format("{} is wider than the channel's bus ({} bits)", b.device_width_bits, b.bus_width_bits));
  if (b.columns < b.burst_length)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.banked.columns),
                     fmt::format("{} columns hold less than one burst of {}", b.columns, b.burst_length));
  if (b.write_high >= b.write_queue)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.banked.write_high),
                     fmt::format("{} must be below write_queue ({})", b.write_high, b.write_queue));
  if (b.write_low >= b.write_high)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.banked.write_low),
                     fmt::format("{} must be below write_high ({})", b.write_low, b.write_high));
  if (d.interleave_bytes != 0 && d.interleave_bytes % b.burst_bytes() != 0)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.interleave_bytes),
                     fmt::format("{} is not a whole number of {}-byte bursts", d.interleave_bytes, b.burst_bytes()));
  const long double device = static_cast<long double>(b.ranks) * b.bank_groups * b.banks_per_group * b.rows *
                             b.columns * (b.bus_width_bits / 8);
  if (static_cast<long double>(d.capacity_bytes) / d.channels > device)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.capacity_bytes),
                     fmt::format("{} bytes over {} channel(s) is more than a channel's ranks, banks, rows and "
                                 "columns hold ({:.0f} bytes)",
                                 d.capacity_bytes, d.channels, static_cast<double>(device)));
}

// Every command's current must lie above the standby it interrupts, or its energy is negative.
void check_currents(const BankedDramConfig& b, const std::string& file) {
  const std::pair<double, const char*> above_active[] = {
      {b.idd0, "idd0"}, {b.idd4r, "idd4r"}, {b.idd4w, "idd4w"}, {b.idd5b, "idd5b"}};
  if (b.idd3n < b.idd2n)
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.banked.idd3n),
                     fmt::format("{} mA is below IDD2N ({} mA): active standby draws at least precharged", b.idd3n, b.idd2n));
  for (const auto& [value, key] : above_active)
    if (value < b.idd3n)
      throw InputError(file, std::string("/chip/dram/banked/") + key,
                       fmt::format("{} mA is below IDD3N ({} mA), the standby it adds to", value, b.idd3n));
}

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

void check_banked_dram(const DramConfig& dram, const std::string& file) {
  if (dram.model != DramModel::Banked) return;
  check_map(dram.banked, file);
  check_timings(dram.banked, file);
  check_shape(dram, file);
  check_currents(dram.banked, file);
}

}  // namespace npusim
