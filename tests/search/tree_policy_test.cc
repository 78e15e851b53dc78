// Selection with virtual loss, value backup (KataGo's graph formula) and the
// solver's proofs, on small hand-built graphs.
#include "search/tree_policy.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace wallgo::search {
namespace {

constexpr int kPlayers = 2;

Value TwoPlayer(float red_win, float red_margin) {
  Value v;
  v.win = {red_win, 1 - red_win, 0, 0};
  v.margin = {red_margin, -red_margin, 0, 0};
  return v;
}

class TreePolicyTest : public ::testing::Test {
 protected:
  NodeId Add(int mover, const Value& value, Proof proof = Proof::kNone) {
    const NodeId id = graph_.Allocate();
    graph_.node(id).Init(++next_key_, 0, mover, value, proof);
    return graph_.Publish(id);
  }
  // Edges from `parent` to `children` (kNoNode: not created yet), priors
  // equal, first-play value `fpu`.
  void Expand(NodeId parent, const std::vector<NodeId>& children,
              float fpu = 0.5f) {
    const int64_t begin = graph_.AllocateEdges(children.size());
    for (size_t i = 0; i < children.size(); ++i) {
      Edge& e = graph_.edge(begin + i);
      // A linked edge shows its child's value, as backup would leave it.
      const float utility =
          children[i] == kNoNode
              ? fpu
              : graph_.node(children[i]).q.Utility(graph_.node(parent).to_move);
      e.Init(Move::Place(static_cast<int>(i)), 1.0f / children.size(), utility);
      e.child.store(children[i]);
    }
    Node& n = graph_.node(parent);
    graph_.AttachEdges(n, begin, static_cast<int>(children.size()));
    n.tried.store(TriedPrefix(children));
  }
  // As if selection had chosen every edge up to the last with a child.
  static uint16_t TriedPrefix(const std::vector<NodeId>& children) {
    uint16_t tried = 0;
    for (size_t i = 0; i < children.size(); ++i) {
      if (children[i] != kNoNode) tried = static_cast<uint16_t>(i + 1);
    }
    return tried;
  }
  // A root (red to move) with a good child for red, (0.9, +10), and a bad
  // one, (0.1, -6), through edges with these visits.
  NodeId RootOfGoodAndBad(int32_t good_visits, int32_t bad_visits) {
    const NodeId root = Add(0, TwoPlayer(0.5f, 0));
    Expand(root, {Add(1, TwoPlayer(0.9f, 10)), Add(1, TwoPlayer(0.1f, -6))});
    EdgeOf(root, 0).visits.store(good_visits);
    EdgeOf(root, 1).visits.store(bad_visits);
    return root;
  }
  // root -> mid -> leaf, one edge each, nothing visited: root and mid.
  std::pair<NodeId, NodeId> RootMidLeaf() {
    const NodeId root = Add(0, TwoPlayer(0.5f, 0));
    const NodeId mid = Add(1, TwoPlayer(0.4f, -2));
    const NodeId leaf = Add(0, TwoPlayer(0.2f, -8));
    Expand(root, {mid});
    Expand(mid, {leaf});
    return {root, mid};
  }
  Edge& EdgeOf(NodeId parent, int i) {
    return graph_.edge(graph_.node(parent), i);
  }

