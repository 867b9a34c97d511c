#include <cstdlib>

#include <systemc>

#include "apps/cli/Cli.h"

// SystemC prints a banner when its kernel starts unless told not to; the
// simulator's own output must stay clean, so silence it before anything else.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char** argv) { return npusim::run_cli(argc, argv); }
