// The op scheduler's dependency and hazard rules, driven by a HAL whose completions the test
// delivers by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "common/metrics.h"
#include "fw/hal/table_placer.h"
#include "fw/runtime/op_scheduler.h"

using namespace ssd;
using namespace ssd::fw;

namespace {

class ManualHal : public Hal {
 public:
  explicit ManualHal(FlashGeometry g) : geo_(g), placer_(1 << 20, 1 << 30) {}
  const FlashGeometry& geometry() const override { return geo_; }
  void set_listener(HalListener* l) override { listener_ = l; }
  void issue(const HalOp& op) override { issued.push_back(op); }
  void charge_cycles(std::uint64_t, fw::FirmwareWork) override {}
  void touch(const TableRegion&, std::uint64_t, std::uint32_t, Access) override {}
  TableRegion place_table(const std::string& n, std::uint64_t b, MemoryKind k) override { return placer_.place(n, b, k); }
  void complete_host_command(std::uint32_t, const LatencyTrail&, HostStatus) override {}

  // Completes the issued operation on `ppn` of `kind` (first match).
  void finish(OpKind kind, Ppn ppn, HalResult r = {}) {
    auto it = std::find_if(issued.begin(), issued.end(), [&](const HalOp& o) { return o.kind == kind && o.ppn == ppn; });
    REQUIRE(it != issued.end());
    const std::uint32_t tag = it->tag;
    issued.erase(it);
    listener_->on_hal_complete(tag, r);
  }
  bool has(OpKind kind, Ppn ppn) const {
    return std::any_of(issued.begin(), issued.end(), [&](const HalOp& o) { return o.kind == kind && o.ppn == ppn; });
  }
  std::vector<HalOp> issued;

 private:
  FlashGeometry geo_;
  TablePlacer placer_;
  HalListener* listener_ = nullptr;
};

FlashGeometry geometry() {
  FlashGeometry g;
  g.blocks_per_plane = 8;
  g.pages_per_block = 8;
  return g;
}

struct Fixture {
  ManualHal hal{geometry()};
  FirmwareCosts costs;
  MetricsRegistry metrics;
  OpScheduler ops{hal, costs, metrics.set("ops"), 16};
  Ppn page(BlockId b, std::uint32_t p) const { return hal.geometry().first_page(b) + p; }
};

}  // namespace

TEST_CASE("A read of a page whose program is in flight waits for the program", "[scheduler]") {
  Fixture f;
  OpRef p = f.ops.program(f.page(1, 0), 7, 70);
  f.ops.submit(p);
  Token got = 0;
  OpRef r = f.ops.read(f.page(1, 0), &got);
  f.ops.submit(r);
  CHECK_FALSE(f.hal.has(OpKind::Read, f.page(1, 0)));
  f.hal.finish(OpKind::Program, f.page(1, 0));
  CHECK(f.hal.has(OpKind::Read, f.page(1, 0)));
  f.hal.finish(OpKind::Read, f.page(1, 0), HalResult{7, 70, {}});
  CHECK(got == 70);
}

TEST_CASE("Programs to a block are issued in submission order even when the first waits", "[scheduler]") {
  Fixture f;
  OpRef data = f.ops.join();  // e.g. host data not yet in the buffer
  OpRef p0 = f.ops.program(f.page(2, 0), 1, 1);
  f.ops.depend(data, p0);
  f.ops.submit(p0);
  OpRef p1 = f.ops.program(f.page(2, 1), 2, 2);  // ready at once, but must not overtake p0
  f.ops.submit(p1);
  CHECK(f.hal.issued.empty());
  f.ops.submit(data);
  REQUIRE(f.hal.issued.size() == 2);
  CHECK(f.hal.issued[0].ppn == f.page(2, 0));
  CHECK(f.hal.issued[1].ppn == f.page(2, 1));
}

TEST_CASE("An erase waits for reads of its block submitted after it, before it issued", "[scheduler]") {
  Fixture f;
  OpRef r0 = f.ops.read(f.page(3, 0));
  OpRef erase = f.ops.erase(3);
  f.ops.depend(r0, erase);
  f.ops.submit(r0);
  f.ops.submit(erase);
  OpRef late = f.ops.read(f.page(3, 5));  // decided after the erase was planned
  f.ops.submit(late);
  f.hal.finish(OpKind::Read, f.page(3, 0));
  CHECK_FALSE(f.hal.has(OpKind::Erase, f.page(3, 0)));  // still waits for the late read
  f.hal.finish(OpKind::Read, f.page(3, 5));
  CHECK(f.hal.has(OpKind::Erase, f.page(3, 0)));
  CHECK_THROWS_WITH(f.ops.submit(f.ops.read(f.page(3, 1))), Catch::Contains("while its block is being erased"));
}

TEST_CASE("Programs after a pending erase wait for it and hold the block's next erase", "[scheduler]") {
  Fixture f;
  OpRef erase = f.ops.erase(4);
  f.ops.submit(erase);
  REQUIRE(f.hal.has(OpKind::Erase, f.page(4, 0)));
  OpRef data = f.ops.join();
  OpRef p = f.ops.program(f.page(4, 0), 9, 9);
  f.ops.depend(data, p);
  f.ops.submit(p);
  Token got = 0;
  OpRef r = f.ops.read(f.page(4, 0), &got);  // a read of the new data: allowed, waits for it
  f.ops.submit(r);
  f.hal.finish(OpKind::Erase, f.page(4, 0));
  CHECK(f.hal.issued.empty());  // the program still waits for its data
  OpRef erase2 = f.ops.erase(4);
  f.ops.submit(erase2);
  CHECK_FALSE(f.hal.has(OpKind::Erase, f.page(4, 0)));  // must not overtake the program
  f.ops.submit(data);
  f.hal.finish(OpKind::Program, f.page(4, 0));
  CHECK_FALSE(f.hal.has(OpKind::Erase, f.page(4, 0)));  // nor the read of its data
  f.hal.finish(OpKind::Read, f.page(4, 0), HalResult{9, 9, {}});
  CHECK(got == 9);
  CHECK(f.hal.has(OpKind::Erase, f.page(4, 0)));
}

