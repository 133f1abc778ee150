#include "fw/firmware/plp_dump.h"

namespace ssd::fw {

PlpDumpArea::PlpDumpArea(const FlashGeometry& geo, std::uint32_t pages, std::vector<bool>* taken)
    : ReservedArea(geo, pages, taken,
                   "shrink the write buffer (firmware.write_buffer_dram_share) or use firmware.plp_destage = ftl") {}

}  // namespace ssd::fw
