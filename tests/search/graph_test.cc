// The transposition graph: table lookups, collisions told apart by the
// check key, full arenas, and compaction keeping only what a root reaches.
#include "search/graph.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

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
  g.AttachEdges(g.node(parent), begin, static_cast<int>(children.size()));
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
  EXPECT_EQ(g.edge(n, 0).child.load(), a);
  EXPECT_EQ(g.edge(n, 1).child.load(), b);
  EXPECT_EQ(g.edge(n, 0).visits.load(), 2);
  EXPECT_EQ(g.edge(n, 1).visits.load(), 3);
  // The freed space is used again.
  EXPECT_NE(AddNode(g, 7, 7), kNoNode);
  EXPECT_EQ(g.Stats().nodes, 4);
}

TEST(GraphTest, RecyclingDropsTheLeastVisitedLinksAndRefreshesBottomUp) {
  Graph g(kOneMb);
  const NodeId root = AddNode(g, 1, 1);
  const NodeId a = AddNode(g, 2, 2), b = AddNode(g, 3, 3);
  const NodeId c = AddNode(g, 4, 4), d = AddNode(g, 5, 5);
  const NodeId e = AddNode(g, 6, 6), f = AddNode(g, 7, 7);
  AddNode(g, 8, 8);  // unreachable
  g.node(d).proof.store(Proof::kDecided);
  Link(g, root, {a, b}, {9, 1});     // the root's links are all kept
  Link(g, a, {c, d, f}, {6, 1, 1});  // d is proven: kept however visited
  Link(g, b, {e}, {1});
  // Room for 5 of the 8 nodes: links need 2 visits (or a proof) to stay.
  const double share = 5.5 / static_cast<double>(g.Stats().node_capacity);
  std::vector<uint64_t> refreshed;
  const RecycleReport report = g.Recycle(root, share, [&](Node& n) {
    refreshed.push_back(n.key);
    int32_t weight = 1;
    for (int i = 0; i < n.num_edges.load(); ++i) {
      weight += g.edge(n, i).visits.load();
    }
    n.weight.store(weight);
  });
  EXPECT_EQ(report.nodes_before, 8);
  EXPECT_EQ(report.nodes_after, 5);
  EXPECT_EQ(report.min_visits, 2);
  EXPECT_EQ(g.Find(1, 1), report.root);
  for (uint64_t kept : {2, 3, 4, 5}) EXPECT_NE(g.Find(kept, kept), kNoNode);
  for (uint64_t gone : {6, 7, 8}) EXPECT_EQ(g.Find(gone, gone), kNoNode);
  // A dropped link keeps its move but no child and no visits.
  Node& new_a = g.node(g.Find(2, 2));
  ASSERT_EQ(new_a.num_edges.load(), 3);
  EXPECT_EQ(g.edge(new_a, 0).child.load(), g.Find(4, 4));
  EXPECT_EQ(g.edge(new_a, 1).child.load(), g.Find(5, 5));
  EXPECT_EQ(g.edge(new_a, 2).child.load(), kNoNode);
  EXPECT_EQ(g.edge(new_a, 2).visits.load(), 0);
  EXPECT_EQ(g.edge(new_a, 2).move, Move::Place(2));
  EXPECT_EQ(new_a.weight.load(), 1 + 6 + 1);
  EXPECT_EQ(g.node(g.Find(3, 3)).weight.load(), 1);
  // Every kept node once, children before parents.
  ASSERT_EQ(refreshed.size(), 5u);
  auto at = [&refreshed](uint64_t key) {
    return std::find(refreshed.begin(), refreshed.end(), key) -
           refreshed.begin();
  };
  EXPECT_LT(at(4), at(2));
  EXPECT_LT(at(5), at(2));
  EXPECT_LT(at(2), at(1));
  EXPECT_LT(at(3), at(1));
}

