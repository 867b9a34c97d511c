#pragma once
#include <exception>

namespace npusim {

// An exception escaping a SystemC process would be turned into an sc_report by
// the kernel and lose its type (an InputError must still exit with status 2).
// Processes therefore park the exception here and stop the simulation; the
// caller of sc_start rethrows it.
void park_process_failure(std::exception_ptr failure);
void rethrow_process_failure();

}  // namespace npusim
