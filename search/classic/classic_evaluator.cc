#include "search/classic/classic_evaluator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>

#include "engine/movegen.h"
#include "engine/regions.h"
#include "engine/zobrist.h"
#include "search/classic/children.h"

namespace wallgo::search {
namespace {

float ChildUtility(const Position& pos, Move move) {
  const ChildOutlook child = EvaluateChildSlowly(pos, move);
  return UtilityOf(child.win, child.margin);
}

// Moves of one stone to one cell (or one placement) share a group.
bool SameGroup(Move a, Move b) {
  return a.kind == b.kind && a.from == b.from && a.to == b.to;
}

}  // namespace

Value ValueOf(const Evaluation& ev, int players) {
  Value v;
  for (int p = 0; p < players; ++p) {
    v.win[p] = ev.win[p];
    v.margin[p] = ScoreMargin(ev.score, players, ColourAt(p));
  }
  return v;
}

Value FinishedValue(const Position& pos) {
  const Result result = ComputeResult(pos);
  std::array<float, kMaxPlayers> score{};
  for (int p = 0; p < kMaxPlayers; ++p) score[p] = result.sheet.score[p];
  Evaluation e;
  e.score = score;
  const float share =
      1.0f / static_cast<float>(std::max(1, std::popcount(result.winners)));
  for (int p = 0; p < pos.num_players(); ++p) {
    if (result.winners & (1u << p)) e.win[p] = share;
  }
  return ValueOf(e, pos.num_players());
}

Value ClassicEvaluator::LeafValue(const Position& pos) const {
  if (IsGameOver(pos)) return FinishedValue(pos);
  Position p = pos;
  uint64_t draw = pos.hash();
  MoveList moves;
  const int random_moves = pos.num_players() > 2
                               ? config_.multi_player_playout_moves
                               : config_.playout_moves;
  for (int i = 0; i < random_moves; ++i) {
    GenerateMoves(p, moves);
    if (moves.empty()) break;
    draw = zobrist::SplitMix64(draw);
    p.Play(moves[static_cast<int>(draw % static_cast<uint64_t>(moves.size()))]);
  }
  return ValueOf(search::Evaluate(p), pos.num_players());
}

void ClassicEvaluator::ChildUtilities(const Position& pos,
                                      std::span<const Move> moves,
                                      std::span<float> utility) const {
  const int count = static_cast<int>(moves.size());
  if (config_.prior == PriorKind::kUniform) {
    std::fill(utility.begin(), utility.end(), 0.0f);
    return;
  }
  if (config_.prior == PriorKind::kChildEval) {
    std::array<ChildOutlook, MoveList::kCapacity> children;
    EvaluateChildren(pos, moves, std::span(children.data(), moves.size()));
    for (int i = 0; i < count; ++i) {
      utility[i] = UtilityOf(children[i].win, children[i].margin);
    }
    return;
  }
  // kGrouped: the first move of each group stands for the group. Groups are
  // found through a small open-addressing table: GenerateMoves lists the
  // moves side by side, not destination by destination.
  std::array<int, MoveList::kCapacity> group_of, leader;
  constexpr int kSlots = 2 * MoveList::kCapacity;  // a power of two
  std::array<int16_t, kSlots> slot;
  slot.fill(-1);
  int groups = 0;
  for (int i = 0; i < count; ++i) {
    const Move m = moves[i];
    const unsigned key =
        (static_cast<unsigned>(m.kind) * 64u + m.from) * 64u + m.to;
    unsigned h = (key * 2654435761u) >> 23 & (kSlots - 1);
    while (slot[h] >= 0 && !SameGroup(moves[leader[slot[h]]], m)) {
      h = (h + 1) & (kSlots - 1);
    }
    if (slot[h] < 0) {
      slot[h] = static_cast<int16_t>(groups);
      leader[groups++] = i;
      utility[i] = ChildUtility(pos, m);
    }
    group_of[i] = slot[h];
  }
  for (int i = 0; i < count; ++i) utility[i] = utility[leader[group_of[i]]];
  // The best groups get every wall evaluated on its own.
  std::array<int, MoveList::kCapacity> rank;
  for (int g = 0; g < groups; ++g) rank[g] = g;
  const int refined = std::min(groups, config_.refined_groups);
  std::partial_sort(
      rank.begin(), rank.begin() + refined, rank.begin() + groups,
      [&](int a, int b) { return utility[leader[a]] > utility[leader[b]]; });
  for (int r = 0; r < refined; ++r) {
    for (int i = 0; i < count; ++i) {
      if (group_of[i] == rank[r] && i != leader[rank[r]]) {
        utility[i] = ChildUtility(pos, moves[i]);
      }
    }
  }
}

Value ClassicEvaluator::ChildEstimate(const Position& child) const {
  return ValueOf(search::Evaluate(child), child.num_players());
}

void SoftmaxOfUtilities(std::span<const float> utility, double temperature,
                        std::span<float> priors) {
  float best = -std::numeric_limits<float>::infinity();
  for (const float x : utility) best = std::max(best, x);
  float sum = 0;
  const auto t = static_cast<float>(temperature);
  for (size_t i = 0; i < utility.size(); ++i) {
    priors[i] = std::exp((utility[i] - best) / t);
    sum += priors[i];
  }
  for (size_t i = 0; i < utility.size(); ++i) priors[i] /= sum;
}

void ClassicEvaluator::Priors(const Position& pos, std::span<const Move> moves,
                              std::span<float> priors) const {
  std::array<float, MoveList::kCapacity> utility;
  const std::span<float> u(utility.data(), moves.size());
  ChildUtilities(pos, moves, u);
  SoftmaxOfUtilities(u, config_.prior_temperature, priors);
}

Value ClassicEvaluator::Evaluate(const Position& pos,
                                 std::span<const Move> moves,
                                 std::span<float> priors) const {
  if (!moves.empty()) Priors(pos, moves, priors);
  return LeafValue(pos);
}

}  // namespace wallgo::search