TEST_CASE("Depending on a finished operation is a no-op, callbacks run before successors", "[scheduler]") {
  Fixture f;
  OpRef r = f.ops.read(f.page(5, 0));
  f.ops.submit(r);
  f.hal.finish(OpKind::Read, f.page(5, 0));
  OpRef j = f.ops.join();
  bool joined = false;
  f.ops.on_complete(j, [&](const HalResult&) { joined = true; });
  f.ops.depend(r, j);  // r finished (its handle is stale): no wait
  f.ops.submit(j);
  CHECK(joined);
  CHECK(f.ops.in_flight() == 0);

  std::vector<int> order;
  OpRef a = f.ops.read(f.page(5, 1));
  f.ops.on_complete(a, [&](const HalResult&) { order.push_back(1); });
  OpRef b = f.ops.join();
  f.ops.on_complete(b, [&](const HalResult&) { order.push_back(2); });
  f.ops.depend(a, b);
  f.ops.submit(a);
  f.ops.submit(b);
  f.hal.finish(OpKind::Read, f.page(5, 1));
  CHECK(order == std::vector<int>{1, 2});
}

TEST_CASE("A block's programs completing out of order is reported", "[scheduler]") {
  Fixture f;
  f.ops.submit(f.ops.program(f.page(6, 0), 1, 1));
  f.ops.submit(f.ops.program(f.page(6, 1), 2, 2));
  CHECK_THROWS_WITH(f.hal.finish(OpKind::Program, f.page(6, 1)), Catch::Contains("completed before an older program"));
}

TEST_CASE("OOB reads follow the read hazards and report the spare area", "[scheduler]") {
  Fixture f;
  f.ops.submit(f.ops.program(f.page(7, 0), 42, 420));
  HalResult seen;
  OpRef r = f.ops.read_oob(f.page(7, 0));
  f.ops.on_complete(r, [&](const HalResult& res) { seen = res; });
  f.ops.submit(r);
  CHECK_FALSE(f.hal.has(OpKind::ReadOob, f.page(7, 0)));  // waits for the program
  f.hal.finish(OpKind::Program, f.page(7, 0));
  OpRef erase = f.ops.erase(7);
  f.ops.submit(erase);
  CHECK_FALSE(f.hal.has(OpKind::Erase, f.page(7, 0)));  // waits for the OOB read
  f.hal.finish(OpKind::ReadOob, f.page(7, 0), HalResult{42, 420, {}});
  CHECK(seen.lpn == 42);
  CHECK(f.hal.has(OpKind::Erase, f.page(7, 0)));
}

TEST_CASE("Unfinished operations are described until they complete", "[fw][ops]") {
  Fixture f;
  CHECK(f.ops.describe_unfinished().empty());
  const OpRef program = f.ops.program(f.page(1, 0), 7, 70);
  const OpRef after = f.ops.join();
  f.ops.depend(program, after);
  f.ops.submit(program);
  f.ops.submit(after);
  const std::string held = f.ops.describe_unfinished();
  CHECK_THAT(held, Catch::StartsWith("2 operation(s) unfinished: ") &&
                       Catch::Contains("program issued at ch0/way0/die0/plane0/block1/page0") &&
                       Catch::Contains("join waiting, waiting for 1 predecessor(s)"));
  f.hal.finish(OpKind::Program, f.page(1, 0));
  CHECK(f.ops.describe_unfinished().empty());
}

TEST_CASE("The read watcher hears of a block once, at its threshold-th read, and again after its erase",
          "[scheduler][reliability]") {
  Fixture f;
  std::vector<BlockId> reached;
  f.ops.watch_reads(3, [&reached](BlockId b) { reached.push_back(b); });
  auto read = [&f](BlockId b, std::uint32_t p) {
    OpRef r = f.ops.read(f.page(b, p));
    f.ops.submit(r);
    f.hal.finish(OpKind::Read, f.page(b, p));
  };
  read(2, 0);
  read(2, 1);
  read(5, 0);  // another block's reads count apart
  CHECK(reached.empty());
  read(2, 0);  // the third read of block 2
  CHECK(reached == std::vector<BlockId>{2});
  read(2, 3);
  read(2, 4);  // beyond the threshold: not again
  CHECK(reached.size() == 1);
  OpRef e = f.ops.erase(2);
  f.ops.submit(e);
  CHECK(f.ops.erase_pending(2));
  f.hal.finish(OpKind::Erase, f.page(2, 0));
  CHECK(f.ops.erases_completed(2) == 1);
  CHECK_FALSE(f.ops.erase_pending(2));
  read(2, 0);
  read(2, 0);
  CHECK(reached.size() == 1);
  read(2, 0);  // the count started again at the erase
  CHECK(reached == std::vector<BlockId>{2, 2});
}