  Graph graph_{size_t{1} << 20};
  uint64_t next_key_ = 100;
};

TEST_F(TreePolicyTest, NodeValueIsEvalPlusVisitWeightedChildren) {
  const NodeId root = RootOfGoodAndBad(3, 1);
  UpdateNode(graph_, graph_.node(root), kPlayers);
  const Value q = graph_.node(root).q.Load();
  EXPECT_NEAR(q.win[0], (0.5 + 3 * 0.9 + 1 * 0.1) / 5, 1e-6);
  EXPECT_NEAR(q.win[1], 1 - q.win[0], 1e-6);
  EXPECT_NEAR(q.margin[0], (0 + 3 * 10 - 6) / 5.0, 1e-5);
  EXPECT_EQ(graph_.node(root).proof.load(), Proof::kNone);
}

TEST_F(TreePolicyTest, RootRankingPutsProvenWinsFirstAndWorseLossesLast) {
  const NodeId root = Add(0, TwoPlayer(0.5f, 0));
  Expand(
      root,
      {Add(1, TwoPlayer(0.0f, -3), Proof::kExact), Add(1, TwoPlayer(0.6f, 2)),
       Add(1, TwoPlayer(1.0f, 4), Proof::kExact), Add(1, TwoPlayer(0.3f, -1))});
  for (int i = 0; i < 4; ++i)
    EdgeOf(root, i).visits.store(std::vector{900, 50, 10, 300}[i]);
  // The unproven edges by visits; the loss by 3 is worth less than the
  // estimate of the most visited unproven edge (0.3, -1): an MCTS-solver
  // never plays it while that edge may still win.
  EXPECT_EQ(RankRootEdges(graph_, graph_.node(root)),
            (std::vector<int>{2, 3, 1, 0}));
}

TEST_F(TreePolicyTest, RootRankingPrefersASmallProvenLossToAWorseEstimate) {
  // A three-player endgame that red loses whatever it does: the proven loss
  // by 3 is worth more than the estimate of the most visited unproven move
  // (a 0.4% win, -9.6 on average); the proven loss by 12 is not.
  const NodeId root = Add(0, TwoPlayer(0.5f, 0));
  Expand(root, {Add(1, TwoPlayer(0.004f, -9.6f)),
                Add(1, TwoPlayer(0.0f, -12), Proof::kExact),
                Add(1, TwoPlayer(0.0f, -3), Proof::kDecided),
                Add(1, TwoPlayer(0.0f, -5), Proof::kExact)});
  for (int i = 0; i < 4; ++i)
    EdgeOf(root, i).visits.store(std::vector{1500, 900, 100, 2000}[i]);
  EXPECT_EQ(RankRootEdges(graph_, graph_.node(root)),
            (std::vector<int>{2, 3, 0, 1}));
}

TEST_F(TreePolicyTest, RootRankingPrefersAnAlmostSureBiggerWinToASmallProof) {
  // Red wins whatever it does: the proven win by 6 is worth less than the
  // estimate of the most visited unproven move (a 99.9% win by 14.6); the
  // proven win by 16 is worth more. An edge that may well lose (70%, +20)
  // does not displace a proven win.
  const NodeId root = Add(0, TwoPlayer(1.0f, 10));
  Expand(root,
         {Add(1, TwoPlayer(1.0f, 6), Proof::kExact),
          Add(1, TwoPlayer(0.999f, 14.6f)), Add(1, TwoPlayer(0.998f, 13.4f)),
          Add(1, TwoPlayer(1.0f, 16), Proof::kDecided)});
  for (int i = 0; i < 4; ++i)
    EdgeOf(root, i).visits.store(std::vector{260, 1800, 1000, 30}[i]);
  EXPECT_EQ(RankRootEdges(graph_, graph_.node(root)),
            (std::vector<int>{3, 1, 2, 0}));

  const NodeId risky = Add(0, TwoPlayer(1.0f, 10));
  Expand(risky, {Add(1, TwoPlayer(1.0f, 6), Proof::kExact),
                 Add(1, TwoPlayer(0.7f, 20))});
  EdgeOf(risky, 0).visits.store(10);
  EdgeOf(risky, 1).visits.store(900);
  EXPECT_EQ(RankRootEdges(graph_, graph_.node(risky)),
            (std::vector<int>{0, 1}));
}

TEST_F(TreePolicyTest, RootRankingOrdersProvenLossesByValue) {
  const NodeId root = Add(0, TwoPlayer(0.0f, -3));
  Expand(root, {Add(1, TwoPlayer(0.0f, -7), Proof::kExact),
                Add(1, TwoPlayer(0.0f, -3), Proof::kExact)});
  EdgeOf(root, 0).visits.store(40);
  EdgeOf(root, 1).visits.store(10);
  // Every edge proven lost: the smaller loss first, whatever the visits.
  EXPECT_EQ(RankRootEdges(graph_, graph_.node(root)), (std::vector<int>{1, 0}));
}

TEST_F(TreePolicyTest, VirtualLossSendsTheNextThreadElsewhere) {
  const NodeId root = Add(0, TwoPlayer(0.5f, 0));
  Expand(root, {kNoNode, kNoNode}, 0.6f);
  EXPECT_EQ(SelectEdge(graph_, graph_.node(root), 1.0), 0);  // tie: first
  EXPECT_EQ(EdgeOf(root, 0).virtual_loss.load(), 1);
  EXPECT_EQ(SelectEdge(graph_, graph_.node(root), 1.0), 1);
  EXPECT_EQ(EdgeOf(root, 1).virtual_loss.load(), 1);
}

TEST_F(TreePolicyTest, BackupCountsVisitsAndClearsVirtualLoss) {
  const auto [root, mid] = RootMidLeaf();
  const int e0 = SelectEdge(graph_, graph_.node(root), 1.0);
  const int e1 = SelectEdge(graph_, graph_.node(mid), 1.0);
  Backup(graph_, {{root, e0}, {mid, e1}}, kPlayers);
  EXPECT_EQ(EdgeOf(root, 0).visits.load(), 1);
  EXPECT_EQ(EdgeOf(root, 0).virtual_loss.load(), 0);
  EXPECT_EQ(EdgeOf(mid, 0).visits.load(), 1);
  EXPECT_EQ(EdgeOf(mid, 0).virtual_loss.load(), 0);
  const float mid_win = (0.4f + 0.2f) / 2;
  EXPECT_NEAR(graph_.node(mid).q.Load().win[0], mid_win, 1e-6);
  EXPECT_NEAR(graph_.node(root).q.Load().win[0], (0.5f + mid_win) / 2, 1e-6);
}

TEST_F(TreePolicyTest, ABusyEdgeIsDeferredWithoutAVirtualLoss) {
  const NodeId root = RootOfGoodAndBad(10, 0);
  // A small c_puct: the better edge is chosen both times.
  const PathStep busy = SelectStep(graph_, root, 0.01, /*defer_from=*/10);
  EXPECT_EQ(busy.edge, 0);
  EXPECT_TRUE(busy.deferred);
  EXPECT_EQ(EdgeOf(root, 0).virtual_loss.load(), 0);
  const PathStep quiet = SelectStep(graph_, root, 0.01, /*defer_from=*/11);
  EXPECT_EQ(quiet.edge, 0);
  EXPECT_FALSE(quiet.deferred);
  EXPECT_EQ(EdgeOf(root, 0).virtual_loss.load(), 1);
}

// Until its flush, a thread's deferred visit is in no edge's count; its own
// next choice still counts it, as a one-thread search would.
TEST_F(TreePolicyTest, AThreadsOwnDeferredVisitsCountInItsChoices) {
  const NodeId root = Add(0, TwoPlayer(0.5f, 0));
  Expand(root, {Add(1, TwoPlayer(0.5f, 0)), Add(1, TwoPlayer(0.5f, 0))});
  EdgeOf(root, 0).visits.store(10);
  EdgeOf(root, 1).visits.store(10);
  const PathStep first = SelectStep(graph_, root, 1.0, /*defer_from=*/10);
  EXPECT_EQ(first.edge, 0);  // a tie: the first
  ASSERT_TRUE(first.deferred);
  PendingVisits pending;
  pending.Add(first, 0);
  EXPECT_EQ(SelectStep(graph_, root, 1.0, 10, &pending).edge, 1);
  // Another thread does not see it.
  EXPECT_EQ(SelectStep(graph_, root, 1.0, 10).edge, 0);
}

// Four descents in flight through the better edge (0.6 against 0.5, four
// visits each): as whole losses they sink its value to 0.3 and send the
// next thread to the other edge; weighed 0 they leave its value alone, and
// count only as visits, which sends it there only when exploration weighs
// enough (a large c_puct).
TEST_F(TreePolicyTest, AVirtualLossWeighsInTheValueAsAsked) {
  const NodeId root = Add(0, TwoPlayer(0.5f, 0));
  Expand(root, {Add(1, TwoPlayer(0.6f, 0)), Add(1, TwoPlayer(0.5f, 0))});
  auto next = [&](double c_puct, float virtual_loss) {
    for (int i = 0; i < 2; ++i) EdgeOf(root, i).visits.store(4);
    EdgeOf(root, 0).virtual_loss.store(4);
    EdgeOf(root, 1).virtual_loss.store(0);
    return SelectStep(graph_, root, c_puct, 0, nullptr, {}, virtual_loss).edge;
  };
  EXPECT_EQ(next(0.1, kFullVirtualLoss), 1);
  EXPECT_EQ(next(0.1, 0.0f), 0);
  EXPECT_EQ(next(1.0, 0.0f), 1);
  // Half a loss each: 0.6 * 4 / (4 + 2) = 0.4, below the other's 0.5.
  EXPECT_EQ(next(0.1, 0.5f), 1);
}

// Each edge of a node is exactly one thread's (AddBonus raising the same
// edges as Prefers), any `threads` edges in a row are all different
// threads', and the threads get about equal shares of the nodes' first
// edges (the likeliest moves).
TEST(ThreadAffinityTest, EachEdgeIsOneThreadsDealtInTurn) {
  constexpr int kNodes = 1000, kEdges = 20;
  for (int threads : {2, 3, 16}) {
    std::vector<int> first_edges(threads, 0);
    for (NodeId id = 1; id <= kNodes; ++id) {
      std::vector<int> owner(kEdges, -1);
      std::vector<std::vector<double>> raised(threads);  // by AddBonus
      for (int t = 0; t < threads; ++t) {
        raised[t].assign(kEdges, 0.0);
        ThreadAffinity{t, threads, 0.03f}.AddBonus(id, raised[t].data(),
                                                   kEdges);
      }
      for (int edge = 0; edge < kEdges; ++edge) {
        for (int t = 0; t < threads; ++t) {
          const bool prefers =
              ThreadAffinity{t, threads, 0.03f}.Prefers(id, edge);
          EXPECT_EQ(raised[t][edge] > 0, prefers)
              << "node " << id << ", edge " << edge << ", thread " << t;
          if (!prefers) continue;
          EXPECT_EQ(owner[edge], -1) << "node " << id << ", edge " << edge;
          owner[edge] = t;
        }
        ASSERT_NE(owner[edge], -1) << "node " << id << ", edge " << edge;
        if (edge >= threads - 1) {
          std::vector<int> run(owner.begin() + edge - (threads - 1),
                               owner.begin() + edge + 1);
          std::sort(run.begin(), run.end());
          EXPECT_EQ(std::unique(run.begin(), run.end()), run.end())
              << "node " << id << ", edges to " << edge;
        }
      }
      ++first_edges[owner[0]];
    }
    const double even = double{kNodes} / threads;
    for (int t = 0; t < threads; ++t) {
      EXPECT_NEAR(first_edges[t], even, 0.3 * even)
          << threads << " threads, thread " << t;
    }
  }
}

// Of two edges that score alike, each thread takes its own; an edge that
// scores clearly better is every thread's choice.
TEST_F(TreePolicyTest, AThreadTakesItsOwnOfEdgesThatScoreAlike) {
  const NodeId node = Add(0, TwoPlayer(0.5f, 0));
  Expand(node, {Add(1, TwoPlayer(0.5f, 0)), Add(1, TwoPlayer(0.5f, 0))});
  EdgeOf(node, 0).visits.store(10);
  EdgeOf(node, 1).visits.store(10);
  // Each choice adds a virtual loss; take it back before the next.
  const auto choose = [&](const ThreadAffinity& affinity) {
    const int edge = SelectStep(graph_, node, 1.0, 0, nullptr, affinity).edge;
    EdgeOf(node, edge).virtual_loss.store(0);
    return edge;
  };
  EXPECT_EQ(choose({}), 0);  // a tie: the first
  std::vector<int> chosen;
  for (int t : {0, 1}) {
    const ThreadAffinity affinity{t, 2, 0.03f};
    chosen.push_back(choose(affinity));
    EXPECT_TRUE(affinity.Prefers(node, chosen.back())) << "thread " << t;
  }
  EXPECT_NE(chosen[0], chosen[1]);
  EdgeOf(node, 1).utility.store(TwoPlayer(0.8f, 0).Utility(0));
  for (int t : {0, 1}) EXPECT_EQ(choose({t, 2, 0.03f}), 1);
}

TEST(PendingVisitsTest, ForEachOfGivesExactlyTheNodesEdgesAndTheirVisits) {
  PendingVisits pending;
  pending.Add({3, 1, true}, 0);
  pending.Add({3, 1, true}, 0);
  pending.Add({3, 4, true}, 0);
  pending.Add({9, 0, true}, 1);
  std::vector<std::pair<int, int32_t>> seen;
  const auto collect = [&](int edge, int32_t visits) {
    seen.emplace_back(edge, visits);
  };
  pending.ForEachOf(3, collect);
  EXPECT_EQ(seen, (std::vector<std::pair<int, int32_t>>{{1, 2}, {4, 1}}));
  seen.clear();
  pending.ForEachOf(3 + 64, collect);  // the same bit, another node
  pending.ForEachOf(5, collect);
  EXPECT_TRUE(seen.empty());
}

TEST_F(TreePolicyTest, DeferredVisitsWaitForTheFlushAndThenCountInOneStep) {
  const auto [root, mid] = RootMidLeaf();
  PendingVisits pending;
  for (int playout = 0; playout < 3; ++playout) {
    // Taken as SelectStep takes a busy edge: deferred, no virtual loss.
    const PathStep top = {root, 0, /*deferred=*/true};
    const PathStep below = SelectStep(graph_, mid, 1.0, /*defer_from=*/0);
    Backup(graph_, {top, below}, kPlayers, &pending);
  }
  // The step below counted at once; the root's waits, and took no loss.
  EXPECT_EQ(EdgeOf(mid, 0).visits.load(), 3);
  EXPECT_EQ(EdgeOf(root, 0).visits.load(), 0);
  EXPECT_EQ(EdgeOf(root, 0).virtual_loss.load(), 0);
  EXPECT_NEAR(graph_.node(root).q.Load().win[0], 0.5f, 1e-6);
  pending.Flush(graph_, kPlayers);
  EXPECT_TRUE(pending.empty());
  pending.ForEachOf(root, [](int, int32_t) { ADD_FAILURE() << "flushed"; });
  EXPECT_EQ(EdgeOf(root, 0).visits.load(), 3);
  EXPECT_EQ(graph_.node(root).weight.load(), 4);
  // The root's value as a full recompute has it: its eval and 3 visits of
  // mid's value now.
  const float mid_win = graph_.node(mid).q.Load().win[0];
  EXPECT_NEAR(graph_.node(root).q.Load().win[0], (0.5f + 3 * mid_win) / 4,
              1e-6);
  EXPECT_NEAR(EdgeOf(root, 0).utility.load(), graph_.node(mid).q.Utility(0),
              1e-6);
}

// A flush recomputes its node from the children's values as they are then:
// a change of the child that another thread's backup has already counted in
// the node's value is not counted again (counted twice, values left [0, 1]).
TEST_F(TreePolicyTest, AFlushCountsNoChildsChangeTwice) {
  const NodeId root = Add(0, TwoPlayer(0.5f, 0));
  std::vector<NodeId> children;
  for (int i = 0; i < 6; ++i) children.push_back(Add(1, TwoPlayer(0.6f, 0)));
  Expand(root, children);
  for (int i = 0; i < 6; ++i) EdgeOf(root, i).visits.store(2);
  UpdateNode(graph_, graph_.node(root), kPlayers);  // weight 13
  PendingVisits pending;
  pending.Add({root, 0, /*deferred=*/true}, 0);
  // Another thread's playout through edge 0 moves the child from 0.6 to
  // 0.8 and counts that change in the root's value.
  graph_.node(children[0]).q.Store(TwoPlayer(0.8f, 0), kPlayers);
  EdgeOf(root, 0).virtual_loss.store(1);
  AddVisit(graph_, graph_.node(root), 0,
           {TwoPlayer(0.6f, 0), TwoPlayer(0.8f, 0)}, kPlayers);
  pending.Flush(graph_, kPlayers);
  EXPECT_EQ(EdgeOf(root, 0).visits.load(), 4);
  EXPECT_EQ(graph_.node(root).weight.load(), 15);
  EXPECT_NEAR(graph_.node(root).q.Load().win[0],
              (0.5f + 4 * 0.8f + 10 * 0.6f) / 15, 1e-6);
}

// A root of six tried edges (more than are always recomputed in full), two
// visits each, children at 0.6: weight 13, value 7.7 / 13.
class FlushTest : public TreePolicyTest {
 protected:
  void SetUp() override {
    root_ = Add(0, TwoPlayer(0.5f, 0));
    for (int i = 0; i < 6; ++i) children_.push_back(Add(1, TwoPlayer(0.6f, 0)));
    Expand(root_, children_);
    for (int i = 0; i < 6; ++i) EdgeOf(root_, i).visits.store(2);
    UpdateNode(graph_, graph_.node(root_), kPlayers);
  }
  // `count` deferred visits through edge 0, whose child has moved to 0.8
  // through another parent, then a flush.
  void FlushAfterTheChildMoved(int count) {
    PendingVisits pending;
    for (int i = 0; i < count; ++i) pending.Add({root_, 0, true}, 0);
    graph_.node(children_[0]).q.Store(TwoPlayer(0.8f, 0), kPlayers);
    pending.Flush(graph_, kPlayers);
  }
  NodeId root_;
  std::vector<NodeId> children_;
};

// Between full recomputes a flush moves the value by its new visits alone,
// each at the child's value now; the child's older visits keep its old
// value until the next full recompute, as in AddVisit.
TEST_F(FlushTest, AFlushCountsItsVisitsAtTheChildsValueNow) {
  FlushAfterTheChildMoved(3);
  EXPECT_EQ(EdgeOf(root_, 0).visits.load(), 5);
  EXPECT_EQ(graph_.node(root_).weight.load(), 16);
  EXPECT_NEAR(graph_.node(root_).q.Load().win[0], (7.7f + 3 * 0.8f) / 16, 1e-6);
  EXPECT_FLOAT_EQ(EdgeOf(root_, 0).utility.load(),
                  TwoPlayer(0.8f, 0).Utility(0));
}

// Weight 13 + 4 passes 16, a multiple of the recompute period (8): the
// flush recomputes the root in full, as AddVisit's 16th visit would.
TEST_F(FlushTest, AFlushThatPassesTheRecomputePeriodRecomputesInFull) {
  FlushAfterTheChildMoved(4);
  EXPECT_EQ(graph_.node(root_).weight.load(), 17);
  EXPECT_NEAR(graph_.node(root_).q.Load().win[0],
              (0.5f + 6 * 0.8f + 10 * 0.6f) / 17, 1e-6);
}

// No pending edge should lack its child (the playout links it first); if
// one does, its visits still count and the value is recomputed from the
// children there are, not read from an empty node.
TEST_F(FlushTest, AFlushThroughAnEdgeWithoutChildRecomputesFromTheOthers) {
  EdgeOf(root_, 0).child.store(kNoNode);
  PendingVisits pending;
  for (int i = 0; i < 3; ++i) pending.Add({root_, 0, true}, 0);
  pending.Flush(graph_, kPlayers);
  EXPECT_EQ(EdgeOf(root_, 0).visits.load(), 5);
  EXPECT_EQ(graph_.node(root_).weight.load(), 11);
  EXPECT_NEAR(graph_.node(root_).q.Load().win[0], (0.5f + 10 * 0.6f) / 11,
              1e-6);
}

TEST_F(TreePolicyTest, ChildThatIsASureWinDecidesTheParent) {
  const NodeId root = Add(0, TwoPlayer(0.5f, 0));
  const NodeId unknown = Add(1, TwoPlayer(0.7f, 3));
  const NodeId small_win = Add(1, TwoPlayer(1.0f, 2), Proof::kExact);
  const NodeId big_win = Add(1, TwoPlayer(1.0f, 9), Proof::kExact);
  Expand(root, {unknown, small_win, big_win});
  EdgeOf(root, 0).visits.store(5);
  EdgeOf(root, 1).visits.store(1);
  EdgeOf(root, 2).visits.store(1);
  UpdateNode(graph_, graph_.node(root), kPlayers);
  EXPECT_EQ(graph_.node(root).proof.load(), Proof::kDecided);
  const Value q = graph_.node(root).q.Load();
  EXPECT_EQ(q.win[0], 1.0f);
  EXPECT_EQ(q.margin[0], 9.0f);  // the bigger sure margin
}

TEST_F(TreePolicyTest, AllChildrenExactMakeTheParentExact) {
  const NodeId root = Add(1, TwoPlayer(0.5f, 0));  // blue to move
  const NodeId loss = Add(0, TwoPlayer(1.0f, 5), Proof::kExact);
  const NodeId draw = Add(0, TwoPlayer(0.5f, 0), Proof::kExact);
  Expand(root, {loss, draw});
  UpdateNode(graph_, graph_.node(root), kPlayers);
  EXPECT_EQ(graph_.node(root).proof.load(), Proof::kExact);
  EXPECT_EQ(graph_.node(root).q.Load().win[1], 0.5f);  // blue takes the draw
}

TEST_F(TreePolicyTest, AnUnprovenChildKeepsTheParentOpen) {
  const NodeId root = Add(1, TwoPlayer(0.5f, 0));
  const NodeId loss = Add(0, TwoPlayer(1.0f, 5), Proof::kExact);
  Expand(root, {loss, kNoNode});
  EdgeOf(root, 0).visits.store(2);
  UpdateNode(graph_, graph_.node(root), kPlayers);
  EXPECT_EQ(graph_.node(root).proof.load(), Proof::kNone);
  EXPECT_NEAR(graph_.node(root).q.Load().win[0], (0.5 + 2 * 1.0) / 3, 1e-6);
}

TEST_F(TreePolicyTest, SelectionTriesEdgesInOrderOneAtATime) {
  const NodeId root = Add(0, TwoPlayer(0.5f, 0));
  Expand(root, {kNoNode, kNoNode, kNoNode}, 0.6f);
  EXPECT_EQ(graph_.node(root).tried.load(), 0);
  // Pending visits on the first edges send the next choices further down.
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(SelectEdge(graph_, graph_.node(root), 1.0), i);
    EXPECT_EQ(graph_.node(root).tried.load(), i + 1);
  }
  // Once all are tried, the least loaded edge comes back first.
  EdgeOf(root, 1).virtual_loss.store(0);
  EXPECT_EQ(SelectEdge(graph_, graph_.node(root), 1.0), 1);
  EXPECT_EQ(graph_.node(root).tried.load(), 3);
}

