// Flash array geometry and flat physical addressing, shared by firmware, models and tests.
//
// A physical page number (PPN) is flat: channel, way (chip on the channel), die, plane, block,
// page, most significant first. Flat numbers keep firmware tables at 4 bytes per entry and make
// address decomposition a few integer divisions.
#pragma once

#include <cstdint>
#include <limits>

namespace ssd {

using Lpn = std::uint32_t;      // logical page number (mapping unit = one flash page)
using Ppn = std::uint32_t;      // flat physical page number
using BlockId = std::uint32_t;  // flat physical block number
using Token = std::uint32_t;    // data token standing for a page's contents

inline constexpr Ppn kNoPpn = std::numeric_limits<Ppn>::max();
inline constexpr BlockId kNoBlock = std::numeric_limits<BlockId>::max();
inline constexpr Lpn kNoLpn = std::numeric_limits<Lpn>::max();
// The OOB logical page of a padding page: programmed only to close a word line (the firmware's
// word-line safety, fw/ftl/ftl.h close_word_lines), holding no data and never valid.
inline constexpr Lpn kPaddingLpn = kNoLpn - 2;
// What the OOB of a page that cannot be read reads as (a program or erase cut by power loss,
// hw/nand/nand_array.h).
inline constexpr Lpn kUnreadableLpn = kNoLpn - 1;
inline constexpr Token kUnwrittenToken = 0;  // what a never-written logical page reads back as
// What a read returns whose data the ECC could not correct (the firmware reports it to the host
// as an Unrecovered Read Error, and a copy of it stays marked so): never a written page's token.
inline constexpr Token kUncorrectableToken = 0xffffffffu;

struct PhysAddr {
  std::uint32_t channel = 0, way = 0, die = 0, plane = 0, block = 0, page = 0;
};

struct FlashGeometry {
  std::uint32_t channels = 1;
  std::uint32_t ways = 1;  // chips (chip enables) per channel
  std::uint32_t dies_per_way = 1;
  std::uint32_t planes_per_die = 1;
  std::uint32_t blocks_per_plane = 1;
  std::uint32_t pages_per_block = 1;
  std::uint32_t page_bytes = 8192;
  std::uint32_t oob_bytes = 448;

  std::uint32_t dies_per_channel() const { return ways * dies_per_way; }
  std::uint32_t total_dies() const { return channels * dies_per_channel(); }
  std::uint32_t total_planes() const { return total_dies() * planes_per_die; }
  std::uint32_t blocks_per_die() const { return planes_per_die * blocks_per_plane; }
  std::uint64_t total_blocks() const { return std::uint64_t(total_planes()) * blocks_per_plane; }
  std::uint64_t total_pages() const { return total_blocks() * pages_per_block; }
  std::uint64_t capacity_bytes() const { return total_pages() * page_bytes; }

  BlockId block_of(Ppn ppn) const { return ppn / pages_per_block; }
  std::uint32_t page_in_block(Ppn ppn) const { return ppn % pages_per_block; }
  Ppn first_page(BlockId b) const { return b * pages_per_block; }
  std::uint32_t plane_of_block(BlockId b) const { return b / blocks_per_plane; }  // global plane
  std::uint32_t block_in_plane(BlockId b) const { return b % blocks_per_plane; }
  std::uint32_t die_of_block(BlockId b) const { return plane_of_block(b) / planes_per_die; }  // global die
  std::uint32_t channel_of_die(std::uint32_t die) const { return die / dies_per_channel(); }
  std::uint32_t die_in_channel(std::uint32_t die) const { return die % dies_per_channel(); }
  BlockId block_at(std::uint32_t global_plane, std::uint32_t block_in_plane) const {
    return global_plane * blocks_per_plane + block_in_plane;
  }
  // The k-th plane in channel-first order: consecutive k sit on different channels, then
  // different ways, dies and planes (what spreads consecutive writes widest).
  std::uint32_t channel_first_plane(std::uint32_t k) const {
    std::uint32_t r = k / channels;
    const std::uint32_t channel = k % channels, way = r % ways;
    r /= ways;
    return ((channel * ways + way) * dies_per_way + r % dies_per_way) * planes_per_die + r / dies_per_way;
  }

  PhysAddr decompose(Ppn ppn) const {
    PhysAddr a;
    a.page = ppn % pages_per_block;
    std::uint32_t rest = ppn / pages_per_block;
    a.block = rest % blocks_per_plane;
    rest /= blocks_per_plane;
    a.plane = rest % planes_per_die;
    rest /= planes_per_die;
    a.die = rest % dies_per_way;
    rest /= dies_per_way;
    a.way = rest % ways;
    a.channel = rest / ways;
    return a;
  }
  Ppn compose(const PhysAddr& a) const {
    std::uint64_t v = a.channel;
    v = v * ways + a.way;
    v = v * dies_per_way + a.die;
    v = v * planes_per_die + a.plane;
    v = v * blocks_per_plane + a.block;
    v = v * pages_per_block + a.page;
    return static_cast<Ppn>(v);
  }
};

}  // namespace ssd
