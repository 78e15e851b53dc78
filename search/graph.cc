#include "search/graph.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>
#include <vector>

#include "engine/movegen.h"
#include "engine/zobrist.h"

namespace wallgo::search {
namespace {

// Share of the memory given to nodes (plus their table slots); the rest holds
// edges. With lazy edges a node holds its first chunk of 4 edges (24 bytes
// each) and rarely more: measured (docs/search.md) about 5 edges a node.
constexpr double kNodeShare = 0.5;
constexpr size_t kSlotBytesPerNode = 4 * sizeof(uint32_t);  // <= 4 slots each

}  // namespace

void Edge::Init(Move m, float p, float fpu) {
  move = m;
  prior = p;
  utility.store(fpu, std::memory_order_relaxed);
  child.store(kNoNode, std::memory_order_relaxed);
  visits.store(0, std::memory_order_relaxed);
  virtual_loss.store(0, std::memory_order_relaxed);
}

void Edge::MoveFrom(Edge& other) {
  Init(other.move, other.prior, other.utility.load(std::memory_order_relaxed));
  child.store(other.child.load(std::memory_order_relaxed),
              std::memory_order_relaxed);
  visits.store(other.visits.load(std::memory_order_relaxed),
               std::memory_order_relaxed);
}

void Node::Init(uint64_t k, uint64_t c, int mover, const Value& value, Proof p,
                int moves) {
  key = k;
  check = c;
  eval = value;
  q.Store(value);
  weight.store(1, std::memory_order_relaxed);
  for (int i = 0; i < kNumChunks; ++i)
    chunk(i).store(0, std::memory_order_relaxed);
  num_edges.store(0, std::memory_order_relaxed);
  tried.store(0, std::memory_order_relaxed);
  num_moves.store(static_cast<uint16_t>(moves), std::memory_order_relaxed);
  growing.store(false, std::memory_order_relaxed);
  proof.store(p, std::memory_order_relaxed);
  to_move = static_cast<uint8_t>(mover);
  forward = 0;
}

void Node::MoveFrom(Node& other) {
  Init(other.key, other.check, other.to_move, other.eval,
       other.proof.load(std::memory_order_relaxed),
       other.num_moves.load(std::memory_order_relaxed));
  q.Store(other.q.Load());
  weight.store(other.weight.load(std::memory_order_relaxed),
               std::memory_order_relaxed);
  for (int i = 0; i < kNumChunks; ++i) {
    chunk(i).store(other.chunk(i).load(std::memory_order_relaxed),
                   std::memory_order_relaxed);
  }
  num_edges.store(other.num_edges.load(std::memory_order_relaxed),
                  std::memory_order_relaxed);
  tried.store(other.tried.load(std::memory_order_relaxed),
              std::memory_order_relaxed);
}

uint64_t PositionCheck(const Position& pos) {
  uint64_t h = 0x5EA4C4ECULL;
  auto mix = [&h](uint64_t x) {
    h = zobrist::SplitMix64(h ^ (x * 0xD6E8FEB86659FD93ULL));
  };
  for (int p = 0; p < pos.num_players(); ++p) {
    const Colour c = ColourAt(p);
    mix(pos.stones(c));
    mix(pos.walls_of(c).north);
    mix(pos.walls_of(c).east);
    mix(static_cast<uint64_t>(pos.breakers_left(c)));
  }
  mix(static_cast<uint64_t>(Index(pos.to_move())) << 8 |
      static_cast<uint64_t>(pos.placements_done()));
  return h;
}

Graph::Layout Graph::Layout::For(size_t bytes) {
  const size_t node_bytes = sizeof(Node) + kSlotBytesPerNode;
  Layout layout;
  layout.nodes = std::max<int64_t>(
      16, static_cast<int64_t>(bytes * kNodeShare / node_bytes));
  layout.slots = std::bit_ceil(static_cast<size_t>(2 * layout.nodes));
  const int64_t used =
      layout.nodes * sizeof(Node) + layout.slots * sizeof(uint32_t);
  layout.edges = std::max<int64_t>(512, (static_cast<int64_t>(bytes) - used) /
                                            static_cast<int64_t>(sizeof(Edge)));
  return layout;
}

Graph::Graph(const Layout& layout)
    : node_capacity_(layout.nodes),
      edge_capacity_(layout.edges),
      slot_mask_(layout.slots - 1),
      nodes_(layout.nodes),
      edges_(layout.edges),
      slots_(layout.slots) {}  // zeroed: every slot empty

uint32_t Graph::LoadSlot(size_t i) const {
  return std::atomic_ref<uint32_t>(slots_[i]).load(std::memory_order_acquire);
}

NodeId Graph::Find(uint64_t key, uint64_t check) const {
  for (size_t i = SlotOf(key);; i = (i + 1) & slot_mask_) {
    const NodeId id = LoadSlot(i);
    if (id == kNoNode) return kNoNode;
    const Node& n = nodes_[id];
    if (n.key != key) continue;
    if (n.check == check) return id;
    collisions_.fetch_add(1, std::memory_order_relaxed);
  }
}

NodeId Graph::AllocateNodes(int count) {
  if (nodes_used_.load(std::memory_order_relaxed) + count > node_capacity_) {
    return kNoNode;
  }
  const int64_t first = nodes_used_.fetch_add(count, std::memory_order_relaxed);
  // Lost the race for the last ones.
  if (first + count > node_capacity_) return kNoNode;
  // All at once: a compaction takes every id below the counter that is
  // not marked for a node in use, and an id left from before one would
  // carry its old mark.
  for (int64_t id = first; id < first + count; ++id) nodes_.Construct(id);
  return static_cast<NodeId>(first);
}

NodeId Graph::Publish(NodeId id) {
  const Node& fresh = nodes_[id];
  for (size_t i = SlotOf(fresh.key);; i = (i + 1) & slot_mask_) {
    std::atomic_ref<uint32_t> slot(slots_[i]);
    uint32_t seen = slot.load(std::memory_order_acquire);
    if (seen == kNoNode &&
        slot.compare_exchange_strong(seen, id, std::memory_order_acq_rel,
                                     std::memory_order_acquire)) {
      return id;
    }
    const Node& n = nodes_[seen];
    if (n.key != fresh.key) continue;
    if (n.check == fresh.check) return seen;
    collisions_.fetch_add(1, std::memory_order_relaxed);
  }
}

int64_t Graph::AllocateEdges(int n) {
  if (edges_used_.load(std::memory_order_relaxed) + n > edge_capacity_) {
    return -1;
  }
  const int64_t begin = edges_used_.fetch_add(n, std::memory_order_relaxed);
  if (begin + n > edge_capacity_) return -1;
  for (int64_t i = begin; i < begin + n; ++i) edges_.Construct(i);
  return begin;
}

void Graph::AttachChunk(Node& n, int chunk, int64_t begin, int edges) {
  n.chunk(chunk).store(static_cast<uint32_t>(begin), std::memory_order_relaxed);
  n.num_edges.store(static_cast<uint16_t>(edges), std::memory_order_release);
}

void Graph::AttachEdges(Node& n, int64_t begin, int count) {
  n.num_moves.store(static_cast<uint16_t>(count), std::memory_order_relaxed);
  for (int k = 0; k < kNumChunks && kChunkStart[k] < count; ++k) {
    AttachChunk(n, k, begin + kChunkStart[k], count);
  }
  if (count == 0) n.num_edges.store(0, std::memory_order_release);
}

// Marks every node `root` reaches (forward = 1) through links kept at
// `min_visits` (see Recycle), using the table's slots as the depth-first
// stack: the table is rebuilt afterwards anyway, and it has more slots than
// there are nodes.
std::pair<int64_t, int64_t> Graph::Mark(NodeId root, int32_t min_visits) {
  uint32_t* stack = slots_.get();
  size_t top = 0;
  int64_t live = 0, edges = 0;
  nodes_[root].forward = 1;
  stack[top++] = root;
  while (top > 0) {
    Node& n = nodes_[stack[--top]];
    ++live;
    const int count = n.num_edges.load(std::memory_order_relaxed);
    edges += count;
    // The root's links are all kept: its edges count every playout.
    const bool keep_all =
        &n == &nodes_[root] ||
        n.proof.load(std::memory_order_relaxed) != Proof::kNone;
    for (int i = 0; i < count; ++i) {
      const Edge& e = edge(n, i);
      const NodeId child = e.child.load(std::memory_order_relaxed);
      if (child == kNoNode || nodes_[child].forward != 0) continue;
      const bool kept =
          keep_all || e.visits.load(std::memory_order_relaxed) >= min_visits ||
          nodes_[child].proof.load(std::memory_order_relaxed) != Proof::kNone;
      if (!kept) continue;
      nodes_[child].forward = 1;
      stack[top++] = child;
    }
  }
  return {live, edges};
}

void Graph::Unmark() {
  const int64_t used = UsedIds();
  for (int64_t id = 1; id < used; ++id) nodes_[id].forward = 0;
}

// Moves the edge chunks of live nodes down, in address order so that no
// chunk overwrites one not yet moved, and points edges at the children's new
// ids (a child not kept leaves its edge without a child).
void Graph::SlideEdgeBlocks() {
  // (node id, chunk) pairs. Up to 3 per live node do not always fit in the
  // table's slots, so this list is the one allocation outside the arenas:
  // 8 bytes per live chunk (about 1.1 a node), freed before the search goes on.
  std::vector<uint64_t> order;
  const int64_t used = UsedIds();
  for (int64_t id = 1; id < used; ++id) {
    const Node& n = nodes_[id];
    if (n.forward == 0) continue;
    const int count = n.num_edges.load(std::memory_order_relaxed);
    for (int k = 0; k < kNumChunks && kChunkStart[k] < count; ++k) {
      order.push_back(static_cast<uint64_t>(id) << 2 |
                      static_cast<uint64_t>(k));
    }
  }
  auto begin_of = [this](uint64_t packed) {
    return nodes_[packed >> 2]
        .chunk(packed & 3)
        .load(std::memory_order_relaxed);
  };
  std::sort(order.begin(), order.end(), [&begin_of](uint64_t a, uint64_t b) {
    return begin_of(a) < begin_of(b);
  });
  int64_t next = 0;
  for (const uint64_t packed : order) {
    Node& n = nodes_[packed >> 2];
    const int k = static_cast<int>(packed & 3);
    const int64_t src = n.chunk(k).load(std::memory_order_relaxed);
    const int num = std::min<int>(n.num_edges.load(std::memory_order_relaxed),
                                  k + 1 < kNumChunks ? kChunkStart[k + 1]
                                                     : MoveList::kCapacity) -
                    kChunkStart[k];
    for (int i = 0; i < num; ++i) {
      Edge& to = edges_[next + i];
      if (next != src) to.MoveFrom(edges_[src + i]);
      const NodeId child = to.child.load(std::memory_order_relaxed);
      if (child == kNoNode) continue;
      const NodeId moved = nodes_[child].forward;
      to.child.store(moved, std::memory_order_relaxed);
      // A dropped child takes its visits along: the parent's value, once
      // refreshed, no longer counts them, and every later step relies on
      // edge visits being what the value counts (tree_policy.h, AddVisit).
      if (moved == kNoNode) to.visits.store(0, std::memory_order_relaxed);
    }
    n.chunk(k).store(static_cast<uint32_t>(next), std::memory_order_relaxed);
    next += num;
  }
  edges_used_.store(next, std::memory_order_relaxed);
}

void Graph::SlideNodes() {
  const int64_t used = UsedIds();
  int64_t live = 0;
  for (int64_t id = 1; id < used; ++id) {
    Node& n = nodes_[id];
    if (n.forward == 0) continue;
    const NodeId to = n.forward;
    if (to != id) nodes_[to].MoveFrom(n);
    nodes_[to].forward = 0;
    live = to;
  }
  nodes_used_.store(live + 1, std::memory_order_relaxed);
}

void Graph::RebuildTable() {
  std::memset(slots_.get(), 0, (slot_mask_ + 1) * sizeof(uint32_t));
  const int64_t used = UsedIds();
  for (int64_t id = 1; id < used; ++id) Publish(static_cast<NodeId>(id));
}

// Gives the marked nodes new ids in arena order (so that every node moves
// down), then moves nodes and edges; returns root's new id.
NodeId Graph::Relocate(NodeId root) {
  epoch_.fetch_add(1, std::memory_order_relaxed);
  const int64_t used = UsedIds();
  NodeId next = 1;
  for (int64_t id = 1; id < used; ++id) {
    if (nodes_[id].forward != 0) nodes_[id].forward = next++;
  }
  const NodeId new_root = nodes_[root].forward;
  SlideEdgeBlocks();
  SlideNodes();
  return new_root;
}

NodeId Graph::Compact(NodeId root) {
  Mark(root, 0);
  const NodeId new_root = Relocate(root);
  RebuildTable();
  return new_root;
}

RecycleReport Graph::Recycle(NodeId root, double keep_share,
                             const std::function<void(Node&)>& refresh) {
  RecycleReport report;
  const GraphStats before = Stats();
  report.nodes_before = before.nodes;
  report.edges_before = before.edges;
  const auto node_room =
      static_cast<int64_t>(keep_share * (node_capacity_ - 1));
  const auto edge_room = static_cast<int64_t>(keep_share * edge_capacity_);
  auto fits = [&](int32_t min_visits) {
    const auto [live, edges] = Mark(root, min_visits);
    Unmark();
    return live <= node_room && edges <= edge_room;
  };
  // The smallest threshold that fits: doubling, then halving the gap (a
  // pass costs about 20 ns a node kept).
  int32_t fit = 0;
  while (!fits(fit) && fit < (1 << 30)) fit = std::max(1, 2 * fit);
  for (int32_t too_few = fit / 2; fit - too_few > 1;) {
    const int32_t mid = too_few + (fit - too_few) / 2;
    (fits(mid) ? fit : too_few) = mid;
  }
  report.min_visits = fit;
  // At worst (a root alone that does not fit) the root is kept with its
  // own links only.
  Mark(root, fit);
  report.root = Relocate(root);
  RefreshBottomUp(report.root, refresh);
  RebuildTable();
  const GraphStats after = Stats();
  report.nodes_after = after.nodes;
  report.edges_after = after.edges;
  return report;
}

// Calls `refresh` on every node `root` reaches, children first (the graph
// is acyclic: every turn builds a wall or spends a breaker), with an
// explicit stack of (node, next edge) pairs in the table's slots, which
// hold at least twice as many entries as there are nodes. `forward` marks
// the nodes done.
void Graph::RefreshBottomUp(NodeId root,
                            const std::function<void(Node&)>& refresh) {
  uint32_t* stack = slots_.get();
  size_t top = 0;
  stack[top++] = root;
  stack[top++] = 0;
  nodes_[root].forward = 1;
  while (top > 0) {
    const NodeId id = stack[top - 2];
    uint32_t& next = stack[top - 1];
    Node& n = nodes_[id];
    const int count = n.num_edges.load(std::memory_order_relaxed);
    bool descended = false;
    while (static_cast<int>(next) < count) {
      const NodeId child = edge(n, static_cast<int>(next++))
                               .child.load(std::memory_order_relaxed);
      if (child == kNoNode || nodes_[child].forward != 0) continue;
      nodes_[child].forward = 1;
      stack[top++] = child;
      stack[top++] = 0;
      descended = true;
      break;
    }
    if (descended) continue;
    refresh(n);
    top -= 2;
  }
  Unmark();
}

void Graph::Clear() {
  epoch_.fetch_add(1, std::memory_order_relaxed);
  nodes_used_.store(1, std::memory_order_relaxed);
  edges_used_.store(0, std::memory_order_relaxed);
  std::memset(slots_.get(), 0, (slot_mask_ + 1) * sizeof(uint32_t));
}

void ThreadArena::Sync(const Graph& graph) {
  if (graph.epoch() == epoch_) return;
  epoch_ = graph.epoch();
  spare_ = kNoNode;
  next_node_ = end_node_ = next_edge_ = end_edge_ = 0;
}

NodeId ThreadArena::AllocateNode(Graph& graph) {
  Sync(graph);
  if (spare_ != kNoNode) return std::exchange(spare_, kNoNode);
  if (!blocks_) return graph.Allocate();
  if (next_node_ == end_node_) {
    const NodeId first = graph.AllocateNodes(kNodeBlock);
    // The last ids of a nearly full arena go one at a time.
    if (first == kNoNode) return graph.Allocate();
    next_node_ = first;
    end_node_ = first + kNodeBlock;
  }
  return static_cast<NodeId>(next_node_++);
}

int64_t ThreadArena::AllocateEdges(Graph& graph, int n) {
  Sync(graph);
  if (!blocks_ || n > kMostEdgesFromBlock) return graph.AllocateEdges(n);
  if (end_edge_ - next_edge_ < n) {
    const int64_t first = graph.AllocateEdges(kEdgeBlock);
    if (first < 0) return graph.AllocateEdges(n);
    next_edge_ = first;
    end_edge_ = first + kEdgeBlock;
  }
  const int64_t first = next_edge_;
  next_edge_ += n;
  return first;
}

GraphStats Graph::Stats() const {
  GraphStats s;
  s.nodes =
      std::min(nodes_used_.load(std::memory_order_relaxed), node_capacity_) - 1;
  s.edges =
      std::min(edges_used_.load(std::memory_order_relaxed), edge_capacity_);
  s.node_capacity = node_capacity_ - 1;
  s.edge_capacity = edge_capacity_;
  s.bytes = node_capacity_ * sizeof(Node) + edge_capacity_ * sizeof(Edge) +
            (slot_mask_ + 1) * sizeof(uint32_t);
  s.key_collisions = collisions_.load(std::memory_order_relaxed);
  return s;
}

}  // namespace wallgo::search
