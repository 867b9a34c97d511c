// tlm_transfer reuses its payloads: each transfer must reach the target exactly as a fresh
// payload would, whatever the transfer before it attached or the target changed.
#include <catch2/catch.hpp>

#include <tlm>

#include "models/kernel/TlmTransfer.h"

using namespace npusim;

namespace {
// Records what it was sent, then scribbles on the payload's optional fields.
struct ScribblingTarget : tlm::tlm_fw_transport_if<> {
  struct Seen {
    tlm::tlm_command cmd;
    std::uint64_t address, length;
    bool pitched;
    std::uint64_t rows;
    bool dmi;
    unsigned char* byte_enable;
    tlm::tlm_gp_option option;
    tlm::tlm_response_status status;
  };
  std::vector<Seen> seen;
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time&) override {
    const PitchedRows* rows = t.get_extension<PitchedRows>();
    seen.push_back({t.get_command(), t.get_address(), t.get_data_length(), rows != nullptr, rows ? rows->rows : 0,
                    t.is_dmi_allowed(), t.get_byte_enable_ptr(), t.get_gp_option(), t.get_response_status()});
    t.set_dmi_allowed(true);
    t.set_byte_enable_ptr(enable);
    t.set_gp_option(tlm::TLM_FULL_PAYLOAD);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) override {
    return tlm::TLM_COMPLETED;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
  unsigned char enable[4] = {0xff, 0xff, 0xff, 0xff};
};
}  // namespace

TEST_CASE("tlm transfer: a reused payload reaches the target as a fresh one would", "[interconnect]") {
  ScribblingTarget target;
  PitchedRows rows;
  rows.rows = 3;
  rows.row_bytes = 16;
  rows.pitch = 64;
  tlm_transfer(target, tlm::TLM_WRITE_COMMAND, 0x100, 48, nullptr, 0, "test", &rows);
  tlm_transfer(target, tlm::TLM_READ_COMMAND, 0x200, 8, nullptr, 0, "test");
  {
    // A transfer nested in another (an interconnect piece) gets a payload of its own.
    TransferPayload outer(tlm::TLM_READ_COMMAND, 0x300, 4, nullptr, &rows);
    tlm_transfer(target, tlm::TLM_WRITE_COMMAND, 0x400, 2, nullptr, 0, "test");
    CHECK((*outer).get_extension<PitchedRows>() == &rows);
    CHECK((*outer).get_address() == 0x300);
  }
  tlm_transfer(target, tlm::TLM_READ_COMMAND, 0x500, 1, nullptr, 0, "test");
  REQUIRE(target.seen.size() == 4);
  const tlm::tlm_generic_payload fresh;
  const std::uint64_t addresses[] = {0x100, 0x200, 0x400, 0x500}, lengths[] = {48, 8, 2, 1};
  for (std::size_t i = 0; i < 4; ++i) {
    const auto& s = target.seen[i];
    CHECK(s.cmd == (i % 2 == 0 ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND));
    CHECK(s.address == addresses[i]);
    CHECK(s.length == lengths[i]);
    CHECK(s.pitched == (i == 0));
    CHECK(s.rows == (i == 0 ? 3u : 0u));
    CHECK(s.dmi == fresh.is_dmi_allowed());
    CHECK(s.byte_enable == fresh.get_byte_enable_ptr());
    CHECK(s.option == fresh.get_gp_option());
    CHECK(s.status == tlm::TLM_INCOMPLETE_RESPONSE);
  }
}
