#include "tools/python/vector_env.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "engine/outcome.h"

namespace wallgo::python {

void WriteRewards(const Position& pos, float* out) {
  const Result result = ComputeResult(pos);
  for (int p = 0; p < result.players; ++p) out[p] = result.reward(p);
}

VectorEnv::VectorEnv(int num_envs, const Position& start, uint64_t seed)
    : start_(start),
      positions_(num_envs, start),
      observations_(size_t(num_envs) * kObservationSize),
      masks_(size_t(num_envs) * kActionSize),
      rewards_(size_t(num_envs) * start.num_players()),
      dones_(num_envs),
      to_move_(num_envs),
      legal_(num_envs),
      legal_count_(num_envs),
      rng_(seed) {
  for (int env = 0; env < num_envs; ++env) Refresh(env);
}

void VectorEnv::Refresh(int env) {
  const Position& pos = positions_[env];
  uint8_t* mask = masks_.data() + size_t(env) * kActionSize;
  auto& legal = legal_[env];
  for (int i = 0; i < legal_count_[env]; ++i) mask[legal[i]] = 0;
  MoveList moves;
  GenerateMoves(pos, moves);
  for (int i = 0; i < moves.size(); ++i) {
    // Every generated move has an action (no resign among them).
    legal[i] = static_cast<uint16_t>(*MoveToAction(moves[i]));
    mask[legal[i]] = 1;
  }
  legal_count_[env] = moves.size();
  WriteObservation(pos, observations_.data() + size_t(env) * kObservationSize);
  to_move_[env] = static_cast<int8_t>(Index(pos.to_move()));
}

absl::Status VectorEnv::Step(std::span<const int64_t> actions) {
  const int n = num_envs();
  if (static_cast<int>(actions.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expected ", n, " actions (one per game), got ", actions.size()));
  }
  for (int env = 0; env < n; ++env) {
    const int64_t a = actions[env];
    if (a < 0 || a >= kActionSize || !masks_[size_t(env) * kActionSize + a]) {
      const std::optional<Move> move = ActionToMove(a);
      return absl::InvalidArgumentError(absl::StrCat(
          "game ", env, ": action ", a,
          move ? absl::StrCat(" (", MoveName(*move), ")") : std::string(),
          " is not legal"));
    }
  }
  const int players = num_players();
  std::fill(rewards_.begin(), rewards_.end(), 0.0f);
  for (int env = 0; env < n; ++env) {
    Position& pos = positions_[env];
    pos.Play(*ActionToMove(actions[env]));
    Refresh(env);
    // No legal move exactly when the game is over.
    dones_[env] = legal_count_[env] == 0;
    if (dones_[env]) {
      WriteRewards(pos, rewards_.data() + size_t(env) * players);
      pos = start_;
      Refresh(env);
    }
  }
  return absl::OkStatus();
}

void VectorEnv::Reset() {
  std::fill(rewards_.begin(), rewards_.end(), 0.0f);
  std::fill(dones_.begin(), dones_.end(), 0);
  for (int env = 0; env < num_envs(); ++env) {
    positions_[env] = start_;
    Refresh(env);
  }
}

void VectorEnv::RandomActions(std::span<int64_t> out) {
  for (int env = 0; env < num_envs(); ++env) {
    std::uniform_int_distribution<int> pick(0, legal_count_[env] - 1);
    out[env] = legal_[env][pick(rng_)];
  }
}

}  // namespace wallgo::python