TEST_F(TreePolicyTest, AnUntriedEdgeKeepsTheParentUndecided) {
  const NodeId root = Add(1, TwoPlayer(0.5f, 0));
  const NodeId loss = Add(0, TwoPlayer(1.0f, 5), Proof::kExact);
  const NodeId draw = Add(0, TwoPlayer(0.5f, 0), Proof::kExact);
  Expand(root, {loss, draw});
  graph_.node(root).tried.store(1);  // as if `draw` were not linked yet
  UpdateNode(graph_, graph_.node(root), kPlayers);
  EXPECT_EQ(graph_.node(root).proof.load(), Proof::kNone);
}

// A root with six children, two visits each, its value recomputed: wide
// enough for AddVisit's incremental step (weight 13 is no multiple of 8).
class WideNodeTest : public TreePolicyTest {
 protected:
  void SetUp() override {
    root_ = Add(0, TwoPlayer(0.5f, 0));
    for (int i = 0; i < 6; ++i) {
      children_.push_back(Add(1, TwoPlayer(0.1f * (i + 2), i - 3)));
    }
    Expand(root_, children_);
    for (int i = 0; i < 6; ++i) EdgeOf(root_, i).visits.store(2);
    UpdateNode(graph_, graph_.node(root_), kPlayers);
    ASSERT_EQ(graph_.node(root_).weight.load(), 13);
  }
  // Gives child `i` a new value and backs one playout up through it.
  ValueChange VisitWithNewValue(int i, const Value& v) {
    Node& child = graph_.node(children_[i]);
    ValueChange change{child.q.Load(kPlayers), v};
    child.q.Store(v, kPlayers);
    EdgeOf(root_, i).virtual_loss.store(1);
    return AddVisit(graph_, graph_.node(root_), i, change, kPlayers);
  }

