#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/HardwareConfig.h"

namespace npusim {

// Where one burst lives inside a channel.
struct BurstPlace {
  std::uint32_t rank = 0;
  std::uint32_t bank_group = 0;
  std::uint32_t bank = 0;  // within its bank group
  std::uint64_t row = 0;
  std::uint32_t column = 0;  // in bursts
};

// Splits a channel-local address into rank, bank group, bank, row and column after the
// address_map order (most significant field first), over the burst index: the lowest
// log2(burst_bytes) address bits are the byte within a burst, then the fields from the
// last named upwards, each log2(its count) bits wide. With bank_group_xor the bank group
// is its bits XOR the lowest bits of the row (the permutation-based interleaving of Zhang,
// Zhu and Zhang, MICRO 2000), so rows one bank-group stride apart use different groups.
class BurstMapper {
 public:
  explicit BurstMapper(const BankedDramConfig& cfg);

  BurstPlace place(std::uint64_t local_address) const;
  std::uint64_t burst_bytes() const { return burst_bytes_; }

 private:
  struct FieldBits {
    unsigned shift = 0;  // over the burst index
    unsigned width = 0;
  };
  enum Field { kRow, kRank, kBankGroup, kBank, kColumn, kFields };
  std::uint64_t field(std::uint64_t burst, Field f) const {
    return (burst >> fields_[f].shift) & ((std::uint64_t{1} << fields_[f].width) - 1);
  }

  FieldBits fields_[kFields];
  std::uint64_t burst_bytes_;
  bool bank_group_xor_;
  std::uint32_t bank_groups_;
};

}  // namespace npusim
