#pragma once
#include <cstdint>
#include <map>
#include <vector>

namespace npusim {

// The DRAM of one memory that activations take when they share it by liveness
// (DramPlacement::reuse_dead_tensors): handed out from the top of the memory down, so
// that constants can keep growing up from its bottom. A dead tensor's bytes come back
// with `release` and go to later tensors; every byte remembers which tensors held it
// before, so that the compiler can order the new tensor's writes after the old one's
// reads (TraceEmitter::wait_for_overwritten).
class ActivationHeap {
 public:
  explicit ActivationHeap(std::uint64_t top) : top_(top), low_(top) {}

  // `bytes` (a multiple of 256): where they start, and in `previous` the tensors (layer
  // indices) that held any of them. Best fit among the freed blocks, else below the lowest
  // address handed out so far.
  std::uint64_t allocate(std::uint64_t bytes, std::vector<int>& previous);
  // Tensor `owner` at [address, address + bytes) is dead.
  void release(std::uint64_t address, std::uint64_t bytes, int owner);
  // Bytes from the lowest address handed out to the top: what the activations need.
  std::uint64_t depth() const { return top_ - low_; }

 private:
  struct Free {
    std::uint64_t end = 0;
    std::vector<int> owners;  // tensors whose bytes these were
  };
  std::uint64_t extend(std::uint64_t bytes, std::vector<int>& previous);
  static void merge_owners(std::vector<int>& into, const std::vector<int>& from);

  std::uint64_t top_, low_;            // low_ may go below the memory's bottom: check depth()
  std::map<std::uint64_t, Free> free_;  // by start address, never adjacent (merged)
};

}  // namespace npusim
