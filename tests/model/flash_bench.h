// A channel under test: one ChannelController with its dies, the system bus and a DRAM buffer
// for its DMA, driven by a scripted initiator that posts flash commands at chosen times and
// records when each completes.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <map>
#include <memory>
#include <systemc>
#include <vector>

#include "hw/bus/system_bus.h"
#include "hw/channel/channel_controller.h"
#include "hw/memory/memory_target.h"
#include "hw/nand/nand_array.h"

namespace ssd::test {

using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;
using sc_core::SC_US;

class FlashScript : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<FlashScript, 32, tlmx::flash_protocol_types> socket;

  explicit FlashScript(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_nb_transport_bw(this, &FlashScript::nb_transport_bw);
  }
  // Posts a command at absolute time `at` (call before or during simulation); returns its tag.
  // `background`: the firmware's own work (GC), see channel.scheduler = host_first; `slc`: a
  // program in SLC mode.
  std::uint32_t post(tlmx::FlashOpcode op, Ppn ppn, sc_time at, Lpn lpn = 0, Token token = 1, bool background = false,
                     bool slc = false) {
    auto c = std::make_unique<Cmd>();
    c->ext = new tlmx::FlashCommand;
    c->ext->background = background;
    c->ext->slc = slc;
    c->trans.set_extension(c->ext);
    c->ext->opcode = op;
    c->ext->ppn = ppn;
    c->ext->lpn = lpn;
    c->ext->token = token;
    c->ext->tag = static_cast<std::uint32_t>(cmds_.size());
    c->ext->buffer_addr = 0;
    cmds_.push_back(std::move(c));
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay = at - sc_core::sc_time_stamp();
    socket->nb_transport_fw(cmds_.back()->trans, phase, delay);
    return cmds_.back()->ext->tag;
  }
  sc_time done_at(std::uint32_t tag) const { return cmds_[tag]->done; }
  const tlmx::FlashCommand& result(std::uint32_t tag) const { return *cmds_[tag]->ext; }
  std::size_t completed() const { return completed_; }
  sc_time last_done() const { return last_; }

 private:
  struct Cmd {
    tlm::tlm_generic_payload trans;
    tlmx::FlashCommand* ext = nullptr;
    sc_time done;
  };
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase&, sc_time&) {
    auto* e = t.get_extension<tlmx::FlashCommand>();
    cmds_[e->tag]->done = sc_core::sc_time_stamp();
    last_ = sc_core::sc_time_stamp();
    ++completed_;
    return tlm::TLM_COMPLETED;
  }
  std::vector<std::unique_ptr<Cmd>> cmds_;
  std::size_t completed_ = 0;
  sc_time last_;
};

struct ChannelBenchConfig {
  FlashGeometry geometry;
  hw::NandTiming nand;
  hw::ChannelTiming bus_timing;
  std::string scheduler = "fifo";
  std::string arbitration = "command_first";
  hw::SystemBusConfig system_bus{16, 400};
  hw::MemoryConfig dram{std::uint64_t(64) << 20, sc_time(60, SC_NS), 6400};
  hw::ReliabilityConfig reliability;  // off unless a test turns the error model on
};

inline ChannelBenchConfig mlc_channel(std::uint32_t ways, std::uint32_t planes) {
  ChannelBenchConfig c;
  c.geometry.channels = 1;
  c.geometry.ways = ways;
  c.geometry.planes_per_die = planes;
  c.geometry.blocks_per_plane = 8;
  c.geometry.pages_per_block = 256;
  c.geometry.page_bytes = 8192;
  c.nand.t_read = {sc_time(50, SC_US), sc_time(75, SC_US)};
  c.nand.t_prog = {sc_time(600, SC_US), sc_time(750, SC_US)};
  c.nand.t_erase = sc_time(3, sc_core::SC_MS);
  c.nand.cmd_cycle = sc_time(10, SC_NS);
  c.bus_timing = hw::ChannelTiming{8, 400};
  return c;
}

// A module, so several benches can be elaborated side by side (one elaboration per process).
class ChannelBench : public sc_core::sc_module {
 public:
  explicit ChannelBench(const ChannelBenchConfig& c, const char* name = "bench")
      : sc_module(name),
        cfg(c),
        array(c.geometry),
        bus("bus", c.system_bus, metrics),
        dram("dram", c.dram, metrics),
        ctrl("channel0", hw::ChannelControllerConfig{0, c.geometry, c.nand, c.bus_timing, c.scheduler, 0, c.arbitration,
                                                    c.reliability, hw::PowerConfig{}},
             array,
             metrics, nullptr),
        script("script") {
    bus.targets.bind(dram.socket);
    bus.map(0, c.dram.size_bytes, 0, "dram");
    ctrl.dma.bind(bus.initiators);
    script.socket.bind(ctrl.flash_target);
  }
  // Closed-form pieces of the model.
  sc_time cmd(std::uint32_t cycles) const { return cfg.nand.cmd_cycle * double(cycles); }
  sc_time transfer(std::uint32_t pages = 1) const {
    return cfg.bus_timing.transfer(std::uint64_t(cfg.geometry.page_bytes) * pages);
  }
  // DMA of `pages` pages (one per plane) requested together: each crosses the system bus
  // (beats) and then the DRAM (latency + bytes / bandwidth); both serve one at a time.
  sc_time dma(std::uint32_t pages = 1) const {
    const double bytes = cfg.geometry.page_bytes;
    const sc_time beats = sc_time(1e6 / cfg.system_bus.clock_mhz, SC_PS) * (bytes / cfg.system_bus.width_bytes);
    const sc_time dram = cfg.dram.latency + sc_time(bytes / (cfg.dram.bandwidth_mbps * 1e6) * 1e12, SC_PS);
    sc_time dram_free = sc_core::SC_ZERO_TIME, done;
    for (std::uint32_t i = 0; i < pages; ++i) {
      const sc_time start = std::max(beats * double(i + 1), dram_free);
      done = dram_free = start + dram;
    }
    return done;
  }

  ChannelBenchConfig cfg;
  MetricsRegistry metrics;
  hw::NandArray array;
  hw::SystemBus bus;
  hw::MemoryTarget dram;
  hw::ChannelController ctrl;
  FlashScript script;
};

inline double diff_ticks(sc_time a, sc_time b) { return std::abs(double(a.value()) - double(b.value())); }

}  // namespace ssd::test
