#include "models/kernel/ProcessFailure.h"

#include <systemc>

namespace npusim {

namespace {
std::exception_ptr parked;
}

void park_process_failure(std::exception_ptr failure) {
  if (!parked) parked = failure;
  // The failure is reported once by the CLI; SystemC's own "stopped by user"
  // note would be a second, confusing message.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_stop();
}

void rethrow_process_failure() {
  if (parked) {
    std::exception_ptr failure = parked;
    parked = nullptr;
    std::rethrow_exception(failure);
  }
}

}  // namespace npusim
