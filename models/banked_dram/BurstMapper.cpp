#include "models/banked_dram/BurstMapper.h"

#include "sim/config/BankedDramChecks.h"

namespace npusim {

namespace {

unsigned log2_of(std::uint64_t power_of_two) {
  unsigned bits = 0;
  while ((std::uint64_t{1} << bits) < power_of_two) ++bits;
  return bits;
}

}  // namespace

BurstMapper::BurstMapper(const BankedDramConfig& cfg)
    : burst_bytes_(cfg.burst_bytes()), bank_group_xor_(cfg.bank_group_xor), bank_groups_(cfg.bank_groups) {
  const auto names = address_map_fields(cfg.address_map);
  unsigned shift = 0;
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    const unsigned width = log2_of(address_field_count(cfg, *it));  // channel: 0 bits
    const char* const order[] = {"row", "rank", "bankgroup", "bank", "column"};
    for (int f = 0; f < kFields; ++f)
      if (*it == order[f]) fields_[f] = {shift, width};
    shift += width;
  }
}

BurstPlace BurstMapper::place(std::uint64_t local_address) const {
  const std::uint64_t burst = local_address / burst_bytes_;
  BurstPlace p;
  p.rank = static_cast<std::uint32_t>(field(burst, kRank));
  p.bank_group = static_cast<std::uint32_t>(field(burst, kBankGroup));
  p.bank = static_cast<std::uint32_t>(field(burst, kBank));
  p.row = field(burst, kRow);
  p.column = static_cast<std::uint32_t>(field(burst, kColumn));
  if (bank_group_xor_) p.bank_group ^= static_cast<std::uint32_t>(p.row & (bank_groups_ - 1));
  return p;
}

}  // namespace npusim
