// The graph search end to end: solver positions near the end, determinism,
// memory bounds, tree reuse, time limits, stop, and threaded searches (the
// tests named Threaded* also run under ThreadSanitizer in CI).
#include "search/mcts.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "search/bench.h"
#include "search/classic/classic_evaluator.h"
#include "search/classic/eval.h"
#include "search/solver/solver.h"

namespace wallgo::search {
namespace {

Position Parse(absl::string_view text) {
  absl::StatusOr<Position> pos = ParsePosition(text);
  EXPECT_TRUE(pos.ok()) << pos.status();
  return *pos;
}

SearchOptions Options(int64_t visits, int threads = 1, int hash_mb = 16) {
  SearchOptions o = ClassicProfile();
  o.visits = visits;
  o.threads = threads;
  o.hash_mb = hash_mb;
  o.seed = 3;
  return o;
}

SearchResult SearchOnce(const Position& pos, const SearchOptions& o) {
  MctsSearcher searcher(o);
  return searcher.Search(pos, Limits{}, nullptr, 0);
}

bool Legal(const Position& pos, Move move) {
  return CheckMove(pos, pos.to_move(), move).ok();
}

// Walls north of row 3 except at d3: red's stones above (28 cells), blue's
// below (21). Red closes the gap from d4 and wins at once.
constexpr absl::string_view kRedClosesAndWins =
    "players=2 setup=empty turn=red red=c5,e5,b6,f6 blue=b2,f2,c1,e1 "
    "red-walls=a3n,b3n,c3n blue-walls=e3n,f3n,g3n";

// Walls north of row 4 except at d4: red above (21 cells), blue below (28).
// Blue threatens to close the gap and win; red must stop it.
constexpr absl::string_view kRedMustStopBlue =
    "players=2 setup=empty turn=red red=d6,b6,f6,c7 blue=c3,e2,b1,f1 "
    "red-walls=a4n,b4n,c4n blue-walls=e4n,f4n,g4n";

// True when the player to move after `move` can end the game at once as
// the sole winner.
bool AllowsImmediateLoss(const Position& pos, Move move) {
  Position next = pos;
  next.Play(move);
  if (IsGameOver(next)) return false;
  MoveList replies;
  GenerateMoves(next, replies);
  for (Move reply : replies) {
    Position after = next;
    after.Play(reply);
    if (IsGameOver(after) &&
        ComputeResult(after).winners == (1u << Index(next.to_move()))) {
      return true;
    }
  }
  return false;
}

TEST(MctsSolverTest, PlaysTheMoveThatWinsAtOnce) {
  const Position pos = Parse(kRedClosesAndWins);
  const SearchResult r = SearchOnce(pos, Options(2000));
  ASSERT_TRUE(Legal(pos, r.best));
  Position after = pos;
  after.Play(r.best);
  EXPECT_TRUE(IsGameOver(after)) << MoveName(r.best);
  EXPECT_EQ(ComputeResult(after).winners, 1u);
  EXPECT_EQ(r.info.candidates.front().winrate, 1.0);
  EXPECT_EQ(r.info.candidates.front().score_margin, 7.0);  // 28 - 21
}

TEST(MctsSolverTest, PrefersTheBiggerSureMargin) {
  // As above, but the gap is a corridor cell d3 (walled east and west): red
  // wins at once by closing d3's north edge from d4 (28-21), or, better, by
  // going d5-d4-d3 and closing its south edge (29-20). Many moves that do
  // not end the game win by 9 too (the solver proves it): the search may
  // play one of those, an all but sure win whose playouts promise more
  // (RankRootEdges), but never the smaller sure win.
  const Position pos = Parse(
      "players=2 setup=empty turn=red red=d5,c5,b6,f6 blue=b2,f2,c1,e1 "
      "red-walls=a3n,b3n,c3n,c3e blue-walls=e3n,f3n,g3n,d3e");
  MoveList moves;
  GenerateMoves(pos, moves);
  int best_margin = -99, wins = 0;
  for (Move m : moves) {
    Position after = pos;
    after.Play(m);
    if (!IsGameOver(after) || ComputeResult(after).winners != 1u) continue;
    ++wins;
    const ScoreSheet sheet = ComputeScores(after);
    best_margin = std::max(best_margin, sheet.score[0] - sheet.score[1]);
  }
  ASSERT_GE(wins, 2);  // a real choice between sure wins
  SolverLimits limits;
  limits.seconds = 0;
  limits.nodes = 10'000'000;
  const SolveResult proof = Solve(pos, limits);
  ASSERT_TRUE(proof.proven && proof.all_optimal_known);
  ASSERT_EQ(proof.mover_value(pos).margin, best_margin);
  const SearchResult r = SearchOnce(pos, Options(3000));
  EXPECT_NE(std::find(proof.optimal.begin(), proof.optimal.end(), r.best),
            proof.optimal.end())
      << MoveName(r.best);
}

TEST(MctsSolverTest, AvoidsAMoveThatLosesNextTurn) {
  const Position pos = Parse(kRedMustStopBlue);
  MoveList moves;
  GenerateMoves(pos, moves);
  int losing = 0;
  for (Move m : moves) losing += AllowsImmediateLoss(pos, m);
  ASSERT_GT(losing, 0);             // the position really threatens
  ASSERT_LT(losing, moves.size());  // and can be saved
  const SearchResult r = SearchOnce(pos, Options(4000));
  ASSERT_TRUE(Legal(pos, r.best));
  EXPECT_FALSE(AllowsImmediateLoss(pos, r.best)) << MoveName(r.best);
}

TEST(MctsSolverTest, PassesWhenThereIsNoTurn) {
  // Red has built its only wall: it must pass.
  const Position pos = Parse(
      "players=2 setup=empty wall-limit=1 turn=red red=a1,c1,e1,g1 "
      "blue=a7,c7,e7,g7 red-walls=d4n blue-walls=");
  const SearchResult r = SearchOnce(pos, Options(100));
  EXPECT_EQ(r.best, Move::Pass());
}

TEST(MctsSolverTest, AFinishedGameGetsAPassNotACrash) {
  Position pos = Parse(kRedClosesAndWins);
  pos.Play(SearchOnce(pos, Options(500)).best);
  ASSERT_TRUE(IsGameOver(pos));
  EXPECT_EQ(SearchOnce(pos, Options(100)).best, Move::Pass());
}

TEST(MctsTest, SameSeedAndVisitsGiveTheSameSearch) {
  const Position pos = BenchStart(BenchPositions()[5]);
  MctsSearcher a(Options(3000)), b(Options(3000));
  const SearchResult ra = a.Search(pos, Limits{}, nullptr, 0);
  const SearchResult rb = b.Search(pos, Limits{}, nullptr, 0);
  EXPECT_EQ(ra.best, rb.best);
  EXPECT_EQ(ra.info.nodes, rb.info.nodes);
  EXPECT_EQ(a.last_nodes_visited(), b.last_nodes_visited());
  a.Clear();
  const SearchResult again = a.Search(pos, Limits{}, nullptr, 0);
  EXPECT_EQ(again.best, ra.best);
  EXPECT_EQ(a.last_nodes_visited(), b.last_nodes_visited());
}

// What a walk of the graph from the root found wrong, if anything: every
// reachable node must be the position its path leads to, hold edges only
// for distinct legal moves (tried ones first, none with visits but no
// child), no pending virtual loss, a win rate in 0..1, and counts that add
// up: its value weighs its edges' visits, and the root's edges count
// `root_visits` playouts.
struct GraphAudit {
  int64_t nodes = 0;
  std::vector<std::string> errors;
};
GraphAudit AuditGraph(Graph& graph, const Position& root_pos,
                      int64_t root_visits, bool one_thread = true) {
  GraphAudit audit;
  const NodeId root = graph.Find(root_pos.hash(), PositionCheck(root_pos));
  if (root == kNoNode) {
    audit.errors.push_back("no root");
    return audit;
  }
  std::map<NodeId, Position> seen;
  std::vector<std::pair<NodeId, Position>> stack = {{root, root_pos}};
  seen.emplace(root, root_pos);
  while (!stack.empty()) {
    // Plain variables, not a structured binding: clang 14 cannot capture a
    // binding in the lambda below (C++20 allows it; clang 16 does).
    const NodeId id = stack.back().first;
    const Position pos = stack.back().second;
    stack.pop_back();
    ++audit.nodes;
    Node& n = graph.node(id);
    auto fail = [&](const std::string& what) {
      audit.errors.push_back(PositionString(pos) + ": " + what);
    };
    if (n.key != pos.hash() || n.check != PositionCheck(pos)) fail("wrong key");
    const int edges = n.num_edges.load();
    const int tried = n.tried.load();
    if (edges > 0) {
      MoveList legal;
      GenerateMoves(pos, legal);
      if (n.num_moves.load() != legal.size()) fail("wrong move count");
    }
    if (edges > n.num_moves.load()) fail("more edges than moves");
    std::set<std::string> moves;
    int64_t out = 0;
    for (int i = 0; i < edges; ++i) {
      Edge& e = graph.edge(n, i);
      if (!Legal(pos, e.move)) fail("illegal edge " + MoveName(e.move));
      if (!moves.insert(MoveName(e.move)).second) fail("duplicate edge");
      if (e.virtual_loss.load() != 0) fail("virtual loss left");
      const int32_t v = e.visits.load();
      if (v < 0) fail("negative visits");
      out += v;
      const NodeId child = e.child.load();
      if (i >= tried && (v != 0 || child != kNoNode)) fail("untried edge used");
      if (child == kNoNode) {
        if (v != 0) fail("visits without a child");
        continue;
      }
      if (seen.count(child)) continue;
      Position next = pos;
      next.Play(e.move);
      seen.emplace(child, next);
      stack.push_back({child, next});
    }
    // One thread: a value weighs exactly its edges' visits (more threads may
    // lose a weight update to a race, never add one).
    const int32_t weight = n.weight.load();
    if (weight > 1 + out ||
        (one_thread && n.proof.load() == Proof::kNone && weight != 1 + out)) {
      fail("value weighs " + std::to_string(weight) + " for " +
           std::to_string(out) + " visits");
    }
    if (id == root && out != root_visits) {
      fail("root edges count " + std::to_string(out));
    }
    const Value q = n.q.Load();
    for (int p = 0; p < pos.num_players(); ++p) {
      if (!(q.win[p] >= -1e-4f && q.win[p] <= 1 + 1e-4f)) {
        fail("win rate " + std::to_string(q.win[p]));
      }
    }
  }
  return audit;
}

// Counts the leaf evaluations (value only) and prior requests that reach
// the classic evaluation it wraps: a search may be given any Evaluator.
class CountingEvaluator : public Evaluator {
 public:
  Value Evaluate(const Position& pos, std::span<const Move> moves,
                 std::span<float> priors) const override {
    (moves.empty() ? leaves : prior_calls).fetch_add(1);
    return inner_.Evaluate(pos, moves, priors);
  }
  Value ChildEstimate(const Position& child) const override {
    estimates.fetch_add(1);
    return inner_.ChildEstimate(child);
  }
  mutable std::atomic<int64_t> leaves{0}, prior_calls{0}, estimates{0};

