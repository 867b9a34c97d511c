#pragma once
#include <cstdint>
#include <vector>

#include "models/fetch_ml/AddressGenerator.h"
#include "models/matrix_unit/ConvShape.h"
#include "models/shader_core/ShaderCoreConfig.h"

namespace npusim {

// One register-group-sized piece of a convolution recast as [F x K] . [K x J]
// (seed003 §2.7): a run of output positions of one image and a block of filters.
struct ShaderTile {
  PositionRange positions;
  std::uint32_t first_filter = 0, filters = 0;
  std::uint32_t group = 0;      // register group it uses
  bool fetch_weights = false;   // the group does not hold this filter block yet
  InputRows rows;               // image rows fetch_ml reads for it
};

// Where a tile's pieces sit inside its register group.
struct GroupLayout {
  std::uint64_t weights = 0, ifm = 0, results = 0;  // offsets from the group's start
};

// The blocking of one conv layer into register-group tiles (§2.5, ¶[0050]) and what
// it costs: the one calculation behind the compiler, `npusim explain` and the report.
struct ShaderConvPlan {
  ConvShape layer;
  UnrollSite site = UnrollSite::RfRead;
  std::uint32_t groups = 2;
  std::uint64_t group_bytes = 0;
  std::uint64_t K = 0;                  // kh * kw * ci: rows of the unrolled matrix
  std::uint64_t positions = 0;          // ho * wo per image
  std::uint64_t tile_positions = 0;     // J of a full tile
  std::uint32_t tile_filters = 0;       // F of a full tile
  std::uint32_t result_bytes = 4;       // per result element in the register file
  GroupLayout layout;
  std::vector<ShaderTile> tiles;        // filter blocks outermost, then images, then positions

  // Totals over the tiles.
  std::uint64_t macs = 0;
  std::uint64_t mac_cycles = 0;         // datapath cycles, pipeline fill included
  std::uint64_t ifm_fetch_bytes = 0;    // image bytes read from memory
  std::uint64_t weight_fetch_bytes = 0;
  std::uint64_t naive_im2col_bytes = 0; // a host-side im2col matrix of the whole layer
  std::uint64_t rf_footprint_bytes = 0; // largest tile resident in one group
  std::uint64_t rf_write_bytes = 0;
  std::uint64_t rf_read_bytes = 0;      // datapath reads of image and weights
  std::uint64_t return_bytes = 0;
  std::uint64_t set_instructions = 0, fetch_instructions = 0, matmul_instructions = 0, return_instructions = 0;

  std::uint64_t instruction_slots() const {
    return set_instructions + fetch_instructions + matmul_instructions + return_instructions;
  }
  std::uint64_t group_offset(std::uint32_t g) const { return g * group_bytes; }
  // Bytes of a tile's image data in the register file, unrolled or compact.
  std::uint64_t ifm_tile_bytes(const ShaderTile& t) const;
};

// Datapath cycles of one [F x K] . [K x J] tile: lanes take positions, one filter
// at a time, each lane doing macs_per_lane_per_cycle of the K products per cycle.
std::uint64_t shader_tile_cycles(const ShaderCoreConfig& cfg, std::uint64_t positions, std::uint64_t filters,
                                 std::uint64_t K);
// Register-file bytes the datapath reads for a tile: weights once per pass (broadcast
// to the lanes), image entries per lane (fetch_to_rf) or the window union per pass
// through the staging registers (rf_read).
std::uint64_t shader_tile_rf_reads(const ShaderCoreConfig& cfg, const ConvShape& layer, const PositionRange& p,
                                   std::uint64_t filters, bool compact);

// Throws InputError (file "config", the register-file key) when one output of one
// filter does not fit a register group.
ShaderConvPlan plan_shader_conv(const ShaderCoreConfig& cfg, std::uint64_t register_file_bytes,
                                const ConvShape& layer, bool requantized);

// The tile sizing of plan_shader_conv alone (J, F, the group layout), before any tile is laid
// out: cheap for any layer. Throws like plan_shader_conv.
ShaderConvPlan size_shader_tiles(const ShaderCoreConfig& cfg, std::uint64_t register_file_bytes,
                                 const ConvShape& layer, bool requantized);

// Tiles plan_shader_conv lays out for a sized plan (a double: a huge layer's count may not fit 64 bits).
double shader_tile_count(const ShaderConvPlan& plan);

// Control-register writes a layer needs (ml_set instructions).
constexpr std::uint64_t kShaderSetInstructions = 17;

}  // namespace npusim