TEST(GraphTest, ChunksOfEdgesAreAddressedWhereverTheyLie) {
  Graph g(kOneMb);
  Node& n = g.node(AddNode(g, 1, 1));
  n.num_moves.store(30);
  // Three chunks, allocated apart, with other edges in between.
  int64_t begin[kNumChunks];
  for (int k = 0; k < kNumChunks; ++k) {
    begin[k] = g.AllocateEdges(ChunkSize(k, 30));
    ASSERT_GE(g.AllocateEdges(3), 0);
    for (int i = 0; i < ChunkSize(k, 30); ++i) {
      g.edge(begin[k] + i).Init(Move::Place(kChunkStart[k] + i), 0, 0);
    }
    g.AttachChunk(n, k, begin[k], kChunkStart[k] + ChunkSize(k, 30));
  }
  EXPECT_EQ(ChunkSize(0, 30), 4);
  EXPECT_EQ(ChunkSize(1, 30), 16);
  EXPECT_EQ(ChunkSize(2, 30), 10);
  EXPECT_EQ(ChunkSize(1, 3), 0);
  ASSERT_EQ(n.num_edges.load(), 30);
  for (int i = 0; i < 30; ++i) EXPECT_EQ(g.edge(n, i).move, Move::Place(i));
  // A chunk at a time, the same edges in the same order, for any prefix
  // (selection reads up to the first untried edge).
  for (int count : {0, 1, 4, 5, 20, 21, 30}) {
    std::vector<int> seen;
    g.ForEachEdge(n, count, [&](int i, Edge& e) {
      EXPECT_EQ(&e, &g.edge(n, i));
      seen.push_back(i);
    });
    std::vector<int> expected(count);
    std::iota(expected.begin(), expected.end(), 0);
    EXPECT_EQ(seen, expected) << count << " edges";
  }
  // Compaction moves the chunks together and keeps them addressable.
  const NodeId moved = g.Compact(g.Find(1, 1));
  EXPECT_EQ(g.Stats().edges, 30);
  for (int i = 0; i < 30; ++i) {
    EXPECT_EQ(g.edge(g.node(moved), i).move, Move::Place(i));
  }
}

// Two threads' arenas, interleaved: every id and every edge is handed out
// once, and each arena takes a block from the graph at a time.
TEST(ThreadArenaTest, BlocksHandEachThreadItsOwnIdsAndEdges) {
  Graph g(16 * kOneMb);
  ThreadArena a(/*blocks=*/true), b(/*blocks=*/true);
  std::set<NodeId> ids;
  std::vector<std::pair<int64_t, int>> ranges;  // (first edge, count)
  NodeId last_of_a = kNoNode;
  for (int i = 0; i < 3 * ThreadArena::kNodeBlock; ++i) {
    const NodeId from_a = a.AllocateNode(g), from_b = b.AllocateNode(g);
    ASSERT_NE(from_a, kNoNode);
    ASSERT_NE(from_b, kNoNode);
    EXPECT_TRUE(ids.insert(from_a).second) << from_a;
    EXPECT_TRUE(ids.insert(from_b).second) << from_b;
    // Within a block, one thread's ids follow each other.
    if (i % ThreadArena::kNodeBlock != 0) {
      EXPECT_EQ(from_a, last_of_a + 1);
    }
    last_of_a = from_a;
    for (const int n : {4, 16, 40}) {
      for (ThreadArena* arena : {&a, &b}) {
        const int64_t first = arena->AllocateEdges(g, n);
        ASSERT_GE(first, 0);
        ranges.push_back({first, n});
      }
    }
  }
  // The graph's counter moved a block at a time (one of each arena's
  // three is in use), not once a node.
  EXPECT_EQ(g.Stats().nodes, 6 * ThreadArena::kNodeBlock);
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) {
    EXPECT_GE(ranges[i].first, ranges[i - 1].first + ranges[i - 1].second);
  }
}