  NodeId root_ = kNoNode;
  std::vector<NodeId> children_;
};

TEST_F(WideNodeTest, IncrementalStepGivesTheFullRecomputesValue) {
  const Value before = graph_.node(root_).q.Load(kPlayers);
  const ValueChange change = VisitWithNewValue(2, TwoPlayer(0.9f, 12));
  EXPECT_EQ(change.before.win[0], before.win[0]);
  EXPECT_EQ(graph_.node(root_).weight.load(), 14);
  EXPECT_EQ(EdgeOf(root_, 2).visits.load(), 3);
  EXPECT_EQ(EdgeOf(root_, 2).virtual_loss.load(), 0);
  EXPECT_EQ(EdgeOf(root_, 2).utility.load(), TwoPlayer(0.9f, 12).Utility(0));
  UpdateNode(graph_, graph_.node(root_), kPlayers);  // the exact formula
  const Value full = graph_.node(root_).q.Load(kPlayers);
  EXPECT_NEAR(change.after.win[0], full.win[0], 1e-6);
  EXPECT_NEAR(change.after.win[1], full.win[1], 1e-6);
  EXPECT_NEAR(change.after.margin[0], full.margin[0], 1e-5);
  EXPECT_NEAR(change.after.margin[1], full.margin[1], 1e-5);
}

