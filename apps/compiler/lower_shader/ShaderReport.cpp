// What a shader layer's report row adds (seed003): fetch against compute time, the
// overlap ping-pong reached, and the data the state machine saved against im2col.
#include "apps/compiler/lower_shader/ShaderLowering.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "apps/compiler/tiling/LayerTiler.h"
#include "sim/common/DependencyModes.h"
#include "sim/report/RunStats.h"

namespace npusim {

// Busy cycles of the fetch_ml state machines (fetches and returns), whose DRAM bytes the
// compiler does not count, and of the shader datapaths, summed over the layer's cores.
// With a fetch-path cache: its hits, misses and the bytes hits served; the fetches the state
// machine launched itself (auto-fetch), which take no instruction slot of the program.
void ShaderLowering::record(const InstructionRecord& r, bool in_reduction, Counters& c) const {
  const bool fetch = r.op == "fetch_ml" || r.op == "ml_return" || r.op == "ml_preload";
  if (fetch) c.dram_bytes += r.bytes;
  if (fetch) c.counts["fetch_cycles"] += r.end - r.start;
  if (r.op == "ml_matmul") c.counts["mac_cycles"] += r.end - r.start;
  if (r.cache.hits + r.cache.misses > 0) {
    c.counts["cache_hits"] += r.cache.hits;
    c.counts["cache_misses"] += r.cache.misses;
    c.counts["cache_hit_bytes"] += r.cache.hit_bytes;
  }
  if (r.op == "ml_preload") {
    c.counts["preloads"] += 1;
    c.counts["preload_bytes"] += r.bytes;
  }
  if (r.launched_by_hardware) c.counts["auto_fetches"] += 1;
}

// overlap = hidden time / the shorter of the two, per core: 1 = fully hidden, 0 = serial.
void ShaderLowering::report(const Layer& l, const LayerTiling& t, const Counters& c, nlohmann::json& row) const {
  if (t.engine != name()) return;
  const ShaderConvPlan& p = shader_plan(t);
  const std::uint64_t fetch_cycles = c.of("fetch_cycles"), mac_cycles = c.of("mac_cycles");
  const double cores = std::max<double>(1, row.at("cores").get<double>());
  const double fetch = fetch_cycles / cores, mac = mac_cycles / cores;
  const double hidden = fetch + mac - double(row.at("cycles").get<Cycles>());
  const double overlap = std::min(fetch, mac) > 0 ? std::clamp(hidden / std::min(fetch, mac), 0.0, 1.0) : 0.0;
  row["shader"] = {{"unroll_site", json_name(p.site)},
                   {"register_groups", p.groups},
                   {"tiles", p.tiles.size()},
                   {"tile_positions", p.tile_positions},
                   {"tile_filters", p.tile_filters},
                   {"fetch_cycles", fetch_cycles},
                   {"mac_cycles", mac_cycles},
                   {"overlap", overlap},
                   {"ifm_fetch_bytes", p.ifm_fetch_bytes},
                   {"weight_fetch_bytes", p.weight_fetch_bytes},
                   {"naive_im2col_bytes", p.naive_im2col_bytes},
                   {"fetched_vs_naive", p.naive_im2col_bytes ? double(p.ifm_fetch_bytes) / p.naive_im2col_bytes : 0.0},
                   {"rf_footprint_bytes", p.rf_footprint_bytes},
                   {"rf_read_bytes", p.rf_read_bytes},
                   {"instruction_slots", row.at("instructions").get<std::uint64_t>() - c.of("auto_fetches")}};
  if (c.of("auto_fetches") > 0) row["shader"]["auto_fetches"] = c.of("auto_fetches");
  if (c.of("cache_hits") + c.of("cache_misses") + c.of("preloads") == 0) return;
  // Saved: the bytes the fetches' hits served, less what the preloads read from memory for
  // them (the whole lines a miss reads past a fetch's edges are in the layer's DRAM bytes).
  const std::int64_t saved = std::int64_t(c.of("cache_hit_bytes")) - std::int64_t(c.of("preload_bytes"));
  row["shader"]["cache"] = {{"hits", c.of("cache_hits")},
                            {"misses", c.of("cache_misses")},
                            {"bytes_from_cache", c.of("cache_hit_bytes")},
                            {"preloads", c.of("preloads")},
                            {"preloaded_bytes", c.of("preload_bytes")},
                            {"bytes_saved", saved}};
}

}  // namespace npusim
