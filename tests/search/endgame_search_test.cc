// The graph search with the exact solver in front (EndgameSearcher): near
// the end of seeded random games it plays a proven optimal move where the
// graph search alone at few playouts does not, reports the root proven,
// keeps to its time and to a stop request, stays deterministic at fixed
// playouts, and with no share is the graph search alone.
#include "search/endgame_search.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "gtest/gtest.h"
#include "search/levels.h"
#include "search/mcts.h"
#include "tests/engine/test_support.h"

namespace wallgo::search {
namespace {

using SteadyClock = std::chrono::steady_clock;

SearchOptions Options(int64_t visits, double solver_share) {
  SearchOptions o = ClassicProfile();
  o.visits = visits;
  o.hash_mb = 16;
  o.seed = 5;
  o.solver_share = solver_share;
  return o;
}

std::unique_ptr<EndgameSearcher> Endgame(const SearchOptions& o) {
  return std::make_unique<EndgameSearcher>(std::make_unique<MctsSearcher>(o), o,
                                           0);
}

bool Contains(const std::vector<Move>& moves, Move m) {
  return std::find(moves.begin(), moves.end(), m) != moves.end();
}

// Positions `min_back`..`max_back` plies before the end of seeded random
// games of `rules` that NearTheEnd accepts, with what `proved` says of them.
std::vector<Position> NearEndPositions(const Rules& rules, uint64_t seed,
                                       int games, int min_back, int max_back) {
  std::mt19937_64 rng(seed);
  std::vector<Position> out;
  for (int game = 0; game < games; ++game) {
    std::vector<Position> line;
    testing::PlayRandomGame(rules, rng, 300,
                            [&](const Position& p) { line.push_back(p); });
    for (int back = min_back; back <= max_back; ++back) {
      if (back >= static_cast<int>(line.size())) break;
      const Position& pos = line[line.size() - 1 - back];
      if (NearTheEnd(pos)) out.push_back(pos);
    }
  }
  return out;
}

// The solver's answer within what EndgameSearcher gives it at `o`.
SolveResult SolveWithin(const Position& pos, const SearchOptions& o) {
  return Solve(pos, SolverBudget(o, Limits{}, pos, o.visits));
}

void ExpectProvenInfo(const Position& pos, const SolveResult& proof,
                      const SearchResult& r) {
  const PlayerValue v = proof.mover_value(pos);
  EXPECT_TRUE(r.info.solved);
  EXPECT_TRUE(r.info.exact);
  EXPECT_DOUBLE_EQ(r.info.root_winrate, v.share12 / 12.0);
  EXPECT_DOUBLE_EQ(r.info.root_score_margin, v.margin);
  ASSERT_FALSE(r.info.candidates.empty());
  EXPECT_EQ(r.info.candidates.front().move, r.best);
  EXPECT_DOUBLE_EQ(r.info.candidates.front().score_margin, v.margin);
}

// At 24 playouts the graph search alone misses the optimal move of some of
// these positions; with the solver's share of the same search (24 x 20 solver
// nodes) the engine plays an optimal one and says the root is proven, in its
// reports as in its answer.
TEST(EndgameSearchTest, PlaysAProvenOptimalMoveWhereTheGraphSearchMissesIt) {
  const SearchOptions alone = Options(24, 0);
  const SearchOptions solving = Options(24, 1);
  int missed = 0, proven = 0;
  for (const Position& pos :
       NearEndPositions(Rules::Default(2), 11, 60, 2, 4)) {
    const SolveResult proof = SolveWithin(pos, solving);
    if (!proof.proven || !proof.all_optimal_known) continue;
    ++proven;
    const SearchResult graph =
        MctsSearcher(alone).Search(pos, Limits{}, nullptr, 0);
    SearchInfo last_report;
    const SearchResult r = Endgame(solving)->Search(
        pos, Limits{}, [&](const SearchInfo& i) { last_report = i; }, 0);
    EXPECT_TRUE(Contains(proof.optimal, r.best)) << PositionString(pos);
    ExpectProvenInfo(pos, proof, r);
    EXPECT_TRUE(last_report.solved && last_report.exact);
    if (!Contains(proof.optimal, graph.best)) ++missed;
  }
  EXPECT_GE(proven, 10);
  EXPECT_GE(missed, 1) << "the graph search alone found every optimal move";
}

// A fight of 35 contested cells, five plies before the end of a sampled
// game (tests/data/perfect-play-set.jsonl): within the solver's reach (35k
// nodes), where the graph search alone gives up 3 points with g4g6s, as the
// engine did at 1 s a move when only 20 contested cells were tried. A
// board no wall has split yet is left to the graph search.
TEST(EndgameSearchTest, TriesContestsOfUpToFortyCells) {
  const Position pos = *ParsePosition(
      "players=2 setup=fourstone stay=always wall-limit=unlimited breakers=0 "
      "turn=blue red=f3,b4,f6,d7 blue=a2,c3,g4,c5 red-walls=c1e,f1e,e2e,a3e,"
      "b3n,b3e,f3n,f3e,a4e,e4e,b5n,b5e,c5n,c5e,e5e,a6e,b6n,c6e,e6n,e6e,f6e,"
      "d7e blue-walls=a1n,a1e,c1n,d1n,b2n,b2e,d2e,f2e,c3e,d3e,e3n,e3e,g3n,"
      "c4n,c4e,d4e,e4n,f4e,d5n,e5n,f5e");
  EXPECT_EQ(AnalyzeRegions(pos).contested_cells, 35);
  ASSERT_TRUE(NearTheEnd(pos));
  const SearchOptions alone = Options(2000, 0);
  const SearchOptions solving = Options(2000, 1);
  const SolveResult proof = SolveWithin(pos, solving);
  ASSERT_TRUE(proof.proven);
  ASSERT_EQ(proof.optimal, std::vector<Move>{*ParseMove("c3c4w")});
  const SearchResult graph =
      MctsSearcher(alone).Search(pos, Limits{}, nullptr, 0);
  EXPECT_NE(graph.best, proof.optimal.front()) << MoveName(graph.best);
  const SearchResult r = Endgame(solving)->Search(pos, Limits{}, nullptr, 0);
  EXPECT_EQ(r.best, proof.optimal.front()) << MoveName(r.best);
  ExpectProvenInfo(pos, proof, r);

  Position opening = *Position::Start(Rules::Default(2));
  for (const char* stone : {"c3", "e3", "c5", "e5"}) {
    opening.Play(*ParseMove(stone));
  }
  ASSERT_FALSE(opening.in_setup());
  EXPECT_GT(AnalyzeRegions(opening).contested_cells, kSolverMaxContestedCells);
  EXPECT_FALSE(NearTheEnd(opening));
}

// Three and four players (max^n, with wall breakers): proven positions near
// the end are played optimally and reported proven.
TEST(EndgameSearchTest, ThreeAndFourPlayersPlayProvenMoves) {
  for (int players : {3, 4}) {
    const SearchOptions solving = Options(100, 1);
    int proven = 0;
    for (const Position& pos :
         NearEndPositions(Rules::Default(players), 17, 40, 1, 3)) {
      const SolveResult proof = SolveWithin(pos, solving);
      if (!proof.proven) continue;
      ++proven;
      const SearchResult r =
          Endgame(solving)->Search(pos, Limits{}, nullptr, 0);
      EXPECT_TRUE(Contains(proof.optimal, r.best)) << PositionString(pos);
      ExpectProvenInfo(pos, proof, r);
    }
    EXPECT_GE(proven, 5) << players << " players";
  }
}

// A position near the end that the solver does not prove at once: the
// first of the sampled ones it leaves unproven within 2,000 nodes.
Position HardNearEnd() {
  SearchOptions tight = Options(100, 1);
  for (const Position& pos :
       NearEndPositions(Rules::Default(2), 23, 60, 4, 12)) {
    if (!SolveWithin(pos, tight).proven) return pos;
  }
  ADD_FAILURE() << "no unproven position near the end";
  return testing::StartOf(Rules::Default(2));
}

// Where the solver proves the result within its share but not the margin,
// the root is reported solved (its win rate the result's), not exact, its
// margin within the proven range, in the reports as in the answer.
TEST(EndgameSearchTest, ReportsAProvenResultWhoseMarginIsOpen) {
  const SearchOptions o = Options(200, 1);
  int checked = 0;
  for (const Position& pos :
       NearEndPositions(Rules::Default(2), 29, 40, 4, 10)) {
    const SolveResult proof = SolveWithin(pos, o);
    if (proof.proven || !proof.range || !proof.range->result_known()) continue;
    SCOPED_TRACE(PositionString(pos));
    const ValueRange range = *proof.range;
    int reports = 0;
    const SearchResult r = Endgame(o)->Search(
        pos, Limits{},
        [&](const SearchInfo& info) {
          if (info.candidates.empty()) return;  // the solver's own reports
          ++reports;
          EXPECT_TRUE(info.solved);
        },
        1e-9);
    EXPECT_GT(reports, 0);
    EXPECT_TRUE(r.info.solved);
    EXPECT_FALSE(r.info.exact);
    EXPECT_DOUBLE_EQ(r.info.root_winrate, range.least.share12 / 12.0);
    EXPECT_GE(r.info.root_score_margin, range.least.margin);
    EXPECT_LE(r.info.root_score_margin, range.most.margin);
    if (++checked == 3) break;
  }
  EXPECT_EQ(checked, 3) << "too few positions whose result alone is proven";
}

// Where the solver's unproven search refuted the graph search's favourite
// (proved it worse than the least value of the range), the engine plays the
// solver's line instead; it never plays a refuted move.
TEST(EndgameSearchTest, NeverPlaysAMoveTheSolverRefuted) {
  const SearchOptions o = Options(40, 1);
  int acted = 0, checked = 0;
  for (const Position& pos :
       NearEndPositions(Rules::Default(2), 41, 60, 3, 10)) {
    const SolveResult proof = SolveWithin(pos, o);
    if (proof.proven || proof.refuted.empty()) continue;
    SCOPED_TRACE(PositionString(pos));
    const SearchResult alone =
        MctsSearcher(o).Search(pos, Limits{}, nullptr, 0);
    const SearchResult r = Endgame(o)->Search(pos, Limits{}, nullptr, 0);
    EXPECT_FALSE(Contains(proof.refuted, r.best)) << MoveName(r.best);
    ASSERT_FALSE(r.info.candidates.empty());
    EXPECT_EQ(r.info.candidates.front().move, r.best);
    if (Contains(proof.refuted, alone.best)) {
      EXPECT_EQ(r.best, proof.pv.front());
      ++acted;
    }
    ++checked;
  }
  EXPECT_GE(checked, 5);
  EXPECT_GT(acted, 0) << "the graph search's favourite was never refuted";
}

Candidate CandidateOf(Move m) {
  Candidate c;
  c.move = m;
  return c;
}

// The solver's line comes first and the refuted moves last; a favourite
// that is not refuted keeps its place.
TEST(EndgameSearchTest, AvoidRefutedPutsTheSolversLineFirst) {
  const Move a = Move::Turn(0, 1, Side::kNorth),
             b = Move::Turn(0, 1, Side::kEast),
             c = Move::Turn(0, 7, Side::kEast),
             d = Move::Turn(0, 0, Side::kEast);
  SolveResult proof;
  proof.refuted = {a, c};
  proof.pv = {d, a};
  proof.range = ValueRange{{12, 3}, {12, 5}};
  SearchInfo info;
  for (const Move m : {a, b, c}) info.candidates.push_back(CandidateOf(m));
  ASSERT_TRUE(AvoidRefuted(proof, info));
  std::vector<Move> order;
  for (const Candidate& x : info.candidates) order.push_back(x.move);
  EXPECT_EQ(order, (std::vector<Move>{d, b, a, c}));
  EXPECT_EQ(info.candidates.front().pv, proof.pv);
  // Never searched by the graph search: it reaches the range's least value.
  EXPECT_DOUBLE_EQ(info.candidates.front().winrate, 1.0);
  EXPECT_DOUBLE_EQ(info.candidates.front().score_margin, 3.0);
  // Now d, which is not refuted, leads: nothing moves.
  EXPECT_FALSE(AvoidRefuted(proof, info));
  SearchInfo kept;
  for (const Move m : {b, a}) kept.candidates.push_back(CandidateOf(m));
  EXPECT_FALSE(AvoidRefuted(proof, kept));
  EXPECT_EQ(kept.candidates.front().move, b);
}

TEST(EndgameSearchTest, FixedPlayoutsGiveTheSameSearchEveryTime) {
  const Position pos = HardNearEnd();
  const SearchOptions o = Options(300, 0.5);
  const SearchResult a = Endgame(o)->Search(pos, Limits{}, nullptr, 0);
  const SearchResult b = Endgame(o)->Search(pos, Limits{}, nullptr, 0);
  EXPECT_EQ(a.best, b.best);
  ASSERT_EQ(a.info.candidates.size(), b.info.candidates.size());
  for (size_t i = 0; i < a.info.candidates.size(); ++i) {
    EXPECT_EQ(a.info.candidates[i].move, b.info.candidates[i].move);
    EXPECT_EQ(a.info.candidates[i].visits, b.info.candidates[i].visits);
  }
  EXPECT_EQ(a.info.total_visits, 300);
}

TEST(EndgameSearchTest, NoShareIsTheGraphSearchAlone) {
  const Position pos = HardNearEnd();
  const SearchOptions o = Options(300, 0);
  MctsSearcher alone(o);
  const SearchResult a = alone.Search(pos, Limits{}, nullptr, 0);
  const SearchResult b = Endgame(o)->Search(pos, Limits{}, nullptr, 0);
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.info.total_visits, b.info.total_visits);
  EXPECT_EQ(a.info.solved, b.info.solved);
}

// A fight of 31 cells ten plies before the end of a sampled game
// (tests/data/perfect-play-set.jsonl) that the solver does not prove in 3 s.
Position UnprovenInSeconds() {
  return *ParsePosition(
      "players=2 setup=fourstone stay=always wall-limit=unlimited breakers=0 "
      "turn=blue red=c1,e3,c6,g7 blue=d3,g3,e5,b6 red-walls=b1e,e1n,a2e,c2e,"
      "e2e,a3n,c3n,c3e,e3n,e3e,f3n,b4n,d4e,d5e,b6e,c6e,g6n blue-walls=a1e,"
      "b1n,d1e,b2e,d2n,f2n,b3n,g3n,e4n,e4e,e5n,f5n,d6e,e6e,f6n,e7e");
}

// The solver's time comes out of the move time: with most of it given to
// the solver first (one thread), or the solver beside the graph search for
// the whole move (two), the move still takes the move time, not more.
TEST(EndgameSearchTest, KeepsToTheMoveTime) {
  const Position pos = UnprovenInSeconds();
  ASSERT_TRUE(NearTheEnd(pos));
  for (int threads : {1, 2}) {
    SearchOptions o = Options(0, 0.9);
    o.threads = threads;
    ASSERT_EQ(SolvesBeside(o, Limits{}, 0), threads == 2);
    o.movetime_s = 0.5;
    // A graph that fills ends the move early (a recycling would run past
    // its time): 16 MB fill in about 0.4 s on an idle machine, 64 MB in 1.6.
    o.hash_mb = 64;
    auto searcher = Endgame(o);
    const auto start = SteadyClock::now();
    const SearchResult r = searcher->Search(pos, Limits{}, nullptr, 0);
    const double took =
        std::chrono::duration<double>(SteadyClock::now() - start).count();
    // Solver and graph search together: 0.485 s; the slack absorbs a
    // loaded machine's scheduling, and is below the 0.45 s that a solver
    // phase on top of the move time would add.
    EXPECT_LE(took, 0.5 + 0.25) << threads;
    EXPECT_GE(took, 0.4) << threads;  // unproven: the whole move time
    EXPECT_FALSE(r.info.exact) << threads;
    EXPECT_TRUE(CheckMove(pos, pos.to_move(), r.best).ok());
  }
}

// Beside the graph search (two threads at a share of a half) or first (one
// thread), the solver's proof ends the search. Two plies before the end of a
// game of the perfect-play set (tests/data), red loses by 8 at best: a
// proof of 2.5 million nodes, far beyond the graph search, which alone plays
// b1c1n (a loss by 9) after 3 s and proves nothing.
TEST(EndgameSearchTest, ThreadedProofEndsTheSearch) {
  const Position pos = *ParsePosition(
      "players=2 setup=empty stay=always wall-limit=unlimited breakers=0 "
      "turn=red red=b1,e2,b4,e7 blue=g2,c3,f3,f5 red-walls=a1e,b1n,c1e,d1n,"
      "d1e,e1n,b2n,c2e,d2e,e2e,a3n,c3n,d3e,b4e,d4n,f4n,f4e,a5e,b5n,b5e,d5n,"
      "f5e,b6e,e6e,d7e blue-walls=e1e,g1n,a2n,a2e,b2e,c2n,d2n,f2n,b3n,c3e,"
      "e3n,e3e,f3e,a4n,c4n,c4e,e5n,e5e,f5n,a6n,b6n,c6e,f6n,f6e,c7e");
  for (int threads : {2, 1}) {
    // A share of a minute: a sanitizer build's solver needs seconds.
    SearchOptions o = Options(0, 0.5);
    o.threads = threads;
    ASSERT_EQ(SolvesBeside(o, Limits{}, 0), threads == 2);
    o.hash_mb = 256;
    o.movetime_s = 120;
    o.movetime_set = true;
    const SearchResult r = Endgame(o)->Search(pos, Limits{}, nullptr, 0);
    EXPECT_TRUE(r.info.solved) << threads;
    EXPECT_TRUE(r.info.exact) << threads;
    EXPECT_EQ(r.info.root_score_margin, -8) << threads;
    EXPECT_TRUE(r.best == *ParseMove("e7d6n") || r.best == *ParseMove("e7e6w"))
        << threads << " " << MoveName(r.best);
    EXPECT_LT(r.info.elapsed_s, 60) << threads;  // not the 120 s
  }
}

// The solver runs beside the graph search only where the graph search
// keeps at least the thread-time that the share first would leave it.
TEST(EndgameSearchTest, SolvesBesideFromFiveThreadsAtTheDefaultShare) {
  SearchOptions o = ClassicProfile();
  ASSERT_DOUBLE_EQ(o.solver_share, 0.2);
  for (int threads : {1, 2, 3, 4, 5, 16}) {
    o.threads = threads;
    EXPECT_EQ(SolvesBeside(o, Limits{}, 0), threads >= 5) << threads;
  }
  EXPECT_FALSE(SolvesBeside(o, Limits{}, 1000));  // a playout cap
  Limits infinite;
  infinite.infinite = true;
  EXPECT_FALSE(SolvesBeside(o, infinite, 0));
  o.solver_share = 0;
  EXPECT_FALSE(SolvesBeside(o, Limits{}, 0));
  o.threads = 2;
  o.solver_share = 0.5;
  EXPECT_TRUE(SolvesBeside(o, Limits{}, 0));
  o.solver_share = 0.45;
  EXPECT_FALSE(SolvesBeside(o, Limits{}, 0));
}

// Analysis without an end, stopped while the solver thinks: by a report's
// callback (as the protocol stops it) and from another thread. Either way
// the search returns with a legal move; a lost stop would never return.
TEST(EndgameSearchTest, ThreadedAnalysisStopsDuringTheSolver) {
  const Position pos = HardNearEnd();
  Limits infinite;
  infinite.infinite = true;
  for (bool from_callback : {true, false}) {
    auto searcher = Endgame(Options(0, 1));
    auto run = std::async(std::launch::async, [&] {
      return searcher->Search(
          pos, infinite,
          [&](const SearchInfo&) {
            if (from_callback) searcher->Stop();
          },
          0.01);
    });
    if (!from_callback) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      searcher->Stop();
    }
    ASSERT_EQ(run.wait_for(std::chrono::seconds(20)), std::future_status::ready)
        << "the stop request was lost";
    const SearchResult r = run.get();
    EXPECT_TRUE(CheckMove(pos, pos.to_move(), r.best).ok());
  }
}

