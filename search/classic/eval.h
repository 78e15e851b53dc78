// Static evaluation of Wall Go positions by reachability (docs/eval.md,
// "The evaluation"): every player's stones spread through empty cells and
// unwalled edges, a turn (up to two steps) at a time, and each cell of a
// contested region goes to whoever can get there first. Regions already owned
// count exactly. Used at every MCTS leaf and by the fixed-depth players.
#pragma once

#include <array>
#include <cstdint>

#include "engine/position.h"

namespace wallgo::search {

// A static estimate of a position for every player.
struct Evaluation {
  // Expected final score (cells) of each player.
  std::array<float, kMaxPlayers> score{};
  // Estimated win probability of each player, summing to 1 over the players
  // in the game.
  std::array<float, kMaxPlayers> win{};
};

// Reachability evaluation: cells each player reaches first, counted in turns
// (a turn = up to two steps through empty cells and unwalled edges; other
// stones block), owned regions counted exactly. Exact for finished games
// (score = ComputeScores, win = 1 for the sole winner, shared for a draw).
Evaluation Evaluate(const Position& pos);
// The same for a position its caller knows is not over (the search asked
// the rules once, at its leaf): the rules are not asked again.
Evaluation EvaluateRunning(const Position& pos);

// The mover's head start, in cells, fitted to self-play results together
// with WinScale (tools/bench/eval_calibrate.cc).
inline constexpr float kTempoCells = 0.75f;

// Knobs of the evaluation, for tuning matches; Evaluate uses the defaults.
struct EvalOptions {
  // The player to move's share of a cell that it and others reach in their
  // first turn (it moves now). 0.5 splits such cells evenly with one other
  // player, like ties of later turns; 1 hands them all to the mover.
  float first_turn_share = 0.5f;
  float tempo_cells = kTempoCells;  // added to the mover's estimate
};

// The parts Evaluate is built from, for the players and the tests.
struct Territory {
  std::array<float, kMaxPlayers> score{};  // owned cells + cells reached first
  int contested_cells = 0;  // cells of regions holding several colours
  bool finished = false;    // the game is over (IsGameOver)
};
// Owned regions exactly; in contested regions a cell reached in the fewest
// turns by one player is that player's, a cell reached in the same turn by
// several is shared (see EvalOptions), and a cell nobody reaches counts for
// nobody. Stones count for their owner. The player to move gets
// `options.tempo_cells` on top while the game is not finished. During setup
// every region counts as contested.
Territory EstimateTerritory(const Position& pos,
                            const EvalOptions& options = {});

// Each cell's expected final owner: share[cell][p] for the players in the
// game and share[cell][kMaxPlayers] for nobody, summing to 1 per cell. The
// cell-by-cell reading of EstimateTerritory: owned regions go wholly to their
// owner, a contested cell to whoever reaches it first (ties shared as the
// score shares them, stones to their owner), cells nobody reaches and regions
// without stones to nobody. Exact for finished games (ComputeScores' owners).
struct Ownership {
  std::array<std::array<float, kMaxPlayers + 1>, kNumCells> share{};
};
Ownership EstimateOwnership(const Position& pos,
                            const EvalOptions& options = {});

// The logistic scale (cells) that turns score differences into win
// probabilities when `contested_cells` cells are still in play.
float WinScale(int contested_cells);

// Win probabilities from estimated scores: a softmax of score / scale over the
// `players` players in the game (for two players, the logistic of the margin).
std::array<float, kMaxPlayers> WinFromScores(
    const std::array<float, kMaxPlayers>& score, int players, float scale);

// `colour`'s score minus the best score among the other players.
float ScoreMargin(const std::array<float, kMaxPlayers>& score, int players,
                  Colour colour);

// Value of a finished game on top of any score margin, so that a won game
// outranks every unfinished estimate (margins stay within +-49 cells).
inline constexpr float kWinValue = 1000.0f;

// What a player wants to maximise, from `colour`'s side: the score margin of
// EstimateTerritory, plus kWinValue for a finished game `colour` wins alone,
// minus it for a finished game `colour` does not win (shared: neither).
float OutcomeValue(const Position& pos, Colour colour,
                   const EvalOptions& options = {});

}  // namespace wallgo::search
