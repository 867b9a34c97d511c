#pragma once
#include <cstdint>
#include <vector>

namespace npusim {

// The instructions that wrote a layer's output, each with the byte range of the tensor
// (element order, NHWC) it wrote, so that every later read of the tensor can depend on
// exactly the writers of the bytes it reads. A dependency on those writers is what makes
// the read safe under every dependency mode: a two-phase or staged dependency on some
// other store of the layer only says that store let go of its bus, not that the bytes
// have landed (issue 28).
class TensorWrites {
 public:
  // Ranges may overlap (channel blocks of the same rows written by different stores).
  void add(std::uint64_t begin, std::uint64_t end, std::uint64_t id);
  // Called once the producing layer is fully emitted, before the first query.
  void seal();
  // Every writer of a byte in [begin, end).
  std::vector<std::uint64_t> writers(std::uint64_t begin, std::uint64_t end) const;
  void clear();

 private:
  struct Write {
    std::uint64_t begin = 0, end = 0, id = 0;
  };
  std::vector<Write> writes_;  // by begin once sealed
  std::uint64_t longest_ = 0;  // the longest range: bounds the walk back from a query's end
};

}  // namespace npusim