 private:
  ClassicEvaluator inner_;
};

TEST(MctsTest, AnUntriedMoveIsWorthItsOwnStaticEvaluation) {
  // With the classic prior (a softmax of the children's static evaluations
  // at the temperature fpu_prior_scale) the first play urgency is each
  // child's own evaluation, as in the engine before lazy edges; starting
  // from the parent's value instead lost to it
  // (docs/search.md#how-it-works, "First play urgency").
  const Position pos = BenchStart(BenchPositions()[0]);
  auto counting = std::make_shared<CountingEvaluator>();
  MctsConfig config;
  config.evaluator = counting;
  MctsSearcher searcher(Options(300), config);
  searcher.Search(pos, Limits{}, nullptr, 0);
  EXPECT_GT(counting->estimates.load(), 0);
  Graph& graph = searcher.graph();
  const NodeId root = graph.Find(pos.hash(), PositionCheck(pos));
  ASSERT_NE(root, kNoNode);
  // The untried edges of the root's children (the root tried all it has).
  int untried = 0;
  const Node& r = graph.node(root);
  for (int c = 0; c < r.num_edges.load(); ++c) {
    const NodeId id = graph.edge(r, c).child.load();
    if (id == kNoNode) continue;
    Position parent = pos;
    parent.Play(graph.edge(r, c).move);
    const Node& n = graph.node(id);
    for (int i = 0; i < n.num_edges.load(); ++i) {
      const Edge& e = graph.edge(n, i);
      if (e.visits.load() > 0) continue;
      ++untried;
      Position child = parent;
      child.Play(e.move);
      const float own = ValueOf(Evaluate(child), parent.num_players())
                            .Utility(Index(parent.to_move()));
      EXPECT_NEAR(e.utility.load(), own, 1e-3) << MoveName(e.move);
    }
  }
  EXPECT_GT(untried, 0);
}

TEST(MctsTest, MemoryStaysWithinHashAndAFullGraphIsRecycled) {
  const Position pos = BenchStart(BenchPositions()[0]);
  MctsSearcher searcher(Options(20000, 1, /*hash_mb=*/1));
  const SearchResult r = searcher.Search(pos, Limits{}, nullptr, 0);
  const GraphStats s = searcher.graph_stats();
  EXPECT_LE(s.bytes, 1 << 20);
  EXPECT_GE(searcher.last_recycles(), 2);  // it filled, and went on
  EXPECT_LE(s.nodes, s.node_capacity);
  EXPECT_LE(s.edges, s.edge_capacity);
  EXPECT_EQ(r.info.total_visits, 20000);
  EXPECT_TRUE(Legal(pos, r.best));
}

// A recycling cannot be cut short: one that would run past the hard time
// limit is not started, and the search ends on the full graph instead.
TEST(MctsTest, AFullGraphIsNotRecycledPastTheTimeLimit) {
  const Position pos = BenchStart(BenchPositions()[0]);
  SearchOptions o = Options(0, 1, /*hash_mb=*/1);
  o.movetime_s = 30;
  o.movetime_set = true;
  MctsConfig config;
  config.recycle_seconds_per_node = 1;  // no recycling fits in 30 s
  MctsSearcher searcher(o, config);
  const SearchResult r = searcher.Search(pos, Limits{}, nullptr, 0);
  EXPECT_EQ(searcher.last_recycles(), 0);
  EXPECT_GE(searcher.last_abandoned(), 1);  // it filled
  EXPECT_LT(r.info.elapsed_s, 15);          // and ended there, not at 30 s
  EXPECT_GT(r.info.total_visits, 100);
  EXPECT_TRUE(Legal(pos, r.best));
  // A playout budget has no time limit: the same graph is recycled.
  o.visits = 20000;
  o.movetime_s = 0;
  MctsSearcher budgeted(o, config);
  EXPECT_EQ(budgeted.Search(pos, Limits{}, nullptr, 0).info.total_visits,
            20000);
  EXPECT_GE(budgeted.last_recycles(), 2);
}

TEST(MctsTest, RecyclingManyTimesKeepsEveryReachableNodeConsistent) {
  for (int index : {0, 5, 9}) {  // opening, middle game, four players
    const Position pos = BenchStart(BenchPositions()[index]);
    MctsSearcher searcher(Options(30000, 1, /*hash_mb=*/1));
    const SearchResult r = searcher.Search(pos, Limits{}, nullptr, 0);
    EXPECT_GE(searcher.last_recycles(), 3) << index;
    const GraphAudit audit =
        AuditGraph(searcher.graph(), pos, r.info.total_visits);
    EXPECT_GT(audit.nodes, 100) << index;
    EXPECT_TRUE(audit.errors.empty())
        << index << ": " << audit.errors.size() << " errors, first "
        << audit.errors.front();
  }
}

TEST(MctsTest, EveryCountedVisitEvaluatedALeaf) {
  // The opening: no playout can reach a finished or proven position, so
  // every counted playout must have evaluated one new leaf (the root is
  // the one more), however often the full 1 MB graph is recycled.
  const Position pos = BenchStart(BenchPositions()[0]);
  auto counting = std::make_shared<CountingEvaluator>();
  MctsConfig config;
  config.evaluator = counting;
  MctsSearcher searcher(Options(20000, 1, /*hash_mb=*/1), config);
  const SearchResult r = searcher.Search(pos, Limits{}, nullptr, 0);
  ASSERT_GE(searcher.last_recycles(), 2);
  EXPECT_EQ(r.info.total_visits, 20000);
  EXPECT_EQ(counting->leaves.load(), r.info.total_visits + 1);
  EXPECT_GT(counting->prior_calls.load(), 0);
  const GraphAudit audit = AuditGraph(searcher.graph(), pos, 20000);
  EXPECT_TRUE(audit.errors.empty()) << audit.errors.front();
}

TEST(MctsTest, ASearchOnOneMegabytePlaysAWholeGameLegally) {
  Position pos = BenchStart(BenchPositions()[0]);
  // 2500 playouts a move fill 1 MB within most searches.
  MctsSearcher searcher(Options(2500, 1, /*hash_mb=*/1));
  int plies = 0;
  int64_t recycles = 0;
  while (!IsGameOver(pos)) {
    const SearchResult r = searcher.Search(pos, Limits{}, nullptr, 0);
    ASSERT_TRUE(Legal(pos, r.best)) << plies << " " << MoveName(r.best);
    recycles += searcher.last_recycles();
    pos.Play(r.best);
    ASSERT_LT(++plies, 400);
  }
  EXPECT_GT(plies, 20);
  EXPECT_GT(recycles, 0);
}

// Searches the middle-game bench position with `visits`, plays the first
// two moves of the principal variation, and searches again with one visit.
struct TwoSearches {
  SearchResult first, second;
};
TwoSearches SearchAgainTwoMovesLater(int64_t visits, int hash_mb) {
  Position pos = BenchStart(BenchPositions()[5]);
  MctsSearcher searcher(Options(visits, 1, hash_mb));
  TwoSearches r;
  r.first = searcher.Search(pos, Limits{}, nullptr, 0);
  const std::vector<Move>& pv = r.first.info.candidates.front().pv;
  EXPECT_GE(pv.size(), 2u);
  if (pv.size() < 2) return r;
  pos.Play(pv[0]);
  pos.Play(pv[1]);
  searcher.SetOptions(Options(1, 1, hash_mb));
  r.second = searcher.Search(pos, Limits{}, nullptr, 0);
  return r;
}

TEST(MctsTest, KeepsTheGraphBelowThePlayedMoves) {
  // A small hash, so that the graph is crowded and gets recycled.
  const TwoSearches r = SearchAgainTwoMovesLater(3000, /*hash_mb=*/1);
  int64_t kept_visits = 0;
  for (const Candidate& c : r.second.info.candidates) kept_visits += c.visits;
  EXPECT_GT(kept_visits, 1);                           // reused what it knew
  EXPECT_LT(r.second.info.nodes, r.first.info.nodes);  // dropped the rest
}

TEST(MctsTest, ReusesWithoutCompactingWhileThereIsRoom) {
  const TwoSearches r = SearchAgainTwoMovesLater(2000, /*hash_mb=*/32);
  ASSERT_FALSE(r.second.info.candidates.empty());
  EXPECT_GT(r.second.info.candidates.front().visits, 1);
  EXPECT_GE(r.second.info.nodes, r.first.info.nodes);  // nothing reclaimed
}

// A search of `pos` under `limits`, and the wall-clock seconds it took.
std::pair<SearchResult, double> TimedSearch(MctsSearcher& searcher,
                                            const Position& pos,
                                            const Limits& limits) {
  const auto start = std::chrono::steady_clock::now();
  SearchResult r = searcher.Search(pos, limits, nullptr, 0);
  return {std::move(r), std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count()};
}

TEST(MctsTest, KeepsToTheMoveTime) {
  const Position pos = BenchStart(BenchPositions()[0]);
  SearchOptions o = Options(0);
  o.movetime_s = 0.3;
  MctsSearcher searcher(o);
  const auto [r, took] = TimedSearch(searcher, pos, Limits{});
  // The search stops itself at 0.285 s; the slack only absorbs a loaded
  // machine's scheduling (a starved process was seen to lose 0.7 s).
  EXPECT_LE(took, 0.3 + 0.2);
  EXPECT_GE(took, 0.2);
  EXPECT_TRUE(Legal(pos, r.best));
}

TEST(MctsTest, KeepsToTheClock) {
  const Position pos = BenchStart(BenchPositions()[5]);
  MctsSearcher searcher(Options(0));
  Limits limits;
  limits.clock.main_s = 3;
  EXPECT_LT(TimedSearch(searcher, pos, limits).second, 3 * 0.4 + 0.05);
}

TEST(MctsTest, ClockWinsOverALongerMoveTime) {
  const Position pos = BenchStart(BenchPositions()[5]);
  SearchOptions o = Options(0);
  o.movetime_s = 1;
  o.movetime_set = true;     // the user's: it caps the clock, but a shorter
  MctsSearcher searcher(o);  // clock still wins
  Limits limits;
  limits.clock.main_s = 0.5;
  EXPECT_LT(TimedSearch(searcher, pos, limits).second, 0.5 * 0.4 + 0.05);
}

TEST(MctsTest, ReportsCandidatesBestFirstWithPv) {
  const Position pos = BenchStart(BenchPositions()[5]);
  MctsSearcher searcher(Options(2000));
  int calls = 0;
  const SearchResult r = searcher.Search(
      pos, Limits{}, [&calls](const SearchInfo&) { ++calls; }, 0.01);
  EXPECT_GE(calls, 1);
  ASSERT_GE(r.info.candidates.size(), 2u);
  EXPECT_EQ(r.best, r.info.candidates.front().move);
  for (size_t i = 1; i < r.info.candidates.size(); ++i) {
    EXPECT_GE(r.info.candidates[i - 1].visits, r.info.candidates[i].visits);
  }
  for (const Candidate& c : r.info.candidates) {
    ASSERT_FALSE(c.pv.empty());
    EXPECT_EQ(c.pv.front(), c.move);
    EXPECT_GE(c.winrate, 0.0);
    EXPECT_LE(c.winrate, 1.0);
  }
  EXPECT_EQ(r.info.total_visits, 2000);
}

TEST(MctsTest, EveryVariantGetsALegalMove) {
  for (const BenchPosition& bench : BenchPositions()) {
    const Position pos = BenchStart(bench);
    const SearchResult r = SearchOnce(pos, Options(300));
    EXPECT_TRUE(Legal(pos, r.best)) << bench.rules << " " << bench.moves;
  }
}

TEST(MctsThreadedTest, ThreadedSearchReturnsALegalMove) {
  for (int index : {0, 5, 8}) {
    const Position pos = BenchStart(BenchPositions()[index]);
    const SearchResult r = SearchOnce(pos, Options(1500, 2));
    EXPECT_TRUE(Legal(pos, r.best));
    EXPECT_EQ(r.info.total_visits, 1500);
  }
}

TEST(MctsThreadedTest, ThreadedGameReusesTheGraph) {
  Position pos = BenchStart(BenchPositions()[9]);  // four players, breakers
  MctsSearcher searcher(Options(400, 2, 4));
  for (int ply = 0; ply < 8 && !IsGameOver(pos); ++ply) {
    const SearchResult r = searcher.Search(pos, Limits{}, nullptr, 0);
    ASSERT_TRUE(Legal(pos, r.best)) << MoveName(r.best);
    pos.Play(r.best);
  }
}

// Searches bench position 5 with a 12000-playout budget: a legal move, the
// whole budget counted on the root's edges, a consistent graph, and at least
// one recycling when `must_recycle`.
void ExpectAWholeThreadedSearch(MctsSearcher& searcher, bool must_recycle) {
  const Position pos = BenchStart(BenchPositions()[5]);
  const SearchResult r = searcher.Search(pos, Limits{}, nullptr, 0);
  EXPECT_TRUE(Legal(pos, r.best));
  EXPECT_EQ(r.info.total_visits, 12000);
  if (must_recycle) {
    EXPECT_GE(searcher.last_recycles(), 1);
  }
  const GraphAudit audit =
      AuditGraph(searcher.graph(), pos, 12000, /*one_thread=*/false);
  EXPECT_TRUE(audit.errors.empty()) << audit.errors.front();
}

TEST(MctsThreadedTest, ThreadedSearchRecyclesAFullGraph) {
  MctsSearcher searcher(Options(12000, 2, /*hash_mb=*/1));
  ExpectAWholeThreadedSearch(searcher, /*must_recycle=*/true);
}

// Visits through busy edges, deferred to each thread's next batch, are all
// written by the end of the search, across recyclings too: the root's edges
// count every playout, and no virtual loss is left (AuditGraph).
TEST(MctsThreadedTest, ThreadedDeferredVisitsAreAllCounted) {
  MctsConfig config;
  config.deferred_batch = 8;
  for (int hash_mb : {16, 1}) {
    SearchOptions o = Options(12000, 3, hash_mb);
    o.deferred_visits = 1;  // nearly every visit deferred
    MctsSearcher searcher(o, config);
    ExpectAWholeThreadedSearch(searcher, /*must_recycle=*/hash_mb == 1);
  }
}

// Two one-thread searches of the bench's position 6, with `a_options` and
// `b_options`, visit the same nodes and give the same candidates.
void ExpectTheSameOneThreadSearch(const SearchOptions& a_options,
                                  const SearchOptions& b_options) {
  const Position pos = BenchStart(BenchPositions()[6]);
  MctsSearcher a(a_options), b(b_options);
  const SearchResult ra = a.Search(pos, Limits{}, nullptr, 0);
  const SearchResult rb = b.Search(pos, Limits{}, nullptr, 0);
  EXPECT_EQ(a.last_nodes_visited(), b.last_nodes_visited());
  ASSERT_EQ(ra.info.candidates.size(), rb.info.candidates.size());
  for (size_t i = 0; i < ra.info.candidates.size(); ++i) {
    EXPECT_EQ(ra.info.candidates[i].move, rb.info.candidates[i].move);
    EXPECT_EQ(ra.info.candidates[i].visits, rb.info.candidates[i].visits);
  }
}

// One thread never defers a visit and prefers no edge: its search is the
// same whatever the deferral and affinity settings (and so is the bench
// signature).
TEST(MctsTest, OneThreadSearchesAlikeWithAnyDeferralOrAffinity) {
  SearchOptions deferring = Options(3000);
  deferring.deferred_visits = 1;
  deferring.thread_affinity = 0.5;
  SearchOptions never = Options(3000);
  never.deferred_visits = 0;
  never.thread_affinity = 0;
  ExpectTheSameOneThreadSearch(deferring, never);
}

// Sixteen threads (more than this machine's cores: the descents in flight
// are what counts) with the default selection and with whole virtual
// losses, in a graph that fills up and one that does not: every playout
// counted, no virtual loss left.
TEST(MctsThreadedTest, ThreadedSixteenThreadsCountEveryPlayout) {
  for (double virtual_loss : {SearchOptions{}.virtual_loss, 1.0}) {
    for (int hash_mb : {16, 1}) {
      SearchOptions options = Options(12000, 16, hash_mb);
      options.virtual_loss = virtual_loss;
      MctsSearcher searcher(options);
      ExpectAWholeThreadedSearch(searcher, /*must_recycle=*/hash_mb == 1);
    }
  }
}

// One thread has no descent in flight but its own: its search is the same
// whatever weight the virtual loss has (and so is the bench signature).
TEST(MctsTest, OneThreadSearchesAlikeWithAnyVirtualLoss) {
  SearchOptions none = Options(3000), whole = Options(3000);
  none.virtual_loss = 0;
  whole.virtual_loss = 1;
  ExpectTheSameOneThreadSearch(none, whole);
}

// Endless analysis (`analyze`) at 2 and 16 threads runs until stopped.
TEST(MctsThreadedTest, ThreadedInfiniteAnalysisStops) {
  for (int threads : {2, 16}) {
    const Position pos = BenchStart(BenchPositions()[1]);
    MctsSearcher searcher(Options(0, threads));
    Limits limits;
    limits.infinite = true;
    std::thread stopper([&searcher] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      searcher.Stop();
    });
    const SearchResult r = searcher.Search(pos, limits, nullptr, 0);
    stopper.join();
    EXPECT_TRUE(Legal(pos, r.best)) << threads << " threads";
    EXPECT_GT(r.info.total_visits, 0) << threads << " threads";
  }
}

}  // namespace
}  // namespace wallgo::search
