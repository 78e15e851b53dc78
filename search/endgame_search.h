// The graph search with the exact endgame solver (search/solver) in front of
// it (docs/solver.md, "In the engine"): near the end of the game the solver
// gets a share of the move's budget first; when it proves the root, the
// engine plays an optimal move (the graph search's favourite among them) and
// reports the root as proven (SearchInfo::solved and exact).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "engine/position.h"
#include "search/search.h"
#include "search/solver/solver.h"

namespace wallgo::search {

// A position whose contested regions (those holding stones of several
// colours) have at most this many cells in all is near enough to the end
// to try the solver: two to ten plies before the end of sampled 2-player
// games they hold 12 to 47 cells, and the solver proves some of every size
// (docs/solver.md, "In the engine"). A board not yet split by walls (49
// cells contested) is left to the graph search.
inline constexpr int kSolverMaxContestedCells = 40;
// Under a wall limit every turn but a break builds a wall, so the walls the
// players have left in all bound the plies to the end, however many cells
// are contested: positions with at most this many are near enough too (the
// solver proves those of the perfect-play set's wall-limit games in 0.2 s of
// CPU or less, with 19 to 47 contested cells: docs/perfect-play.md).
inline constexpr int kSolverMaxWallsLeft = 5;
// A search with a playout cap gives the solver this many nodes per playout
// of its share, instead of a time (the solver's nodes cost about a
// twentieth of a playout with the network), so that it stays deterministic.
inline constexpr int64_t kSolverNodesPerPlayout = 20;
// Analysis without a limit gives the solver this long before the graph
// search starts.
inline constexpr double kAnalysisSolverSeconds = 0.5;
// A share of less time than this is not tried: the solver rarely proves
// anything in a few milliseconds. At 0.1 s a move the default share is
// 20 ms, in which it proves a third of the positions the graph search
// misses 2 to 10 plies from the end (docs/perfect-play.md).
inline constexpr double kMinSolverSeconds = 0.015;
// After the solver fails to prove a position, the searcher's next near-end
// searches skip it: 1, then 2, then 4 at most, until it proves one (a long
// fight of tempo moves stays out of its reach for dozens of moves).
inline constexpr int kMaxSkippedSearches = 4;

// Whether `pos` is worth the solver's time (a cheap test: the contested
// cells, or the walls left under a wall limit; never in the setup phase, nor
// in a finished game, which has no contested cells).
bool NearTheEnd(const Position& pos);

// Whether the solver runs on a thread of its own beside the graph search
// for the whole search rather than first, for its share of the time: with a
// time budget (not a playout cap, nor analysis without limits), where the
// graph search's other threads keep at least the thread-time that the share
// first would leave it: threads - 1 >= threads * (1 - share), so from 5
// threads at the default share of 0.2. With 2 threads it cost games
// (docs/solver.md, "In the engine").
bool SolvesBeside(const SearchOptions& options, const Limits& limits,
                  int64_t playout_cap);

// What the solver may spend of a search with `options` and `limits`:
// options.solver_share of the planned time, or of `playout_cap` (0 = none)
// counted in nodes, which keeps a search of fixed playouts deterministic.
SolverLimits SolverBudget(const SearchOptions& options, const Limits& limits,
                          const Position& pos, int64_t playout_cap);

// Makes `info` (the graph search's, for `pos`) say what the proof says: the
// root proven, its win rate and margin exact, the optimal moves first (in
// the graph search's order; the proof's first optimal move when the graph
// search listed none of them) with the proven value.
void ApplyProof(const Position& pos, const SolveResult& proof,
                SearchInfo& info);

// Makes `info` say what an unproven solve's range proved where it knows the
// result: the root solved (its win rate that result's), its margin within
// the range, exact only where the range is one value; the moves are the
// graph search's.
void ApplyRange(const ValueRange& range, SearchInfo& info);

// Where the graph search's favourite is among the moves an unproven solve
// refuted (proven worse than the range's least value), puts the solve's
// line first, whose first move reaches that value for sure, and the refuted
// moves last; true when it did. Never a worse move: the line's move is
// worth at least what the refuted favourite falls short of.
bool AvoidRefuted(const SolveResult& proof, SearchInfo& info);

// The table the solver keeps through a game is this many times the one a
// single search of the first near-end move would get (within a quarter of
// the search's memory): it holds what several moves' searches proved.
inline constexpr int kKeptSolverTableFactor = 8;

// Wraps a graph search (levels 8..10, whose choice has no randomness).
// The solver has its share first and the graph search the rest, or it runs
// beside the graph search (SolvesBeside); a proof ends a timed search.
// Remembers between searches how many near-end searches to skip
// (kMaxSkippedSearches) and, with a time budget, the solver's table; Clear
// (a new game, a new position) forgets both.
class EndgameSearcher : public Searcher {
 public:
  // `playout_cap`: the level's cap on playouts (LevelConfig), 0 = none.
  EndgameSearcher(std::unique_ptr<Searcher> graph_search,
                  const SearchOptions& options, int64_t playout_cap);

  void SetOptions(const SearchOptions& options) override;
  void Clear() override;
  SearchResult Search(const Position& pos, const Limits& limits,
                      const InfoCallback& on_info,
                      double info_interval_s) override;
  void Stop() override;

 private:
  // The solver's phase; reports (an empty info) through `on_info` so that
  // the caller may stop it.
  SolveResult SolveFirst(const Position& pos, const Limits& limits,
                         const InfoCallback& on_info, double info_interval_s);
  // The search with the solver on its own thread beside the graph search.
  SearchResult SolveBeside(const Position& pos, const Limits& limits,
                           const InfoCallback& on_info, double info_interval_s);
  // The solver's table kept through the game, made for `budget` at first.
  SolverMemory& KeptMemory(const SolverLimits& budget);
  // Skips the next searches after a failed solve (not one stopped).
  void Back(bool proven);

  std::unique_ptr<Searcher> graph_search_;
  // The solver's table through a game (searches with a time budget only:
  // with a playout cap each search has its own, so that it repeats).
  std::unique_ptr<SolverMemory> solver_memory_;
  SearchOptions options_;
  int64_t playout_cap_;
  int skip_ = 0;     // near-end searches still to leave to the graph search
  int backoff_ = 0;  // how many the next failure skips
  std::atomic<bool> stop_{false};
};

}  // namespace wallgo::search
