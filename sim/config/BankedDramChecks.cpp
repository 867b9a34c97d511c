#include "sim/config/BankedDramChecks.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/common/InputError.h"
#include "sim/config/ConfigSchema.h"

namespace npusim {

namespace {

const std::vector<std::string> kMapFields = {"row", "rank", "bankgroup", "bank", "column", "channel"};

bool power_of_two(std::uint64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// Each of row, rank, bankgroup, bank, column once; channel at most once (without it the
// channel comes from interleave_bytes), and then the channel count a power of two.
void check_map(const DramConfig& d, const std::string& file) {
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
    throw InputError(file, NPUSIM_CONFIG_PATH(chip.dram.channels),
                     fmt::format("{} is not a power of two, which the address map's channel field needs", d.channels));
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

void check_banked_dram(const DramConfig& dram, const std::string& file) {
  if (dram.model != DramModel::Banked) return;
  check_map(dram, file);
  check_timings(dram.banked, file);
  check_shape(dram, file);
  check_currents(dram.banked, file);
}

}  // namespace npusim
