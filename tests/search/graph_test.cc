// The transposition graph: table lookups, collisions told apart by the
// check key, full arenas, and compaction keeping only what a root reaches.
#include "search/graph.h"

#include <set>

#include "absl/status/statusor.h"
#include "engine/notation.h"
#include "gtest/gtest.h"

namespace wallgo::search {
namespace {

constexpr size_t kOneMb = size_t{1} << 20;

NodeId AddNode(Graph& g, uint64_t key, uint64_t check) {
  const NodeId id = g.Allocate();
  EXPECT_NE(id, kNoNode);
  g.node(id).Init(key, check, 0, Value{}, Proof::kNone);
  return g.Publish(id);
}

// Gives `parent` edges to `children` (one edge each, visits as given).
void Link(Graph& g, NodeId parent, const std::vector<NodeId>& children,
          const std::vector<int>& visits) {
  const int64_t begin = g.AllocateEdges(static_cast<int>(children.size()));
  ASSERT_GE(begin, 0);
  for (size_t i = 0; i < children.size(); ++i) {
    Edge& e = g.edge(begin + i);
    e.Init(Move::Place(static_cast<int>(i)), 0.5f, 0.0f);
    e.child.store(children[i]);
    e.visits.store(visits[i]);
  }
  Node& n = g.node(parent);
  n.edge_begin.store(static_cast<uint32_t>(begin));
  n.num_edges.store(static_cast<uint16_t>(children.size()));
  n.expand_state.store(ExpandState::kExpanded);
}

TEST(GraphTest, InsertThenFindByKeyAndCheck) {
  Graph g(kOneMb);
  const NodeId a = AddNode(g, 0x1234, 77);
  const NodeId b = AddNode(g, 0x5678, 88);
  EXPECT_NE(a, b);
  EXPECT_EQ(g.Find(0x1234, 77), a);
  EXPECT_EQ(g.Find(0x5678, 88), b);
  EXPECT_EQ(g.Find(0x9999, 77), kNoNode);
  EXPECT_EQ(g.Stats().nodes, 2);
}

TEST(GraphTest, PublishingAKnownPositionReturnsTheExistingNode) {
  Graph g(kOneMb);
  const NodeId first = AddNode(g, 42, 1);
  const NodeId spare = g.Allocate();
  g.node(spare).Init(42, 1, 0, Value{}, Proof::kNone);
  EXPECT_EQ(g.Publish(spare), first);
}

TEST(GraphTest, SameKeyDifferentCheckIsACollisionNotAMatch) {
  Graph g(kOneMb);
  const NodeId a = AddNode(g, 0xABCDEF, 1);
  EXPECT_EQ(g.Find(0xABCDEF, 2), kNoNode);
  EXPECT_GT(g.Stats().key_collisions, 0);
  const NodeId b = AddNode(g, 0xABCDEF, 2);
  EXPECT_NE(a, b);
  EXPECT_EQ(g.Find(0xABCDEF, 1), a);
  EXPECT_EQ(g.Find(0xABCDEF, 2), b);
}

TEST(GraphTest, CheckKeyTellsPositionsApart) {
  const Position start = *Position::Start(Rules::Default(2));
  Position a = start, b = start;
  a.Play(Move::Place(CellOf(3, 3)));
  b.Play(Move::Place(CellOf(2, 3)));
  EXPECT_NE(PositionCheck(a), PositionCheck(b));
  EXPECT_EQ(PositionCheck(a), PositionCheck(a));
  // Transposed placements reach the same position and the same check.
  Position c = *Position::Start(Rules::Default(2));
  c.Play(Move::Place(CellOf(0, 3)));  // red
  c.Play(Move::Place(CellOf(1, 3)));  // blue
  c.Play(Move::Place(CellOf(2, 3)));  // blue
  Position d = *Position::Start(Rules::Default(2));
  d.Play(Move::Place(CellOf(0, 3)));
  d.Play(Move::Place(CellOf(2, 3)));
  d.Play(Move::Place(CellOf(1, 3)));
  EXPECT_EQ(c.hash(), d.hash());
  EXPECT_EQ(PositionCheck(c), PositionCheck(d));
}

TEST(GraphTest, FullArenasRefuseInsteadOfGrowing) {
  Graph g(kOneMb);
  const GraphStats empty = g.Stats();
  EXPECT_LE(empty.bytes, static_cast<int64_t>(kOneMb));
  int64_t allocated = 0;
  while (g.Allocate() != kNoNode) ++allocated;
  EXPECT_EQ(allocated, empty.node_capacity);
  EXPECT_EQ(g.Allocate(), kNoNode);
  int64_t edges = 0;
  while (g.AllocateEdges(100) >= 0) edges += 100;
  EXPECT_LE(edges, empty.edge_capacity);
  EXPECT_GT(edges + 100, empty.edge_capacity);
  EXPECT_EQ(g.Stats().bytes, empty.bytes);
}

TEST(GraphTest, CompactKeepsExactlyWhatTheNewRootReaches) {
  Graph g(kOneMb);
  const NodeId root = AddNode(g, 1, 1);
  const NodeId other = AddNode(g, 2, 2);
  const NodeId kept = AddNode(g, 3, 3);
  const NodeId leaf_a = AddNode(g, 4, 4);
  const NodeId leaf_b = AddNode(g, 5, 5);
  const NodeId orphan = AddNode(g, 6, 6);
  Link(g, root, {other, kept}, {5, 7});
  Link(g, other, {leaf_a}, {4});
  Link(g, kept, {leaf_a, leaf_b}, {2, 3});  // leaf_a is a transposition
  (void)orphan;
  const NodeId new_root = g.Compact(kept);
  EXPECT_EQ(g.Stats().nodes, 3);
  EXPECT_EQ(g.Stats().edges, 2);
  EXPECT_EQ(g.Find(3, 3), new_root);
  EXPECT_EQ(g.Find(1, 1), kNoNode);
  EXPECT_EQ(g.Find(2, 2), kNoNode);
  EXPECT_EQ(g.Find(6, 6), kNoNode);
  const NodeId a = g.Find(4, 4), b = g.Find(5, 5);
  ASSERT_NE(a, kNoNode);
  ASSERT_NE(b, kNoNode);
  Node& n = g.node(new_root);
  ASSERT_EQ(n.num_edges.load(), 2);
  EXPECT_EQ(g.edges(n)[0].child.load(), a);
  EXPECT_EQ(g.edges(n)[1].child.load(), b);
  EXPECT_EQ(g.edges(n)[0].visits.load(), 2);
  EXPECT_EQ(g.edges(n)[1].visits.load(), 3);
  // The freed space is used again.
  EXPECT_NE(AddNode(g, 7, 7), kNoNode);
  EXPECT_EQ(g.Stats().nodes, 4);
}

}  // namespace
}  // namespace wallgo::search
