#pragma once
#include <cstdint>
#include <deque>
#include <string>

#include <systemc>

#include "models/controller/Dispatcher.h"

namespace npusim {

// The control module of one core (seed000 ¶38: IFU 311 and IDU 312) when
// /core/controller/placement is "core": the instructions of its core wait in its
// instruction buffer (`instruction_buffer` deep) and its Dispatcher fetches, decodes and
// places them in its engines' queues, in program order, while the other cores' do the
// same with theirs.
class CoreController : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(CoreController);
  // `block`: its name in the report and timeline ("core3.controller").
  CoreController(sc_core::sc_module_name name, const std::string& block, Cycles dispatch_cycles,
                 const DispatchConfig& cfg, Scoreboard& scoreboard, Dispatcher::EngineLookup lookup,
                 StatRegistry& stats, const BlockSpans& spans);

  bool has_room() const { return buffer_.size() < depth_; }
  const sc_core::sc_event& room_freed() const { return room_freed_; }
  void accept(Instruction inst);
  // No instruction will come any more: the thread ends once its buffer is empty.
  void close();
  std::uint64_t dispatched() const { return dispatcher_.dispatched(); }

 private:
  void run();

  Dispatcher dispatcher_;
  std::size_t depth_;
  struct Buffered {
    Instruction inst;
    Cycles arrived;  // when it came in: fetch may read it from then on
  };
  std::deque<Buffered> buffer_;
  bool closed_ = false;
  sc_core::sc_event arrived_, room_freed_;
};

}  // namespace npusim
