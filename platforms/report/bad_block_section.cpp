#include "platforms/report/bad_block_section.h"

#include <fmt/format.h>

#include "tlm/time_base.h"

namespace ssd::platform {

using nlohmann::json;

json bad_block_section(const MetricsRegistry& metrics, const RunFacts& facts) {
  const MetricSet& ftl = *metrics.sets().at("ftl");
  const auto count = [&ftl](const char* k) { return ftl.counter_or_zero(k); };
  const auto gauge = [&ftl](const char* k) { return ftl.gauge_or_zero(k); };
  const double since_ticks = gauge("read_only_since_ticks");
  return {{"factory_bad_blocks", facts.factory_bad_blocks},
          {"worn_out_before_run", facts.worn_out_before_run},
          {"program_failures", facts.program_failures},
          {"erase_failures", facts.erase_failures},
          {"failed_page_rewrites", count("failed_page_rewrites") + count("failed_metadata_rewrites")},
          {"blocks_emptied", count("bad_block_blocks")},
          {"pages_moved", count("bad_block_writes") + count("bad_block_metadata_writes")},
          {"blocks_replaced_by_spares", static_cast<std::uint64_t>(gauge("bad_block_replacements"))},
          {"retired_segments", static_cast<std::uint64_t>(gauge("retired_segments"))},
          {"spare_blocks", static_cast<std::uint64_t>(gauge("spare_blocks"))},
          {"usable_segments", static_cast<std::uint64_t>(gauge("usable_segments"))},
          {"read_only", since_ticks > 0},
          {"read_only_since_s", since_ticks > 0 ? json(tlmx::ticks_to_seconds(std::uint64_t(since_ticks))) : json(nullptr)}};
}

std::string bad_block_text(const json& b) {
  std::string ro = "writable";
  if (b["read_only"].get<bool>()) ro = fmt::format("READ-ONLY since {:.6g} s", b["read_only_since_s"].get<double>());
  return fmt::format("  bad blocks: {} factory, {} program and {} erase failures; {} segments retired, {} blocks "
                     "replaced by spares ({} spares left); {}\n",
                     b["factory_bad_blocks"].get<std::uint64_t>(), b["program_failures"].get<std::uint64_t>(),
                     b["erase_failures"].get<std::uint64_t>(), b["retired_segments"].get<std::uint64_t>(),
                     b["blocks_replaced_by_spares"].get<std::uint64_t>(), b["spare_blocks"].get<std::uint64_t>(), ro);
}

}  // namespace ssd::platform
