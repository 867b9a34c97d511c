#include "models/dma/DmaConfig.h"

#include <fmt/format.h>

namespace npusim {

namespace {
// An instruction in flight keeps its queue slot until it retires.
auto check_outstanding(const std::string& engine, const std::string& section) {
  return [engine, section](const CoreConfig& core, const SectionPlace& place) {
    if (!core.has_engine(engine)) return;
    const DmaConfig& dma = core.block<DmaConfig>(section);
    if (dma.max_outstanding > dma.queue_depth)
      place.fail("max_outstanding", fmt::format("{} is more than queue_depth ({}); an instruction in flight keeps "
                                                "its queue slot until it finishes",
                                                dma.max_outstanding, dma.queue_depth));
  };
}
}  // namespace

CoreSection dma_config_section(const std::string& section, const std::string& engine, const std::string& what) {
  SectionFields<DmaConfig> dma(section);
  std::vector<ConfigKey> keys;
  keys.push_back(queue_depth(dma("queue_depth", &DmaConfig::queue_depth), 8, what + " instructions queued, those in flight included"));
  keys.push_back(bandwidth(dma("bytes_per_cycle", &DmaConfig::bytes_per_cycle), 64, what + " peak bandwidth"));
  keys.push_back(latency(dma("setup_cycles", &DmaConfig::setup_cycles), 20, what + " start-up cost of one transfer"));
  keys.push_back(integer(dma("segment_bytes", &DmaConfig::segment_bytes), 4096, within(64, GiB), "bytes",
                         what + " piece handed to the memory system at a time"));
  keys.push_back(integer(dma("max_segments", &DmaConfig::max_segments), 16, within(0, 1u << 20), "count",
                         what + " most segments one transfer is cut into (assumption, for simulation speed): "
                                "a longer transfer gets segments of a whole number of segment_bytes, as few "
                                "as keep it within this count; 0 = always segment_bytes"));
  keys.push_back(integer(dma("max_outstanding", &DmaConfig::max_outstanding), 2, within(1, 64), "count",
                         what + " instructions in flight at once (assumption): a later one issues its segments "
                                "while earlier ones' are still in flight; 1 = one after another; <= queue_depth"));
  keys.push_back(integer(dma("bus_buffer_bytes", &DmaConfig::bus_buffer_bytes), 0, off_or(within(64, GiB)), "bytes",
                         what + " bus buffer its writes into DRAM pass through (seed004 §2.5.3; size not given, "
                                "assumption): a segment holds room from its issue until its write lands, a store "
                                "segment waits for room, and an independent load after a store starts once the "
                                "store's data is in it; 0 = unbounded (stores never wait)"));
  return {section, engine, DmaConfig{}, keys, check_outstanding(engine, section)};
}

}  // namespace npusim
