// NVMe command arbitration (hw/host/submission_arbiter.h) in closed form: which submission queue
// each fetch comes from, for queues that always hold commands and for queues that run dry.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "hw/host/submission_arbiter.h"

using namespace ssd;
using ssd::hw::ArbitrationConfig;
using ssd::hw::SubmissionArbiter;

namespace {

ArbitrationConfig weighted(std::array<std::uint32_t, 3> weights, std::uint32_t burst) {
  ArbitrationConfig c;
  c.policy = ArbitrationConfig::Policy::WeightedRoundRobin;
  c.weights = weights;
  c.burst = burst;
  return c;
}

// `fetches` picks with every queue always holding commands: how many each queue got.
std::vector<std::uint64_t> saturated_shares(SubmissionArbiter& arbiter, std::size_t queues, std::uint64_t fetches) {
  const std::vector<std::uint32_t> pending(queues, 1000);
  std::vector<std::uint64_t> got(queues, 0);
  for (std::uint64_t i = 0; i < fetches; ++i) ++got[arbiter.next(pending).value()];
  return got;
}

}  // namespace

TEST_CASE("Round robin takes every queue in turn, each for its burst, whatever its class", "[model][host][arbitration]") {
  ArbitrationConfig c;
  c.burst = 2;
  SubmissionArbiter arbiter(c, {QueuePriority::Low, QueuePriority::Urgent, QueuePriority::High});
  const std::vector<std::uint32_t> pending(3, 100);
  std::vector<std::uint32_t> order;
  for (int i = 0; i < 12; ++i) order.push_back(arbiter.next(pending).value());
  CHECK(order == std::vector<std::uint32_t>{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2});
}

TEST_CASE("Round robin passes over empty queues and ends a burst when its queue runs dry", "[model][host][arbitration]") {
  ArbitrationConfig c;
  c.burst = 4;
  SubmissionArbiter arbiter(c, std::vector<QueuePriority>(3, QueuePriority::Medium));
  std::vector<std::uint32_t> pending{1, 0, 3};
  std::vector<std::uint32_t> order;
  while (const auto q = arbiter.next(pending)) {
    order.push_back(*q);
    --pending[*q];
  }
  CHECK(order == std::vector<std::uint32_t>{0, 2, 2, 2});
  CHECK_FALSE(arbiter.next(pending).has_value());
}

TEST_CASE("Weighted round robin gives High, Medium and Low their weights' shares of the fetches",
          "[model][host][arbitration]") {
  // Weights 8:4:2 (and 1:1:1 as the spec's reset values), bursts of 1 and 4, two Low queues sharing
  // Low's share: over a long run each class's share equals its weight's within 2% (exactly, over
  // whole rounds), and round robin splits a class evenly.
  for (const std::uint32_t burst : {1u, 4u})
    for (const auto& weights : {std::array<std::uint32_t, 3>{8, 4, 2}, std::array<std::uint32_t, 3>{1, 1, 1},
                                std::array<std::uint32_t, 3>{5, 3, 1}}) {
      INFO("weights " << weights[0] << ":" << weights[1] << ":" << weights[2] << ", burst " << burst);
      SubmissionArbiter arbiter(weighted(weights, burst),
                                {QueuePriority::High, QueuePriority::Medium, QueuePriority::Low, QueuePriority::Low});
      const std::uint64_t fetches = 100'000;
      const std::vector<std::uint64_t> got = saturated_shares(arbiter, 4, fetches);
      const double total = weights[0] + weights[1] + weights[2];
      const double shares[3] = {double(got[0]) / fetches, double(got[1]) / fetches, double(got[2] + got[3]) / fetches};
      for (int c = 0; c < 3; ++c) CHECK(shares[c] == Approx(weights[c] / total).epsilon(0.02));
      CHECK(double(got[2]) == Approx(double(got[3])).epsilon(0.02));
    }
}

TEST_CASE("Weighted round robin serves Urgent queues first, always", "[model][host][arbitration]") {
  // While an Urgent queue holds commands no other queue is fetched, however much weight the others
  // have left; Urgent queues share round robin; then the weighted classes go on.
  SubmissionArbiter arbiter(weighted({8, 4, 2}, 4), {QueuePriority::High, QueuePriority::Urgent, QueuePriority::Low,
                                                     QueuePriority::Urgent});
  std::vector<std::uint32_t> pending{50, 5, 50, 3};
  // High first (no Urgent command yet), one fetch of its burst.
  pending[1] = pending[3] = 0;
  CHECK(arbiter.next(pending) == 0u);
  --pending[0];
  pending[1] = 5;
  pending[3] = 3;
  std::map<std::uint32_t, int> urgent;
  for (int i = 0; i < 8; ++i) {
    const std::uint32_t q = arbiter.next(pending).value();
    REQUIRE((q == 1 || q == 3));  // High's burst does not go on while Urgent waits
    ++urgent[q];
    --pending[q];
  }
  CHECK(urgent[1] == 5);
  CHECK(urgent[3] == 3);
  CHECK(arbiter.next(pending) == 0u);  // High still has weight left this round
}

TEST_CASE("Weighted round robin gives an idle class's turn to the others (work conserving)", "[model][host][arbitration]") {
  SubmissionArbiter arbiter(weighted({8, 4, 2}, 1), {QueuePriority::High, QueuePriority::Low});
  const std::vector<std::uint32_t> only_low{0, 1000};
  for (int i = 0; i < 20; ++i) CHECK(arbiter.next(only_low) == 1u);
  // Both busy again: 8 High to 2 Low per round.
  const std::vector<std::uint64_t> got = saturated_shares(arbiter, 2, 10'000);
  CHECK(double(got[0]) / double(got[1]) == Approx(4.0).epsilon(0.02));
}

TEST_CASE("Weights of 0 are refused", "[model][host][arbitration]") {
  CHECK_THROWS_AS(SubmissionArbiter(weighted({1, 0, 1}, 1), {QueuePriority::Medium}), std::invalid_argument);
}