// The engine's own searcher (MakeSearcher) at full strength goes through
// the solver; a weaker level that chooses at random does not: on a position
// the solver proves and the graph search alone does not, only the first
// reports it proven.
TEST(EndgameSearchTest, FullStrengthUsesTheSolverAndLowLevelsDoNot) {
  const SearchOptions o = Options(200, 0.2);
  std::optional<Position> found;
  for (const Position& pos :
       NearEndPositions(Rules::Default(2), 11, 60, 2, 4)) {
    if (SolveWithin(pos, o).proven &&
        !MctsSearcher(o).Search(pos, Limits{}, nullptr, 0).info.exact) {
      found = pos;
      break;
    }
  }
  ASSERT_TRUE(found.has_value());
  SearchOptions level = o;
  level.level = 10;
  EXPECT_TRUE(
      MakeSearcher(level)->Search(*found, Limits{}, nullptr, 0).info.exact);
  level.level = 7;  // its own cap is above the 200 playouts
  EXPECT_FALSE(
      MakeSearcher(level)->Search(*found, Limits{}, nullptr, 0).info.exact);
}

// Under a wall limit the walls left bound the plies to the end, so a position
// with few of them is near the end however many cells are contested (the
// perfect-play set's 2p-wall-limit-20 game 1000004, 5 and 6 plies before
// its end: red and blue have 2 and 3 walls left, then 3 and 3).
TEST(EndgameSearchTest, FewWallsLeftAreNearTheEndWhateverTheCells) {
  const std::string five_walls =
      "players=2 setup=fourstone stay=always wall-limit=20 breakers=0 "
      "turn=blue red=c3,d3,g5,c6 blue=a2,g4,b5,d6 red-walls=b2e,d2n,d2e,f2n,"
      "a3e,c3n,c3e,d3n,e3n,e4n,f4n,c5n,d5e,e5e,g5n,b6e,d6e,a7e blue-walls="
      "b1n,d1n,e1n,a2e,c2e,e2n,f2e,e3e,b4n,c4n,c4e,f4e,d5n,a6e,c6e,d6n,e6e";
  const std::string six_walls =
      "players=2 setup=fourstone stay=always wall-limit=20 breakers=0 "
      "turn=red red=b2,d3,g5,c6 blue=a2,g4,b5,d6 red-walls=b2e,d2n,d2e,f2n,"
      "a3e,c3e,d3n,e3n,e4n,f4n,c5n,d5e,e5e,g5n,b6e,d6e,a7e blue-walls=b1n,"
      "d1n,e1n,a2e,c2e,e2n,f2e,e3e,b4n,c4n,c4e,f4e,d5n,a6e,c6e,d6n,e6e";
  std::string unlimited = five_walls;
  unlimited.replace(unlimited.find("wall-limit=20"), 13,
                    "wall-limit=unlimited");
  for (const std::string& text : {five_walls, six_walls, unlimited}) {
    const Position pos = *ParsePosition(text);
    EXPECT_GT(AnalyzeRegions(pos).contested_cells, kSolverMaxContestedCells);
    EXPECT_EQ(NearTheEnd(pos), text == five_walls) << text;
  }
  const Position five = *ParsePosition(five_walls);
  EXPECT_EQ(five.walls_left(Colour::kRed) + five.walls_left(Colour::kBlue),
            kSolverMaxWallsLeft);
}

}  // namespace
}  // namespace wallgo::search
