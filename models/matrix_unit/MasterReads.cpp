#include "models/matrix_unit/MasterReads.h"

#include <algorithm>


namespace npusim {

std::uint64_t ram_requests_for(std::uint32_t bytes, const MatrixUnitConfig& cfg) {
  const std::uint32_t width = std::max<std::uint32_t>(1, cfg.nram_read.request_bytes);
  return std::max<std::uint64_t>(1, (std::uint64_t(bytes) + width - 1) / width);
}

WindowReads window_reads(const WfoldPlan& p, const MatrixUnitConfig& cfg, std::uint64_t rows, std::uint32_t block) {
  return window_reads_as(p.reads.mode, p, cfg, rows, block);
}

WindowReads window_reads_as(DataRowRead mode, const WfoldPlan& p, const MatrixUnitConfig& cfg, std::uint64_t rows,
                            std::uint32_t block) {
  const std::uint32_t position = p.reads.stride_bytes;  // ci' bytes
  WindowReads w;
  switch (mode) {
    case DataRowRead::Contiguous:  // one (or a few) requests per row of Ws positions (¶103)
      w.ram_requests = rows * ram_requests_for(p.ws * position, cfg);
      break;
    case DataRowRead::Strided:  // Ws requests of Pci per row (¶107)
      w.ram_requests = rows * p.ws * ram_requests_for(p.pci.bytes, cfg);
      break;
    case DataRowRead::Relay:  // whole positions into the relay with block 0, rows out of it for every block (¶111)
      if (block == 0) w.ram_requests = w.relay_writes = rows * p.ws * ram_requests_for(position, cfg);
      w.relay_rows = rows;
      break;
  }
  return w;
}

TileReads tile_reads_as(DataRowRead mode, const WfoldPlan& p, const MatrixUnitConfig& cfg) {
  TileReads t;
  for (const KwPiece& k : p.kw_pieces)
    for (std::uint32_t b = 0; b < p.bci; ++b) {
      const WindowReads w = window_reads_as(mode, p, cfg, k.data_rows, b);
      t.ram_requests += w.ram_requests * p.nkh;
      t.relay_rows += w.relay_rows * p.nkh;
      t.nram_cycles += nram_read_cycles(w, cfg) * p.nkh;
      t.relay_cycles += relay_read_cycles(w, cfg) * p.nkh;
    }
  return t;
}

Cycles nram_read_cycles(const WindowReads& r, const MatrixUnitConfig& cfg) {
  const Cycles request = cfg.nram_read.request_cycles;
  const Cycles into_relay = std::max(request, cfg.relay.write_cycles);
  return (r.ram_requests - r.relay_writes) * request + r.relay_writes * into_relay;
}

Cycles relay_read_cycles(const WindowReads& r, const MatrixUnitConfig& cfg) { return r.relay_rows * cfg.relay.read_cycles; }

Cycles window_read_cycles(const WindowReads& r, const MatrixUnitConfig& cfg) {
  return nram_read_cycles(r, cfg) + relay_read_cycles(r, cfg);
}

namespace {

// Appends one NRAM read of `bytes` (real and zero) split into the port's requests.
void add_ram_reads(std::vector<TimedRead>& out, const MatrixUnitConfig& cfg, TimedRead read, Cycles each) {
  const std::uint32_t real = read.bytes - read.zero_bytes;
  const std::uint64_t parts = ram_requests_for(real, cfg);
  for (std::uint64_t i = 0; i < parts; ++i) {
    TimedRead part = read;
    const std::uint32_t first = std::uint32_t(real * i / parts), last = std::uint32_t(real * (i + 1) / parts);
    part.offset += first;
    part.bytes = last - first + (i + 1 == parts ? read.zero_bytes : 0);
    part.zero_bytes = i + 1 == parts ? read.zero_bytes : 0;
    part.start = out.empty() ? 0 : out.back().end;
    part.end = part.start + each;
    out.push_back(part);
  }
}

}  // namespace

std::vector<TimedRead> group_read_sequence(const WfoldPlan& p, const MatrixUnitConfig& cfg) {
  const DataRowReads& r = p.reads;
  const std::uint32_t position = r.stride_bytes, pci = p.pci.bytes;
  std::vector<TimedRead> out;
  const Cycles request = cfg.nram_read.request_cycles;
  if (r.mode == DataRowRead::Contiguous) {
    add_ram_reads(out, cfg, {TimedRead::Kind::Ram, 0, p.ws * pci, p.ws * r.zero_bytes_per_position}, request);
    return out;
  }
  if (r.mode == DataRowRead::Strided) {
    for (std::uint32_t b = 0; b < p.bci; ++b)
      for (std::uint32_t j = 0; j < p.ws; ++j) {
        const std::uint32_t real = std::min(pci, position - b * pci);
        add_ram_reads(out, cfg, {TimedRead::Kind::Ram, std::uint64_t(j) * position + b * pci, pci, pci - real, false, b},
                      request);
      }
    return out;
  }
  const Cycles into_relay = std::max(request, cfg.relay.write_cycles);
  for (std::uint32_t j = 0; j < p.ws; ++j)
    add_ram_reads(out, cfg, {TimedRead::Kind::Ram, std::uint64_t(j) * position, position, 0, true, 0}, into_relay);
  for (std::uint32_t b = 0; b < p.bci; ++b) {
    const std::uint32_t real = std::min(pci, position - b * pci);
    TimedRead row{TimedRead::Kind::RelayRow, 0, p.ws * pci, p.ws * (pci - real), false, b};
    row.start = out.back().end;
    row.end = row.start + cfg.relay.read_cycles;
    out.push_back(row);
  }
  return out;
}

}  // namespace npusim
