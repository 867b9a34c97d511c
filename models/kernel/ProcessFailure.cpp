#include "models/kernel/ProcessFailure.h"

#include <systemc>

namespace npusim {

namespace {
std::exception_ptr parked;
}

void park_process_failure(std::exception_ptr failure) {
  if (!parked) parked = failure;
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
