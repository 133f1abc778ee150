// The content of the map checkpoints' pages (fw/recovery/checkpoint_medium.h), kept beside the
// NAND array that holds their spare areas: for each checkpoint, the blocks sealed when it was
// taken (every page programmed) with their erase counts. A saved block's mapping is its pages' OOB
// as they were then, which is what they are as long as the block has not been erased since, so it
// is read from the array, and only then (a boot asking for a block erased since is a firmware bug).
#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "fw/recovery/checkpoint_medium.h"
#include "hw/nand/nand_array.h"

namespace ssd::platform {

class CheckpointRecords : public fw::CheckpointMedium {
 public:
  explicit CheckpointRecords(const hw::NandArray& array) : array_(array) {}

  void record(std::uint32_t id, const std::vector<Ppn>& pages) override;
  std::vector<std::pair<std::uint32_t, std::vector<Ppn>>> candidates() const override;
  bool saved(std::uint32_t id, BlockId b) const override { return find(id).erase_count[b] != kNotSaved; }
  bool erased_since(std::uint32_t id, BlockId b) const override {
    return array_.erase_count(b) != find(id).erase_count[b];
  }
  void for_each_saved_page(std::uint32_t id, BlockId b, const PageVisitor& visit) const override;

 private:
  static constexpr std::uint32_t kNotSaved = ~0u;
  // Two slots are used in turn, so only the last three may still have pages on the flash (the one
  // being written, and the two before it if it has not erased its slot yet).
  static constexpr std::size_t kKept = 3;
  struct Record {
    std::uint32_t id;
    std::vector<Ppn> pages;
    std::vector<std::uint32_t> erase_count;  // per block; kNotSaved: not sealed then
  };
  const Record& find(std::uint32_t id) const;

  const hw::NandArray& array_;
  std::deque<Record> records_;  // oldest first
};

}  // namespace ssd::platform
