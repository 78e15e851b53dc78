// The search graph: nodes (one per position, found by key in a transposition
// table) and their outgoing edges, in fixed arenas sized from the hash
// option. Positions reached by different move orders share one node; visit
// counts live on edges (KataGo's GraphSearch.md).
//
// Edges are allocated lazily, in prior order: a node gets its first
// 4 edges when it is expanded and the next chunk only once all it has
// were tried (KataGo and the Amazons programs allocate edges for the
// moves the search reaches, in policy order). Chunks never move during a
// search, so a thread may read a node's edges while another adds a chunk.
//
// Concurrency: any number of search threads may call Find, Create and
// AllocateEdges at once. A node is published in the table only after its
// key, check and evaluation are written (release CAS, acquire loads); a
// chunk is published by storing `num_edges` (release) after it is built.
// Compact, Recycle and Clear must run with no search thread touching the graph.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <new>
#include <type_traits>

#include "engine/position.h"
#include "search/huge_pages.h"
#include "search/value.h"

namespace wallgo::search {

using NodeId = uint32_t;
inline constexpr NodeId kNoNode = 0;  // slot 0 of the arena is never used

// How much of the result is known for sure.
enum class Proof : uint8_t {
  kNone,     // estimate only
  kDecided,  // the win probabilities are certain (margins may improve)
  kExact,    // the whole value is exact (finished game, or all children)
};

// A node's edges come in three chunks: [0, 4), [4, 20) and [20, moves).
// Most nodes are tried once or twice, so the first chunk is small; the few
// that are searched widely take all their moves at the third.
inline constexpr int kNumChunks = 3;
inline constexpr int kChunkStart[kNumChunks] = {0, 4, 20};
inline int ChunkOf(int edge_index) {
  return edge_index < kChunkStart[1] ? 0 : edge_index < kChunkStart[2] ? 1 : 2;
}
// Edges in chunk `chunk` of a node with `moves` legal moves.
inline int ChunkSize(int chunk, int moves) {
  const int end = chunk + 1 < kNumChunks ? kChunkStart[chunk + 1] : moves;
  return std::max(0, std::min(end, moves) - kChunkStart[chunk]);
}

struct Edge {
  Move move;
  float prior = 0;
  // The mover's utility of this move, all selection reads: the first-play
  // estimate until the child is visited, then the child's value as the last
  // backup through this edge (or the parent's last full recompute) saw it,
  // so that choosing an edge never reads the children's nodes.
  std::atomic<float> utility{0};
  std::atomic<NodeId> child{kNoNode};
  std::atomic<int32_t> visits{0};
  std::atomic<int32_t> virtual_loss{0};

  void Init(Move m, float p, float fpu);
  void MoveFrom(Edge& other);
};

// Read-mostly fields fill the first cache line; the value, which every
// playout through the node rewrites, has the second to itself, so that
// threads reading a node's edges do not keep losing its line to each other.
// A node gets its first chunk of edges when a playout passes it the second
// time (or at creation, with MctsConfig::expand_at_creation).
struct alignas(64) Node {
  uint64_t key = 0;
  uint64_t check = 0;  // an independent fingerprint: collisions are detected
  Value eval;          // U(n): the leaf evaluation, fixed at creation
  std::atomic<uint32_t> chunk0{0};     // index of the first chunk's edges
  std::atomic<uint16_t> num_edges{0};  // edges allocated; published last
  // Edges [0, tried) have been chosen at least once (or were, before a
  // recycling dropped their child). The rest have no child and no visit,
  // and are sorted so that the first of them scores best (tree_policy.h):
  // selection and backup never need to read past it.
  std::atomic<uint16_t> tried{0};
  // Legal moves (edges once all chunks are in), known once the first chunk
  // is built; a node without edges that is not finished is unexpanded.
  std::atomic<uint16_t> num_moves{0};
  std::atomic<bool> growing{false};  // a thread is adding a chunk
  std::atomic<Proof> proof{Proof::kNone};
  uint8_t to_move = 0;
  alignas(64) AtomicValue q;  // recomputed from the children (or the proof)
  // 1 + the visits of the edges as q last counted them (the weight of q).
  std::atomic<int32_t> weight{1};
  std::atomic<uint32_t> chunk1{0}, chunk2{0};  // the later chunks' edges
  uint32_t forward = 0;  // compaction scratch: new id of a live node

  std::atomic<uint32_t>& chunk(int k) {
    return k == 0 ? chunk0 : k == 1 ? chunk1 : chunk2;
  }
  const std::atomic<uint32_t>& chunk(int k) const {
    return k == 0 ? chunk0 : k == 1 ? chunk1 : chunk2;
  }

