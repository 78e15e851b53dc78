#include "search/solver/solver.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "engine/movegen.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "search/solver/solver_table.h"

namespace wallgo::search {

PlayerValue PlayerValue::FromUtility(int utility) {
  // The margin lies within -49..49, so the nearest hundred is the share.
  const int share12 = static_cast<int>(std::lround(utility / 100.0));
  return {share12, utility - 100 * share12};
}

std::array<int, kMaxPlayers> FinishedUtilities(const Position& pos) {
  return FinishedUtilities(ComputeScores(pos), pos.num_players());
}

std::array<int, kMaxPlayers> FinishedUtilities(const ScoreSheet& sheet,
                                               int players) {
  Result result;
  result.players = players;
  result.sheet = sheet;
  result.winners = RankWinners(sheet, (1u << players) - 1);
  const int share12 = 12 / std::max(1, std::popcount(result.winners));
  std::array<int, kMaxPlayers> utility{};
  for (int p = 0; p < players; ++p) {
    utility[p] = (result.won(p) ? 100 * share12 : 0) + result.margin(p);
  }
  return utility;
}

bool MaxnPrefers(const std::array<int, kMaxPlayers>& a,
                 const std::array<int, kMaxPlayers>& b, int mover,
                 int players) {
  if (a[mover] != b[mover]) return a[mover] > b[mover];
  int others_a = 0, others_b = 0;
  for (int p = 0; p < players; ++p) {
    if (p == mover) continue;
    others_a += a[p];
    others_b += b[p];
  }
  if (others_a != others_b) return others_a < others_b;
  return std::lexicographical_compare(a.begin(), a.begin() + players, b.begin(),
                                      b.begin() + players);
}

RegionSplit AnalyzeRegions(const Position& pos) {
  RegionSplit split;
  const Regions regions = FindRegions(pos.walls());
  for (int i = 0; i < regions.count; ++i) {
    const int owner = RegionOwner(pos, regions.masks[i]);
    if (owner >= 0) ++split.settled_regions;
    if (owner == -2) {
      ++split.contested_regions;
      split.contested_cells += PopCount(regions.masks[i]);
    }
  }
  const Rules& rules = pos.rules();
  bool breaker_left = false;
  for (int p = 0; p < pos.num_players(); ++p) {
    breaker_left = breaker_left || pos.breakers_left(ColourAt(p)) > 0;
  }
  if (pos.in_setup()) {
    split.reason = "setup phase: stones still to place";
  } else if (breaker_left) {
    split.reason = "a wall breaker left can reopen a region";
  } else if (rules.wall_limit != kUnlimitedWalls) {
    split.reason = "a wall limit can leave a player without tempo moves";
  } else if (rules.stay == StayRule::kMobile) {
    split.reason = "stay=mobile can leave a player without tempo moves";
  } else {
    split.independent = true;
  }
  return split;
}

std::string ResultWord(int share12) {
  if (share12 >= 12) return "win";
  return share12 > 0 ? "draw" : "loss";
}

namespace solver_internal {

std::vector<Move> TableLine(const Table& table, const Position& pos, Move first,
                            int length) {
  std::vector<Move> line;
  Position p = pos;
  Move next = first;
  while (static_cast<int>(line.size()) < length && !IsGameOver(p)) {
    MoveList moves;
    GenerateMoves(p, moves);
    if (std::find(moves.begin(), moves.end(), next) == moves.end()) break;
    line.push_back(next);
    p.Play(next);
    const TableEntry* e = table.Probe(SolverKey(p));
    if (e == nullptr) break;
    next = e->move;
  }
  return line;
}

}  // namespace solver_internal

SolverMemory::SolverMemory(int hash_mb)
    : table_(std::make_unique<solver_internal::Table>(hash_mb)) {}

SolverMemory::~SolverMemory() = default;

SolveResult Solve(const Position& pos, const SolverLimits& limits,
                  const SolveProgress& on_iteration) {
  SolverMemory memory(limits.hash_mb);
  return Solve(pos, limits, memory, on_iteration);
}

SolveResult Solve(const Position& pos, const SolverLimits& limits,
                  SolverMemory& memory, const SolveProgress& on_iteration) {
  using namespace solver_internal;
  Budget budget(limits);
  SolveResult result;
  if (memory.rules_ != pos.rules()) {
    if (memory.rules_) memory.table_->Clear();
    memory.rules_ = pos.rules();
  }
  if (IsGameOver(pos)) {
    result.game_over = result.proven = result.all_optimal_known = true;
    result.utility = FinishedUtilities(pos);
  } else {
    Table& table = *memory.table_;
    result = pos.num_players() == 2
                 ? SolveTwoPlayer(pos, table, budget, on_iteration)
                 : SolveMaxn(pos, table, budget, on_iteration);
  }
  result.regions = AnalyzeRegions(pos);
  result.nodes = budget.nodes();
  result.seconds = budget.Spent();
  return result;
}

}  // namespace wallgo::search
