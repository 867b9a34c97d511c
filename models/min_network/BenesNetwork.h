#pragma once
#include <cstdint>
#include <vector>

namespace npusim {

// Switch settings of one routing pass: stages[s][k] is 1 when switch k of stage s crosses.
struct BenesRouting {
  std::vector<std::vector<std::uint8_t>> stages;
};

// Counts over the requests a network has routed.
struct BenesStats {
  std::uint64_t passes = 0;
  std::uint64_t routed = 0;     // requests delivered
  std::uint64_t conflicts = 0;  // requests that had to wait for a later pass
};

// An N x N Benes network (seed001's MIN, issue 10): 2*log2(N) - 1 stages of N/2
// 2x2 switches, built recursively: an input stage, an upper and a lower N/2
// network, an output stage. Any permutation routes in one pass with the looping
// algorithm. Requests that are not a permutation (two inputs wanting one output)
// are conflicts and are spread over further passes.
class BenesNetwork {
 public:
  // N must be a power of two, at least 2; throws std::invalid_argument otherwise.
  explicit BenesNetwork(std::uint32_t ports);

  std::uint32_t ports() const { return ports_; }
  std::uint32_t stages() const { return stages_; }

  // Settings that send input i to output destination[i]; `destination` must be a permutation.
  BenesRouting route(const std::vector<std::uint32_t>& destination) const;
  // Pushes one value per input through the switches: what each output receives.
  std::vector<std::int64_t> apply(const BenesRouting& routing, const std::vector<std::int64_t>& inputs) const;

  // request[i] = the output input i wants, or -1 for none. Splits the requests into
  // passes, each a partial permutation (first come, first served per output); returns
  // one routing per pass and adds to `stats`.
  std::vector<BenesRouting> route_requests(const std::vector<std::int64_t>& request, BenesStats& stats) const;

 private:
  void route_into(BenesRouting& r, const std::vector<std::uint32_t>& destination, std::uint32_t depth,
                  std::uint32_t first_switch) const;
  void apply_into(const BenesRouting& r, std::vector<std::int64_t>& data, std::uint32_t depth,
                  std::uint32_t first_switch) const;

  std::uint32_t ports_;
  std::uint32_t stages_;
};

}  // namespace npusim