  void Init(uint64_t k, uint64_t c, int mover, const Value& value, Proof p,
            int moves = 0);
  void MoveFrom(Node& other);
};
static_assert(sizeof(Node) == 128, "a node takes two cache lines");

// A second 64-bit key of a position, built from its raw parts with a
// different mixing than the Zobrist key, so that two positions sharing a
// Zobrist key are told apart.
uint64_t PositionCheck(const Position& pos);

struct GraphStats {
  int64_t nodes = 0;  // nodes in use
  int64_t edges = 0;  // edges in use
  int64_t node_capacity = 0;
  int64_t edge_capacity = 0;
  int64_t bytes = 0;           // memory held by arenas and table
  int64_t key_collisions = 0;  // same key, different check, seen so far
};

// What a recycling kept.
struct RecycleReport {
  NodeId root = kNoNode;  // the root's new id
  int64_t nodes_before = 0, nodes_after = 0;
  int64_t edges_before = 0, edges_after = 0;
  int32_t min_visits = 1;  // links through fewer edge visits were dropped
};

// Room for `count` T's taken as zero pages from the system (calloc), so
// that reserving a large hash costs nothing until the search uses it: that
// time is then counted inside the search's own clock. Each T is constructed
// when it is first handed out (Construct); T must not need destroying.
template <typename T>
class LazyArray {
  static_assert(std::is_trivially_destructible_v<T>);

 public:
  explicit LazyArray(size_t count)
      : raw_(std::calloc(count * sizeof(T) + alignof(T), 1)) {
    if (raw_ == nullptr) throw std::bad_alloc();
    AdviseHugePages(raw_, count * sizeof(T));
    const auto at = reinterpret_cast<uintptr_t>(raw_);
    data_ =
        reinterpret_cast<T*>((at + alignof(T) - 1) / alignof(T) * alignof(T));
  }
  ~LazyArray() { std::free(raw_); }
  LazyArray(const LazyArray&) = delete;
  LazyArray& operator=(const LazyArray&) = delete;

  void Construct(size_t i) { new (&data_[i]) T; }
  T& operator[](size_t i) const { return data_[i]; }
  T* get() const { return data_; }

 private:
  void* raw_;  // what calloc gave; data_ is raw_ rounded up to alignof(T)
  T* data_;
};

class Graph {
 public:
  // Arenas and table together take at most `bytes`.
  explicit Graph(size_t bytes) : Graph(Layout::For(bytes)) {}
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // The node of (key, check), or kNoNode.
  NodeId Find(uint64_t key, uint64_t check) const;

  // Reserves a fresh node id (kNoNode when the node arena is full). The
  // caller initialises it and then calls Publish.
  NodeId Allocate() { return AllocateNodes(1); }
  // Reserves `count` consecutive fresh node ids, each constructed empty, and
  // returns the first; kNoNode when fewer than `count` are left.
  NodeId AllocateNodes(int count);
  // Puts the initialised node `id` into the table. When another thread
  // published the same position first, returns that node instead, and `id`
  // stays unused: the caller may initialise and publish it again later.
  NodeId Publish(NodeId id);

  // Reserves `n` consecutive edges; returns their first index, or -1 when
  // fewer than `n` are left.
  int64_t AllocateEdges(int n);
  // Changes whenever ids and edges handed out before may be in use again or
  // have moved (Clear, Compact, Recycle), all with no search thread running.
  int64_t epoch() const { return epoch_.load(std::memory_order_relaxed); }
  // Makes the edges at `begin` chunk `chunk` of `n` and publishes n's first
  // `edges` edges (release): the caller has initialised them.
  void AttachChunk(Node& n, int chunk, int64_t begin, int edges);
  // Attaches `count` consecutive edges at `begin` as n's chunks, and all
  // its moves, for nodes built by hand (tests): edges already initialised.
  void AttachEdges(Node& n, int64_t begin, int count);

  Node& node(NodeId id) { return nodes_[id]; }
  const Node& node(NodeId id) const { return nodes_[id]; }
  // Edge `i` of `n` (i < n.num_edges).
  Edge& edge(const Node& n, int i) {
    const int k = ChunkOf(i);
    return edges_[n.chunk(k).load(std::memory_order_relaxed) + i -
                  kChunkStart[k]];
  }
  Edge& edge(int64_t index) { return edges_[index]; }
  // Calls f(i, edge i) for n's edges [0, count) (count <= n.num_edges), a
  // chunk at a time: a chunk's edges lie together, so the loop finds each
  // chunk once instead of once an edge (selection reads up to ~150 edges a
  // node).
  template <typename F>
  void ForEachEdge(const Node& n, int count, F&& f) {
    for (int k = 0; k < kNumChunks && kChunkStart[k] < count; ++k) {
      Edge* chunk = &edges_[n.chunk(k).load(std::memory_order_relaxed)];
      const int begin = kChunkStart[k];
      const int end =
          k + 1 < kNumChunks ? std::min(count, kChunkStart[k + 1]) : count;
      for (int i = begin; i < end; ++i) f(i, chunk[i - begin]);
    }
  }

