// The state one reclaim domain (a plane of a page-mapping FTL) settles into under uniform random
// page writes with greedy garbage collection, found by simulating valid-page counts alone.
//
// Under uniform random writes every live page is equally likely to be overwritten next, so which
// logical pages a block holds does not matter, only how many: an overwrite hits block b with
// probability valid(b) / valid pages (sampled with a Fenwick tree), host data goes to a host
// frontier block, and while fewer than `gc_threshold` blocks are free the closed block with the
// fewest valid pages is reclaimed, its pages copied to a GC frontier block (as
// PageMappingFtl does, GC being instantaneous here). Starting from the sequential fill it runs
// whole capacities of host writes until the write amplification of one capacity is within 0.5%
// of the previous one's (at least 3, at most 20 capacities). A plane of a 512 GiB drive
// (about a million pages) takes a fraction of a second.
#pragma once

#include <cstdint>
#include <vector>

namespace ssd::fw {

struct GreedyDomainSpec {
  std::uint32_t blocks = 0;
  std::uint32_t pages_per_block = 0;
  std::uint64_t valid_pages = 0;  // live pages the domain holds (constant: every write overwrites one)
  std::uint32_t gc_threshold = 1; // GC reclaims while fewer blocks than this are free
};

struct GreedyDomainState {
  struct Block {
    std::uint32_t valid = 0;
    std::uint32_t programmed = 0;  // pages written since its erase (< pages_per_block: a frontier)
    enum class Role : std::uint8_t { Closed, HostFrontier, GcFrontier } role = Role::Closed;
  };
  std::vector<Block> used;         // every block that is not free, in no particular order
  std::uint32_t free_blocks = 0;
  double write_amplification = 0;  // over the last simulated capacity
  std::uint32_t capacities = 0;    // capacities of host writes simulated
  bool settled = false;
};

// Throws std::invalid_argument when the domain cannot hold its valid pages with the threshold's
// free blocks and two frontiers.
GreedyDomainState simulate_greedy_steady_state(const GreedyDomainSpec& spec, std::uint64_t seed);

// The FIFO-reclaim steady state in closed form (common/log_structured_model.h): every block but
// the threshold's free ones written, the one written i blocks ago holding the integral of
// exp(-a(1-u)/U) over its pages' ages, rounded so the total is exactly valid_pages. For blocks
// of many pages (a segment striped over the whole array) a block's invalid share hardly varies
// (its standard deviation is sqrt(u / (pages (1-u))), 1.4% at 32 Ki pages and u = 0.87), so
// greedy reclaim has nothing to choose from and settles where FIFO does (measured: WAF 7.535
// greedy vs 7.58 FIFO for 2048 segments of 32 Ki pages), and the simulation, whose cost grows
// with the pages, is not needed.
GreedyDomainState fifo_steady_state(const GreedyDomainSpec& spec);

// The simulation for blocks of up to kSimulatedPagesPerBlock pages, the closed form above that.
inline constexpr std::uint32_t kSimulatedPagesPerBlock = 1024;
GreedyDomainState random_write_steady_state(const GreedyDomainSpec& spec, std::uint64_t seed);

}  // namespace ssd::fw
