// n games stepped together for reinforcement learning (docs/python.md,
// VectorEnv): one integer action per game, then every game's observation,
// legal-action mask, rewards and done flag land in flat buffers that Python
// views as numpy arrays without copying. A finished game is reported (its
// rewards, done = 1) and started again in the same step.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "engine/movegen.h"
#include "engine/position.h"
#include "tools/python/action_space.h"

namespace wallgo::python {

// Each player's reward for the finished game of `pos`: +1 for the sole
// winner, 0 for players sharing a draw, -1 for the others.
void WriteRewards(const Position& pos, float* out);

class VectorEnv {
 public:
  // `start` is every game's first position (and the one it restarts from).
  VectorEnv(int num_envs, const Position& start, uint64_t seed);

  int num_envs() const { return static_cast<int>(positions_.size()); }
  int num_players() const { return start_.num_players(); }
  const Position& position(int env) const { return positions_[env]; }

  // Plays actions[i] in game i. Checks every action first: on an illegal
  // one returns InvalidArgument naming the game and the move, and changes
  // nothing.
  absl::Status Step(std::span<const int64_t> actions);
  // Every game back to the start.
  void Reset();
  // A uniformly random legal action of every game (from the seed).
  void RandomActions(std::span<int64_t> out);

  // The buffers (row-major): observations [n][kObservationSize], masks
  // [n][kActionSize], rewards [n][players], dones [n], to_move [n].
  uint8_t* observations() { return observations_.data(); }
  uint8_t* masks() { return masks_.data(); }
  float* rewards() { return rewards_.data(); }
  uint8_t* dones() { return dones_.data(); }
  int8_t* to_move() { return to_move_.data(); }

 private:
  // Lists game `env`'s legal actions and writes its observation and mask.
  void Refresh(int env);

  Position start_;
  std::vector<Position> positions_;
  std::vector<uint8_t> observations_;
  std::vector<uint8_t> masks_;
  std::vector<float> rewards_;
  std::vector<uint8_t> dones_;
  std::vector<int8_t> to_move_;
  // The legal actions of each game ([env][0..count)), to clear its mask
  // cheaply and to sample from.
  std::vector<std::array<uint16_t, MoveList::kCapacity>> legal_;
  std::vector<int> legal_count_;
  std::mt19937_64 rng_;
};

}  // namespace wallgo::python