  // Keeps only the nodes reachable from `root` and returns root's new id;
  // the rest is reclaimed (mark, then slide nodes and edge blocks down).
  NodeId Compact(NodeId root);
  // Frees the least useful part of the graph so that at most `keep_share`
  // of either arena stays in use: what `root` does not reach, then the
  // children linked only through edges with fewer than T visits, T the
  // smallest power of two that fits (the root's links, and links into or
  // out of proven nodes, are always kept). An edge whose child is dropped
  // loses its visits too (it keeps its move, prior and last utility), and
  // `refresh` is then called on every kept node, children before parents,
  // to recompute its value from what it still links to: every kept value
  // weighs exactly the visits of its edges again.
  RecycleReport Recycle(NodeId root, double keep_share,
                        const std::function<void(Node&)>& refresh);
  void Clear();
  GraphStats Stats() const;

 private:
  // How `bytes` are shared out between nodes, table slots and edges.
  struct Layout {
    int64_t nodes;
    int64_t edges;
    size_t slots;  // a power of two, at least twice the nodes
    static Layout For(size_t bytes);
  };
  explicit Graph(const Layout& layout);

  // Ids handed out so far (the counter may run past the capacity when
  // threads race for the last ones).
  int64_t UsedIds() const {
    return std::min(nodes_used_.load(std::memory_order_relaxed),
                    node_capacity_);
  }
  size_t SlotOf(uint64_t key) const { return (key >> 17) & slot_mask_; }
  uint32_t LoadSlot(size_t i) const;
  // Marks (forward = 1) what `root` reaches through links kept at
  // `min_visits`; returns the nodes and edges marked.
  std::pair<int64_t, int64_t> Mark(NodeId root, int32_t min_visits);
  void Unmark();
  NodeId Relocate(NodeId root);
  void SlideEdgeBlocks();
  void SlideNodes();
  void RefreshBottomUp(NodeId root, const std::function<void(Node&)>& refresh);
  void RebuildTable();

  int64_t node_capacity_ = 0;
  int64_t edge_capacity_ = 0;
  size_t slot_mask_ = 0;
  std::atomic<int64_t> epoch_{0};
  LazyArray<Node> nodes_;
  LazyArray<Edge> edges_;
  LazyArray<uint32_t> slots_;  // node ids (0: empty), used via atomic_ref
  // Each on its own cache line: every thread bumps them (a block at a time,
  // through a ThreadArena, when several do).
  alignas(64) std::atomic<int64_t> nodes_used_{1};
  alignas(64) std::atomic<int64_t> edges_used_{0};
  alignas(64) mutable std::atomic<int64_t> collisions_{0};
};

// One search thread's supply of node ids and edges. With several threads
// it takes them from the graph a block at a time: every playout creates a
// node and most add a chunk of edges, and a counter that every thread bumps
// on every playout moves its cache line from core to core each time (about
// 2% of a playout's CPU at two threads; docs/search.md, "Arena blocks").
// A block's rest is dropped when the graph's epoch changes, and the next
// compaction reclaims it. With one thread it takes one at a time, as the
// graph alone would.
class ThreadArena {
 public:
  static constexpr int kNodeBlock = 64;
  static constexpr int kEdgeBlock = 1024;
  // Larger requests (a widely searched node's later chunks, rare) go to the
  // graph itself, so that a block's unusable rest stays under this.
  static constexpr int kMostEdgesFromBlock = 16;

  explicit ThreadArena(bool blocks = false) : blocks_(blocks) {}

  // A fresh node id (the one given back by Unused first), or kNoNode when
  // the node arena is full.
  NodeId AllocateNode(Graph& graph);
  // Hands back `id`, allocated here but never published (another thread
  // published its position first), for the next AllocateNode.
  void Unused(NodeId id) { spare_ = id; }
  // `n` consecutive fresh edges; their first index, or -1 when the edge
  // arena is full.
  int64_t AllocateEdges(Graph& graph, int n);

 private:
  // Drops what was taken before the graph's epoch changed.
  void Sync(const Graph& graph);

  bool blocks_;
  int64_t epoch_ = -1;
  NodeId spare_ = kNoNode;
  int64_t next_node_ = 0, end_node_ = 0;  // the node block left: [next, end)
  int64_t next_edge_ = 0, end_edge_ = 0;  // the edge block left
};

}  // namespace wallgo::search
