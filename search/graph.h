// The search graph: nodes (one per position, found by key in a transposition
// table) and their outgoing edges, in fixed arenas sized from the hash
// option. Positions reached by different move orders share one node; visit
// counts live on edges (KataGo's GraphSearch.md).
//
// Concurrency: any number of search threads may call Find, Create and
// AllocateEdges at once. A node is published in the table only after its
// key, check and evaluation are written (release CAS, acquire loads); a
// node's edges are published by storing `num_edges` (release) after they are
// built. Nodes are never freed during a search. Compact and Clear must run
// with no search thread alive.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>

#include "engine/position.h"
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

enum class ExpandState : uint8_t { kUnexpanded, kExpanding, kExpanded };

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
struct alignas(64) Node {
  uint64_t key = 0;
  uint64_t check = 0;  // an independent fingerprint: collisions are detected
  Value eval;          // U(n): the leaf evaluation, fixed at creation
  std::atomic<uint32_t> edge_begin{0};
  std::atomic<uint16_t> num_edges{0};  // published last
  // Edges [0, tried) have been chosen at least once. The rest have no child
  // and no visit, and are sorted so that the first of them scores best
  // (tree_policy.h): selection and backup never need to read past it.
  std::atomic<uint16_t> tried{0};
  std::atomic<ExpandState> expand_state{ExpandState::kUnexpanded};
  std::atomic<Proof> proof{Proof::kNone};
  uint8_t to_move = 0;
  uint32_t forward = 0;       // compaction scratch: new id of a live node
  alignas(64) AtomicValue q;  // recomputed from the children (or the proof)
  // 1 + the visits of the edges as q last counted them (the weight of q).
  std::atomic<int32_t> weight{1};

  void Init(uint64_t k, uint64_t c, int mover, const Value& value, Proof p);
  void MoveFrom(Node& other);
};

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
  NodeId Allocate();
  // Puts the initialised node `id` into the table. When another thread
  // published the same position first, returns that node instead, and `id`
  // stays unused: the caller may initialise and publish it again later.
  NodeId Publish(NodeId id);

  // Reserves `n` consecutive edges; returns their first index, or -1 when
  // the edge arena is full.
  int64_t AllocateEdges(int n);

  Node& node(NodeId id) { return nodes_[id]; }
  const Node& node(NodeId id) const { return nodes_[id]; }
  Edge* edges(const Node& n) {
    return &edges_[n.edge_begin.load(std::memory_order_relaxed)];
  }
  Edge& edge(int64_t index) { return edges_[index]; }

  // Keeps only the nodes reachable from `root` and returns root's new id;
  // the rest is reclaimed (mark, then slide nodes and edge blocks down).
  NodeId Compact(NodeId root);
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
  size_t Mark(NodeId root);
  void SlideEdgeBlocks();
  void SlideNodes();
  void RebuildTable();

  int64_t node_capacity_ = 0;
  int64_t edge_capacity_ = 0;
  size_t slot_mask_ = 0;
  LazyArray<Node> nodes_;
  LazyArray<Edge> edges_;
  LazyArray<uint32_t> slots_;  // node ids (0: empty), used via atomic_ref
  // Each on its own cache line: every thread bumps them.
  alignas(64) std::atomic<int64_t> nodes_used_{1};
  alignas(64) std::atomic<int64_t> edges_used_{0};
  alignas(64) mutable std::atomic<int64_t> collisions_{0};
};

}  // namespace wallgo::search
