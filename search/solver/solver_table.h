// The solver's own transposition table and its budget (time, nodes, stop).
// Internal to search/solver.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "engine/position.h"
#include "engine/regions.h"
#include "engine/zobrist.h"
#include "search/huge_pages.h"
#include "search/solver/solver.h"

namespace wallgo::search::solver_internal {

// A move no generator produces: "no table move".
inline constexpr Move kNoMove = Move::Resign();
inline constexpr int kMaxPly = 120;  // a 2-player game has at most 84 turns
// A 2-player draw's utility (share 6, margin 0): the two-player search's
// values are utilities less this.
inline constexpr int kDrawUtility = 600;

enum class EntryKind : uint8_t {
  kEmpty,
  kMoveOnly,  // an ordering hint from a search that met the horizon
  kBounds,    // two players: value[0] <= true value <= value[1] (mover's view)
  kExact,     // three or four players: the proven utilities
};

struct TableEntry {
  uint64_t key = 0;
  std::array<int16_t, kMaxPlayers> value{};
  Move move = kNoMove;
  EntryKind kind = EntryKind::kEmpty;
};

// One entry a slot; a new position always takes the slot (the old one's
// proof can be found again), the same position merges its bounds.
//
// Most of a search's time went into waiting for the probed slot's memory
// (docs/solver.md, "Its own transposition table"): the table lies in huge
// pages where the system gives them, and a search prefetches a slot before
// the work that precedes its probe.
class Table {
 public:
  explicit Table(int hash_mb) {
    const size_t bytes = static_cast<size_t>(std::max(1, hash_mb)) << 20;
    size_t entries = 1;
    while (entries * 2 * sizeof(TableEntry) <= bytes) entries *= 2;
    memory_ = AllocateHugePages<TableEntry>(entries);
    entries_ = std::span<TableEntry>(memory_.get(), entries);
    mask_ = entries - 1;
  }
  void Clear() { std::fill(entries_.begin(), entries_.end(), TableEntry{}); }
  const TableEntry* Probe(uint64_t key) const {
    const TableEntry& e = Slot(key);
    return e.key == key && e.kind != EntryKind::kEmpty ? &e : nullptr;
  }
  void Prefetch(uint64_t key) const { __builtin_prefetch(&Slot(key)); }
  TableEntry& Slot(uint64_t key) { return entries_[key & mask_]; }
  const TableEntry& Slot(uint64_t key) const { return entries_[key & mask_]; }

 private:
  std::unique_ptr<TableEntry[], HugePageFree> memory_;
  std::span<TableEntry> entries_;
  uint64_t mask_ = 0;
};

// The table's key. Without a wall limit, who built a wall changes nothing
// that is left of the game, so walls hash alike whoever built them and
// transpositions of the two players' walls meet in one entry.
inline uint64_t SolverKey(const Position& pos) {
  uint64_t key = pos.hash();
  if (pos.rules().wall_limit != kUnlimitedWalls) return key;
  const auto& keys = zobrist::kKeys.wall;
  for (int p = 1; p < pos.num_players(); ++p) {
    const WallMasks& w = pos.walls_of(ColourAt(p));
    for (Bitboard b = w.north; b; b = PopLowest(b)) {
      const int e = LowestCell(b) * 2;
      key ^= keys[p][e] ^ keys[0][e];
    }
    for (Bitboard b = w.east; b; b = PopLowest(b)) {
      const int e = LowestCell(b) * 2 + 1;
      key ^= keys[p][e] ^ keys[0][e];
    }
  }
  return key;
}

class Budget {
 public:
  explicit Budget(const SolverLimits& limits)
      : limits_(limits),
        start_(std::chrono::steady_clock::now()),
        start_cpu_(ThreadCpuSeconds()) {}
  // Counts a node; true once the search must stop (and from then on).
  bool Tick() {
    ++nodes_;
    if ((nodes_ & 1023) == 0 && !stopped_) Check();
    return stopped_;
  }
  bool stopped() const { return stopped_; }
  const SolverLimits& limits() const { return limits_; }
  int64_t nodes() const { return nodes_; }
  double Elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start_)
        .count();
  }
  // Seconds spent as the limits count them (wall or CPU time).
  double Spent() const {
    return limits_.cpu_time ? ThreadCpuSeconds() - start_cpu_ : Elapsed();
  }

 private:
  static double ThreadCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) +
           1e-9 * static_cast<double>(t.tv_nsec);
  }
  void Check() {
    stopped_ = (limits_.seconds > 0 && Spent() >= limits_.seconds) ||
               (limits_.nodes > 0 && nodes_ >= limits_.nodes) ||
               (limits_.should_stop && limits_.should_stop());
  }
  const SolverLimits& limits_;
  const std::chrono::steady_clock::time_point start_;
  const double start_cpu_;
  int64_t nodes_ = 0;
  bool stopped_ = false;
};

// Follows table moves from `pos` while they are legal and the game goes on.
std::vector<Move> TableLine(const Table& table, const Position& pos, Move first,
                            int length);

// Two players: the settled-region reduction of a bounding search
// (settled.cc, docs/solver.md). With `restrict_mover`, the mover keeps a
// few of its moves inside regions it owns (those that leave the region
// whole): kRestricted when that dropped any. Otherwise all of them give way
// to one pass (Move::Pass()): kPass, or kEnd when the opponent has no legal
// turn, and the pass then ends the search at BoundedUtilities. `moves` are
// the mover's legal moves. Any reduction makes the value only a bound.
enum class Reduction { kNone, kRestricted, kPass, kEnd };
Reduction ReduceSettledMoves(const Position& pos, bool restrict_mover,
                             std::vector<Move>& moves);

// The utilities of `pos` as if the game ended now, after `passer` passed
// `passes` times instead of moving in regions it owns: its score falls by
// the cells that many walls must have cut off its regions (with unlimited
// walls; with a wall limit, by nothing).
std::array<int, kMaxPlayers> BoundedUtilities(const Position& pos,
                                              Colour passer, int passes);

// Two players: sound bounds on the mover's value (utility minus a draw's)
// at the horizon, from the regions that no line of play can change
// (horizon.cc, docs/solver.md); nullopt where the argument does not hold
// (the setup phase, a wall breaker left, more players).
struct HorizonBounds {
  int lower = 0;
  int upper = 0;
};
std::optional<HorizonBounds> BoundsAtHorizon(const Position& pos);
// The same where `contested` holds every region of the position that
// holds stones of both players (FindContestedRegions).
std::optional<HorizonBounds> BoundsAtHorizon(const Position& pos,
                                             const ContestedRegions& contested);

SolveResult SolveTwoPlayer(const Position& pos, Table& table, Budget& budget,
                           const SolveProgress& on_iteration);
SolveResult SolveMaxn(const Position& pos, Table& table, Budget& budget,
                      const SolveProgress& on_iteration);

}  // namespace wallgo::search::solver_internal