TEST_F(WideNodeTest, ATransposedChildsChangeWaitsForTheNextFullRecompute) {
  // Child 0 gains value through another parent: this root's edge and value
  // do not see it at once...
  graph_.node(children_[0]).q.Store(TwoPlayer(1.0f, 20), kPlayers);
  const float stale = EdgeOf(root_, 0).utility.load();
  VisitWithNewValue(1, graph_.node(children_[1]).q.Load(kPlayers));
  EXPECT_EQ(EdgeOf(root_, 0).utility.load(), stale);
  // ...until the visit that finds weight 16 recomputes the root in full.
  VisitWithNewValue(1, graph_.node(children_[1]).q.Load(kPlayers));
  VisitWithNewValue(1, graph_.node(children_[1]).q.Load(kPlayers));
  EXPECT_EQ(graph_.node(root_).weight.load(), 16);
  EXPECT_EQ(EdgeOf(root_, 0).utility.load(), stale);
  VisitWithNewValue(1, graph_.node(children_[1]).q.Load(kPlayers));
  EXPECT_EQ(graph_.node(root_).weight.load(), 17);
  EXPECT_EQ(EdgeOf(root_, 0).utility.load(), TwoPlayer(1.0f, 20).Utility(0));
  const float expected =
      (0.5f + 2 * 1.0f + 6 * 0.3f + 2 * (0.4f + 0.5f + 0.6f + 0.7f)) / 17;
  EXPECT_NEAR(graph_.node(root_).q.Load().win[0], expected, 1e-6);
}

