// The exact endgame solver (docs/solver.md): proves the value of a position
// under perfect play, the result and the final score margin, and the set of
// optimal moves, or says that it could not within its budget.
//
// Two players: negamax alpha-beta with principal variation search on an
// integer value, its own transposition table of proven bounds, iterative
// deepening of the horizon and move ordering (table move, moves that end
// the game, killers, history, the static evaluation near the root). Each
// iteration bounds the value from below (the horizon lost for the root's
// mover) and from above (won); equal bounds are proven.
// Three or four players: max^n with the tie rule of MaxnPrefers below, a
// value proven only when no horizon position took part in its search.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/position.h"
#include "engine/regions.h"

namespace wallgo::search {

// What perfect play is worth to one player, ordered first by the result,
// then by the final score margin: 100 x (win share in twelfths: 12 sole win,
// 6 / 4 / 3 a draw shared by 2 / 3 / 4, 0 a loss) + margin (own cells minus
// the best other player's, -49..49).
struct PlayerValue {
  int share12 = 0;
  int margin = 0;
  int Utility() const { return 100 * share12 + margin; }
  static PlayerValue FromUtility(int utility);
};

// The utilities of a finished game for each player (ComputeResult), or of
// one whose regions `sheet` scores.
std::array<int, kMaxPlayers> FinishedUtilities(const Position& pos);
std::array<int, kMaxPlayers> FinishedUtilities(const ScoreSheet& sheet,
                                               int players);

// The max^n tie rule: the mover prefers the higher own utility; among equal
// ones, the lower sum of the other players' utilities (an indifferent player
// hurts the others: the paranoid reading), then the lexicographically lower
// vector of utilities in colour order. A total order, so the value does not
// depend on the order the moves are searched in.
bool MaxnPrefers(const std::array<int, kMaxPlayers>& a,
                 const std::array<int, kMaxPlayers>& b, int mover, int players);

struct SolverLimits {
  double seconds = 1.0;  // <= 0: no time limit
  // Count `seconds` in the calling thread's CPU time rather than wall time
  // (measurements on a shared machine).
  bool cpu_time = false;
  int64_t nodes = 0;  // 0: no node limit
  int hash_mb = 64;   // the transposition table's memory
  // Polled every few thousand nodes; true stops the search (unproven).
  std::function<bool()> should_stop;
  // Two players: bound the value first with the settled-region reduction
  // (docs/solver.md). Off by default: it proves what the full search proves,
  // but on a sample of two-player endgames not sooner (one fewer in a second,
  // 10% more time on those both prove).
  bool settled_reduction = false;
  // Two players: a position at the horizon is worth sound bounds on its
  // value from its regions (docs/solver.md, "Bounds at the horizon") rather
  // than a loss or a win beyond every result. Off: the old rule, for
  // comparisons.
  bool horizon_bounds = true;
};

struct SolveResult;
// Called after each completed iteration of the horizon (and not after the
// last, whose result Solve returns).
using SolveProgress = std::function<void(const SolveResult&)>;

// Whether the board splits into independent regions, and why not.
struct RegionSplit {
  int settled_regions = 0;    // regions with stones of one colour only
  int contested_regions = 0;  // regions with stones of several colours
  int contested_cells = 0;
  bool independent = false;  // see docs/solver.md, "Regions"
  std::string reason;        // why not, when not
};
RegionSplit AnalyzeRegions(const Position& pos);

// What an unproven two-player search did prove of the mover's value: at
// least `least`, at most `most` (a result is proven when both say the same
// result, a win by 12 to 14, say).
struct ValueRange {
  PlayerValue least;
  PlayerValue most;
  bool result_known() const { return least.share12 == most.share12; }
};

struct SolveResult {
  bool game_over = false;  // nothing to solve: `value` is the final one
  bool proven = false;
  // Unproven, two players: the range proven so far (none before the first
  // iteration ends).
  std::optional<ValueRange> range;
  // Proven values (or, when unproven, those of the last horizon searched)
  // per colour index.
  std::array<int, kMaxPlayers> utility{};
  // Every optimal move when `all_optimal_known`, else those proven so far
  // (at least one when `proven`).
  std::vector<Move> optimal;
  bool all_optimal_known = false;
  std::vector<Move> pv;  // an optimal line (to the end when proven)
  // Unproven, two players: root moves proven worse than the range's least
  // value (the table's bound through each falls short of it), while the
  // line's first move reaches that least value for sure.
  std::vector<Move> refuted;
  int depth = 0;  // the horizon of the last iteration, in plies
  int64_t nodes = 0;
  double seconds = 0;
  RegionSplit regions;

  PlayerValue mover_value(const Position& pos) const {
    return PlayerValue::FromUtility(utility[Index(pos.to_move())]);
  }
};

namespace solver_internal {
class Table;
}

// The solver's table kept from one Solve to the next: the engine keeps one
// through a game, so that the bounds one move's search proved are there for
// the positions that follow (docs/solver.md, "In the engine"). Its entries
// are facts about positions under one set of rules; Solve empties it when
// the rules change.
class SolverMemory {
 public:
  explicit SolverMemory(int hash_mb);
  ~SolverMemory();
  SolverMemory(const SolverMemory&) = delete;
  SolverMemory& operator=(const SolverMemory&) = delete;

 private:
  friend SolveResult Solve(const Position& pos, const SolverLimits& limits,
                           SolverMemory& memory,
                           const SolveProgress& on_iteration);
  std::unique_ptr<solver_internal::Table> table_;
  std::optional<Rules> rules_;  // those its entries hold under
};

// Solves `pos` within `limits`. Never reports an unproven value as proven.
// Its own table of limits.hash_mb, or `memory`'s (limits.hash_mb unused).
SolveResult Solve(const Position& pos, const SolverLimits& limits,
                  const SolveProgress& on_iteration = {});
SolveResult Solve(const Position& pos, const SolverLimits& limits,
                  SolverMemory& memory, const SolveProgress& on_iteration = {});

// "win", "draw" or "loss" for a share in twelfths.
std::string ResultWord(int share12);

}  // namespace wallgo::search
