#include "models/dma/DmaConfig.h"

namespace npusim {

CoreSection dma_config_section(const std::string& section, const std::string& engine, const std::string& what) {
  SectionFields<DmaConfig> dma(section);
  std::vector<ConfigKey> keys;
  keys.push_back(queue_depth(dma("queue_depth", &DmaConfig::queue_depth), 8, what + " instructions waiting to issue"));
  keys.push_back(bandwidth(dma("bytes_per_cycle", &DmaConfig::bytes_per_cycle), 64, what + " peak bandwidth"));
  keys.push_back(latency(dma("setup_cycles", &DmaConfig::setup_cycles), 20, what + " start-up cost of one transfer"));
  keys.push_back(integer(dma("segment_bytes", &DmaConfig::segment_bytes), 4096, within(64, GiB), "bytes",
                         what + " piece handed to the memory system at a time"));
  return {section, engine, DmaConfig{}, keys, nullptr};
}

}  // namespace npusim
