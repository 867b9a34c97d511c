#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace npusim {

// Contents of DRAM for functional runs. DRAM is many GiB but a run touches little
// of it, so bytes live in pages allocated on first write; unwritten bytes read as 0.
class DramStorage {
 public:
  void write(std::uint64_t address, const std::uint8_t* data, std::uint64_t bytes);
  void read(std::uint64_t address, std::uint8_t* data, std::uint64_t bytes) const;

 private:
  static constexpr std::uint64_t kPageBytes = 64 * 1024;
  std::unordered_map<std::uint64_t, std::unique_ptr<std::uint8_t[]>> pages_;
};

}  // namespace npusim
