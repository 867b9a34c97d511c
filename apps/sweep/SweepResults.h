#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "apps/sweep/SweepPoints.h"
#include "apps/sweep/SweepSpec.h"

namespace npusim {

// Files of one point directory besides the run outputs.
inline constexpr const char* kPointFile = "point.json";    // axis values and inputs
inline constexpr const char* kConfigFile = "config.json";  // the resolved config
inline constexpr const char* kErrorFile = "error.txt";     // why a failed point failed

// results.csv built from the point directories alone, one row per point in
// index order: axis values, status ok|failed, error, total_cycles, time_us,
// macs, mac_utilization, dram_bytes, dram_bw_utilization, then util.<engine>
// and bw.<bus> columns (the union over all points, sorted).
// True for a column results.csv fills itself; an axis may not take such a name.
bool is_results_column(const std::string& name);

// Column name -> value text for one point's row, read from its directory (absent columns
// stay empty). A sweep reads each point as it completes, on the thread that ran it, so the
// rows are not all read one after another at the end.
using PointCells = std::map<std::string, std::string>;
PointCells point_cells(const std::string& dir);

// `read`: rows already read by point_cells, by point (nullopt: read it now); nullptr: none.
std::string results_csv(const SweepSpec& spec, const std::vector<SweepPoint>& points, const std::string& points_dir,
                        const std::vector<std::optional<PointCells>>* read = nullptr);

}  // namespace npusim
