// The pre-pass over a workload counts its written footprint: distinct logical pages its writes
// touch, after folding, over every pass (the LAST reproduction compares it with the log size).
#include <catch2/catch.hpp>

#include "stimuli/mqsim_trace.h"
#include "stimuli/request_admission.h"
#include "trace_test_support.h"

using namespace ssd;
using namespace ssd::stimuli;

TEST_CASE("The workload scan counts distinct written pages, after folding", "[trace][scan]") {
  AdmissionRules rules;
  rules.capacity_sectors = 800;  // 100 pages of 4 KiB
  rules.page_bytes = 4096;
  rules.fold_addresses = true;
  // MQSim lines: arrival device lba sectors type (0 write, 1 read).
  const std::string path = test::write_temp_file("scan_footprint.trace",
                                                 "0 0 0 32 0\n"      // pages 0-3
                                                 "1 0 16 32 0\n"     // pages 2-5: 2 new
                                                 "2 0 80 8 1\n"      // a read of page 10: not written
                                                 "3 0 44 8 0\n"      // sectors 44-51: pages 5 and 6, 1 new
                                                 "4 0 800 8 0\n");   // page 100 folds onto page 0
  MqsimTrace trace(path);
  const WorkloadScan scan = scan_workload(trace, RequestAdmission(rules));
  CHECK(scan.requests == 5);
  CHECK(scan.folded == 1);
  CHECK(scan.written_pages == 7);  // pages 0-6
}
