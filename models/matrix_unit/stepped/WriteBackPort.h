#pragma once
#include <cstdint>
#include <vector>

#include "models/matrix_unit/stepped/CycleSteppedMatrixUnit.h"
#include "models/matrix_unit/stepped/ThirdBuffer.h"

namespace npusim::stepped {

// One write request of a tile's results to NRAM: positions x channels of the round,
// counted from the tile's first wo and the round's first co.
struct WriteRequest {
  std::uint32_t first_wo = 0, positions = 0;
  std::uint32_t first_co = 0, channels = 0;
  std::uint64_t bytes = 0;
};

// The Pco/Wso scheme of §3.7 for one tile (`wo_valid` outputs of `round`), result
// elements of `element_bytes`: when the round holds every co and its bytes fit in one Pco,
// neighbouring positions are contiguous and one request covers Wso of them (¶152);
// otherwise each position takes one request per whole Pco block and one for the
// remainder (¶153-¶155). Only valid wo and real co are requested: that is the filtering.
std::vector<WriteRequest> write_back_requests(const WfoldPlan& plan, const CoBlock& round,
                                              std::uint32_t wo_valid, std::uint32_t element_bytes);

// Rule 8: the one port from the third buffer to NRAM. Tiles in order; a tile starts once
// its results are complete and the port has issued the previous tile's last request, issues its requests
// one after another (each ceil(bytes / bytes_per_cycle) cycles, at least 1), holds the port at
// least as long as the readout of its result set takes (readout_cycles), and ends `latency`
// cycles after that, which gives its result set back. With data, each
// request reads its results out in wc order (¶181-¶182), requantized when asked.
class WriteBackPort {
 public:
  WriteBackPort(const MatrixUnitConfig& cfg, const WorkOrder& order, ThirdBuffer& third_buffer,
                std::vector<SteppedTileTimes>& tiles, const ResultRequant& requant, void* out);
  bool step(Cycles t);  // whether cycle t was spent on a request
  bool finished() const { return tile_ == order_.tiles(); }

 private:
  void start_tile(Cycles t);
  void start_request();
  void read_out(const WriteRequest& request);

  const MatrixUnitConfig& cfg_;
  const BusConfig& bus_;
  const WorkOrder& order_;
  ThirdBuffer& third_buffer_;
  std::vector<SteppedTileTimes>& tiles_;
  ResultRequant requant_;
  std::uint8_t* out_;
  std::uint32_t element_bytes_;
  std::uint64_t tile_ = 0;  // the tile being written, or the next one
  TilePlace place_;
  bool busy_ = false;
  std::vector<WriteRequest> requests_;
  std::size_t request_ = 0;
  Cycles cycles_left_ = 0;  // of the current request
  Cycles readout_left_ = 0;  // cycles the tile's readout still needs (it holds the port that long at least)
};

}  // namespace npusim::stepped
