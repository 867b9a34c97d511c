#pragma once
#include "models/matrix_unit/MatrixUnitConfig.h"
#include "sim/common/Cycles.h"

namespace npusim::stepped {

// A bus or link moving transfers one after another at a fixed, possibly fractional,
// number of bytes per cycle (rules 1 and 3). Each cycle it has that many bytes to spend:
// a transfer that ends mid-cycle hands the rest to the next one if that may begin in the
// same cycle; a transfer that may not begin (its slot is still held) moves nothing, and
// the unspent budget of the cycle is lost. A transfer whose last byte moves in cycle t is
// usable from cycle t + 1 + latency.
class ByteStream {
 public:
  explicit ByteStream(const BusConfig& bus) : rate_(bus.bytes_per_cycle), latency_(bus.latency) {}
  virtual ~ByteStream() = default;
  bool step(Cycles t);  // whether any byte moved in cycle t

 protected:
  virtual bool can_begin(Cycles t) const = 0;  // is there a next transfer, and may it begin
  virtual double begin(Cycles t) = 0;          // it begins in cycle t: its size in bytes
  virtual void finish(Cycles usable_from) = 0;

 private:
  double rate_;
  Cycles latency_;
  double left_ = 0;  // bytes of the current transfer still to move
  bool busy_ = false;
};

}  // namespace npusim::stepped