// Without blocks (one thread) an arena is the graph's own counter.
TEST(ThreadArenaTest, WithoutBlocksIdsComeOneAtATime) {
  Graph g(kOneMb);
  ThreadArena arena;
  EXPECT_EQ(arena.AllocateNode(g), 1u);
  EXPECT_EQ(arena.AllocateNode(g), 2u);
  EXPECT_EQ(arena.AllocateEdges(g, 4), 0);
  EXPECT_EQ(arena.AllocateEdges(g, 4), 4);
  EXPECT_EQ(g.Stats().nodes, 2);
  EXPECT_EQ(g.Stats().edges, 8);
}

TEST(ThreadArenaTest, AnIdHandedBackComesOutNext) {
  Graph g(kOneMb);
  ThreadArena arena(/*blocks=*/true);
  const NodeId id = arena.AllocateNode(g);
  arena.Unused(id);
  EXPECT_EQ(arena.AllocateNode(g), id);
  EXPECT_EQ(arena.AllocateNode(g), id + 1);
}

// A compaction moves the nodes in use down over the ids a block had left;
// the arena must not hand those out again, nor an id it was handed back.
TEST(ThreadArenaTest, NothingTakenBeforeACompactionIsHandedOutAfterIt) {
  Graph g(kOneMb);
  ThreadArena arena(/*blocks=*/true);
  std::vector<NodeId> chain;
  for (uint64_t key = 1; key <= 4; ++key) {
    const NodeId id = arena.AllocateNode(g);
    g.node(id).Init(key, key, 0, Value{}, Proof::kNone);
    ASSERT_EQ(g.Publish(id), id);
    chain.push_back(id);
  }
  for (size_t i = 0; i + 1 < chain.size(); ++i) {
    Link(g, chain[i], {chain[i + 1]}, {1});
  }
  const NodeId unused = arena.AllocateNode(g);
  arena.Unused(unused);
  const NodeId root = g.Compact(chain[1]);  // keeps keys 2, 3, 4
  std::set<NodeId> live;
  for (uint64_t key = 2; key <= 4; ++key) live.insert(g.Find(key, key));
  ASSERT_EQ(live.size(), 3u);
  ASSERT_TRUE(live.count(root));
  const NodeId fresh = arena.AllocateNode(g);
  EXPECT_EQ(live.count(fresh), 0u) << fresh;
  EXPECT_EQ(fresh, 4u);  // the first id after the three kept
  g.Clear();
  EXPECT_EQ(arena.AllocateNode(g), 1u);
}

// Near the end of the arenas a block no longer fits, and the last ids and
// edges are still handed out, one request at a time.
TEST(ThreadArenaTest, AFullGraphIsFilledToTheLastId) {
  Graph g(kOneMb);
  ThreadArena arena(/*blocks=*/true);
  const GraphStats empty = g.Stats();
  int64_t nodes = 0;
  while (arena.AllocateNode(g) != kNoNode) ++nodes;
  EXPECT_EQ(nodes, empty.node_capacity);
  int64_t edges = 0;
  while (arena.AllocateEdges(g, 4) >= 0) edges += 4;
  EXPECT_LE(edges, empty.edge_capacity);
  EXPECT_GT(edges + 4, empty.edge_capacity);
}

// The tables probed at random take whole huge pages (aligned to one) when
// they span one, and every object is made as its type says, whatever the
// memory held before.
TEST(HugePagesTest, TablesAreAlignedAndEveryObjectIsMade) {
  struct Slot {
    uint64_t key = 0;
    int value = 7;
  };
  for (const size_t count : {size_t{3}, (kHugePageBytes * 3) / sizeof(Slot)}) {
    const auto slots = AllocateHugePages<Slot>(count);
    const auto at = reinterpret_cast<uintptr_t>(slots.get());
    EXPECT_EQ(at % (count * sizeof(Slot) >= kHugePageBytes ? kHugePageBytes
                                                           : alignof(Slot)),
              0u);
    EXPECT_TRUE(std::all_of(slots.get(), slots.get() + count,
                            [](const Slot& s) { return s.value == 7; }));
  }
}

}  // namespace
}  // namespace wallgo::search
