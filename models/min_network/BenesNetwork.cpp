#include "models/min_network/BenesNetwork.h"

#include <stdexcept>
#include <string>

namespace npusim {

namespace {
std::uint32_t log2_exact(std::uint32_t n) {
  if (n < 2 || (n & (n - 1)) != 0)
    throw std::invalid_argument("a Benes network needs a power-of-two port count of at least 2, got " +
                                std::to_string(n));
  std::uint32_t l = 0;
  while ((1u << l) < n) ++l;
  return l;
}
}  // namespace

BenesNetwork::BenesNetwork(std::uint32_t ports) : ports_(ports), stages_(2 * log2_exact(ports) - 1) {}

BenesRouting BenesNetwork::route(const std::vector<std::uint32_t>& destination) const {
  if (destination.size() != ports_) throw std::invalid_argument("route: one destination per input is needed");
  std::vector<bool> seen(ports_, false);
  for (std::uint32_t d : destination) {
    if (d >= ports_ || seen[d]) throw std::invalid_argument("route: the destinations are not a permutation");
    seen[d] = true;
  }
  BenesRouting r;
  r.stages.assign(stages_, std::vector<std::uint8_t>(ports_ / 2, 0));
  route_into(r, destination, 0, 0);
  return r;
}

// A sub-network of n = destination.size() ports at recursion `depth`: its input
// switches are stage `depth`, its output switches stage stages-1-depth, both
// starting at switch `first_switch`. The looping algorithm gives each input a half
// (0 upper, 1 lower) so that the two inputs of an input switch, and the two
// inputs bound for one output switch, take different halves.
void BenesNetwork::route_into(BenesRouting& r, const std::vector<std::uint32_t>& destination, std::uint32_t depth,
                              std::uint32_t first_switch) const {
  const std::uint32_t n = std::uint32_t(destination.size());
  if (n == 2) {
    r.stages[depth][first_switch] = destination[0] == 1;
    return;
  }
  std::vector<std::uint32_t> source(n);  // input bound for each output
  for (std::uint32_t i = 0; i < n; ++i) source[destination[i]] = i;
  std::vector<int> half(n, -1);
  for (std::uint32_t start = 0; start < n; start += 2) {
    if (half[start] >= 0) continue;
    std::uint32_t i = start;
    half[i] = 0;
    for (;;) {
      half[i ^ 1] = 1 - half[i];                         // the other input of i's switch
      const std::uint32_t j = source[destination[i ^ 1] ^ 1];  // shares an output switch with i ^ 1
      if (half[j] >= 0) break;
      half[j] = half[i];
      i = j;
    }
  }
  const std::uint32_t m = n / 2;
  std::vector<std::uint32_t> upper(m), lower(m);
  const std::uint32_t out_stage = stages_ - 1 - depth;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t d = destination[i];
    if (i % 2 == 0) r.stages[depth][first_switch + i / 2] = half[i] == 1;
    (half[i] == 0 ? upper : lower)[i / 2] = d / 2;
    // The output switch crosses when the upper half delivers to its odd output.
    if (half[i] == 0) r.stages[out_stage][first_switch + d / 2] = d % 2 == 1;
  }
  route_into(r, upper, depth + 1, first_switch);
  route_into(r, lower, depth + 1, first_switch + m / 2);
}

std::vector<std::int64_t> BenesNetwork::apply(const BenesRouting& routing,
                                              const std::vector<std::int64_t>& inputs) const {
  if (inputs.size() != ports_ || routing.stages.size() != stages_)
    throw std::invalid_argument("apply: the data or the routing does not match the network");
  std::vector<std::int64_t> data = inputs;
  apply_into(routing, data, 0, 0);
  return data;
}

// Moves the sub-network's values through its input switches, its two halves and its output switches.
void BenesNetwork::apply_into(const BenesRouting& r, std::vector<std::int64_t>& data, std::uint32_t depth,
                              std::uint32_t first_switch) const {
  const std::uint32_t n = std::uint32_t(data.size());
  if (n == 2) {
    if (r.stages[depth][first_switch]) std::swap(data[0], data[1]);
    return;
  }
  const std::uint32_t m = n / 2;
  std::vector<std::int64_t> upper(m), lower(m);
  for (std::uint32_t k = 0; k < m; ++k) {
    const bool cross = r.stages[depth][first_switch + k];
    upper[k] = data[2 * k + (cross ? 1 : 0)];
    lower[k] = data[2 * k + (cross ? 0 : 1)];
  }
  apply_into(r, upper, depth + 1, first_switch);
  apply_into(r, lower, depth + 1, first_switch + m / 2);
  const std::uint32_t out_stage = stages_ - 1 - depth;
  for (std::uint32_t k = 0; k < m; ++k) {
    const bool cross = r.stages[out_stage][first_switch + k];
    data[2 * k + (cross ? 1 : 0)] = upper[k];
    data[2 * k + (cross ? 0 : 1)] = lower[k];
  }
}

std::vector<BenesRouting> BenesNetwork::route_requests(const std::vector<std::int64_t>& request,
                                                       BenesStats& stats) const {
  if (request.size() != ports_) throw std::invalid_argument("route_requests: one request per input is needed");
  std::vector<bool> done(ports_, false);
  std::vector<BenesRouting> passes;
  for (std::uint32_t i = 0; i < ports_; ++i) {
    if (request[i] >= std::int64_t(ports_)) throw std::invalid_argument("route_requests: no such output");
    done[i] = request[i] < 0;
  }
  for (bool first = true;; first = false) {
    std::vector<std::int64_t> destination(ports_, -1);
    std::vector<bool> taken(ports_, false);
    std::uint64_t granted = 0;
    for (std::uint32_t i = 0; i < ports_; ++i) {
      if (done[i]) continue;
      const auto d = std::uint32_t(request[i]);
      if (taken[d]) {
        if (first) ++stats.conflicts;  // waits for a later pass
        continue;
      }
      taken[d] = true;
      destination[i] = d;
      done[i] = true;
      ++granted;
    }
    if (granted == 0) break;
    // Idle inputs take the free outputs, so the pass is a full permutation.
    std::vector<std::uint32_t> perm(ports_);
    std::uint32_t free_output = 0;
    for (std::uint32_t i = 0; i < ports_; ++i) {
      if (destination[i] >= 0) {
        perm[i] = std::uint32_t(destination[i]);
        continue;
      }
      while (taken[free_output]) ++free_output;
      taken[free_output] = true;
      perm[i] = free_output;
    }
    passes.push_back(route(perm));
    stats.routed += granted;
    ++stats.passes;
  }
  return passes;
}

}  // namespace npusim