TEST_F(WideNodeTest, AProvenChildDecidesTheParentAtOnce) {
  graph_.node(children_[4]).proof.store(Proof::kExact);
  VisitWithNewValue(4, TwoPlayer(1.0f, 7));
  EXPECT_EQ(graph_.node(root_).proof.load(), Proof::kDecided);
  EXPECT_EQ(graph_.node(root_).q.Load().margin[0], 7.0f);
  // Later visits elsewhere leave the decided value alone (no averaging).
  VisitWithNewValue(1, TwoPlayer(0.2f, -4));
  EXPECT_EQ(graph_.node(root_).proof.load(), Proof::kDecided);
  EXPECT_EQ(graph_.node(root_).q.Load().win[0], 1.0f);
  EXPECT_EQ(graph_.node(root_).q.Load().margin[0], 7.0f);
}

TEST_F(WideNodeTest, SelectionFollowsTheEdgesUtility) {
  // Equal priors and visits: the edge whose utility rose is chosen.
  VisitWithNewValue(3, TwoPlayer(0.95f, 5));
  for (int i = 0; i < 6; ++i) EdgeOf(root_, i).visits.store(3);
  EXPECT_EQ(SelectEdge(graph_, graph_.node(root_), 0.1), 3);
}

// Threads backing playouts up through one wide node at once: a visit's
// weight step may be lost to a race (the next full recompute restores it)
// but never counted twice, so the weight never exceeds 1 + the edges'
// visits. (A thread that read the weight after another's full recompute
// had counted its visit once added it again.)
TEST_F(WideNodeTest, ThreadedBackupsNeverCountAVisitTwice) {
  constexpr int kThreads = 4, kVisits = 50000;
  std::atomic<int> overcounts{0};
  auto visits = [this] {
    int64_t sum = 0;
    for (int i = 0; i < 6; ++i) sum += EdgeOf(root_, i).visits.load();
    return sum;
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < kVisits; ++k) {
        const int i = (t + k) % 6;
        const Value v = graph_.node(children_[i]).q.Load(kPlayers);
        EdgeOf(root_, i).virtual_loss.fetch_add(1);
        AddVisit(graph_, graph_.node(root_), i, ValueChange{v, v}, kPlayers);
        // Weight first: the visits only grow after it is read.
        const int32_t weight = graph_.node(root_).weight.load();
        if (weight > 1 + visits()) overcounts.fetch_add(1);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(overcounts.load(), 0);
  EXPECT_EQ(visits(), 12 + int64_t{kThreads} * kVisits);
}

}  // namespace
}  // namespace wallgo::search
