#include "search/graph.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "engine/zobrist.h"

namespace wallgo::search {
namespace {

// Share of the memory given to nodes (plus their table slots); the rest holds
// edges. Measured: a search keeps 20-25 edges (24 bytes each) per node, as
// most nodes are unexpanded leaves, so nodes take about a quarter.
constexpr double kNodeShare = 0.25;
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

void Node::Init(uint64_t k, uint64_t c, int mover, const Value& value,
                Proof p) {
  key = k;
  check = c;
  eval = value;
  q.Store(value);
  weight.store(1, std::memory_order_relaxed);
  edge_begin.store(0, std::memory_order_relaxed);
  num_edges.store(0, std::memory_order_relaxed);
  tried.store(0, std::memory_order_relaxed);
  expand_state.store(ExpandState::kUnexpanded, std::memory_order_relaxed);
  proof.store(p, std::memory_order_relaxed);
  to_move = static_cast<uint8_t>(mover);
  forward = 0;
}

void Node::MoveFrom(Node& other) {
  Init(other.key, other.check, other.to_move, other.eval,
       other.proof.load(std::memory_order_relaxed));
  q.Store(other.q.Load());
  weight.store(other.weight.load(std::memory_order_relaxed),
               std::memory_order_relaxed);
  edge_begin.store(other.edge_begin.load(std::memory_order_relaxed),
                   std::memory_order_relaxed);
  num_edges.store(other.num_edges.load(std::memory_order_relaxed),
                  std::memory_order_relaxed);
  tried.store(other.tried.load(std::memory_order_relaxed),
              std::memory_order_relaxed);
  expand_state.store(other.expand_state.load(std::memory_order_relaxed),
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

NodeId Graph::Allocate() {
  if (nodes_used_.load(std::memory_order_relaxed) >= node_capacity_) {
    return kNoNode;
  }
  const int64_t id = nodes_used_.fetch_add(1, std::memory_order_relaxed);
  if (id >= node_capacity_) return kNoNode;  // lost the race for the last one
  nodes_.Construct(id);
  return static_cast<NodeId>(id);
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

// Marks every node reachable from `root` (forward = 1), using the table's
// slots as the depth-first stack: the table is rebuilt afterwards anyway,
// and it has more slots than there are nodes. Returns the live count.
size_t Graph::Mark(NodeId root) {
  uint32_t* stack = slots_.get();
  size_t top = 0, live = 0;
  nodes_[root].forward = 1;
  stack[top++] = root;
  while (top > 0) {
    Node& n = nodes_[stack[--top]];
    ++live;
    if (n.expand_state.load(std::memory_order_relaxed) !=
        ExpandState::kExpanded) {
      continue;
    }
    Edge* e = edges(n);
    for (int i = 0; i < n.num_edges.load(std::memory_order_relaxed); ++i) {
      const NodeId child = e[i].child.load(std::memory_order_relaxed);
      if (child == kNoNode || nodes_[child].forward != 0) continue;
      nodes_[child].forward = 1;
      stack[top++] = child;
    }
  }
  return live;
}

// Moves the edge blocks of live expanded nodes down, in address order so
// that no block overwrites one not yet moved, and points edges at the
// children's new ids.
void Graph::SlideEdgeBlocks() {
  uint32_t* order = slots_.get();
  size_t count = 0;
  const int64_t used = UsedIds();
  for (int64_t id = 1; id < used; ++id) {
    const Node& n = nodes_[id];
    if (n.forward != 0 && n.num_edges.load(std::memory_order_relaxed) > 0) {
      order[count++] = static_cast<uint32_t>(id);
    }
  }
  std::sort(order, order + count, [this](uint32_t a, uint32_t b) {
    return nodes_[a].edge_begin.load(std::memory_order_relaxed) <
           nodes_[b].edge_begin.load(std::memory_order_relaxed);
  });
  int64_t next = 0;
  for (size_t k = 0; k < count; ++k) {
    Node& n = nodes_[order[k]];
    const int64_t src = n.edge_begin.load(std::memory_order_relaxed);
    const int num = n.num_edges.load(std::memory_order_relaxed);
    for (int i = 0; i < num; ++i) {
      Edge& to = edges_[next + i];
      if (next != src) to.MoveFrom(edges_[src + i]);
      const NodeId child = to.child.load(std::memory_order_relaxed);
      if (child != kNoNode) {
        to.child.store(nodes_[child].forward, std::memory_order_relaxed);
      }
    }
    n.edge_begin.store(static_cast<uint32_t>(next), std::memory_order_relaxed);
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

NodeId Graph::Compact(NodeId root) {
  Mark(root);
  // Forwarding ids in arena order, so that every node moves down.
  const int64_t used = UsedIds();
  NodeId next = 1;
  for (int64_t id = 1; id < used; ++id) {
    if (nodes_[id].forward != 0) nodes_[id].forward = next++;
  }
  const NodeId new_root = nodes_[root].forward;
  SlideEdgeBlocks();
  SlideNodes();
  RebuildTable();
  return new_root;
}

void Graph::Clear() {
  nodes_used_.store(1, std::memory_order_relaxed);
  edges_used_.store(0, std::memory_order_relaxed);
  std::memset(slots_.get(), 0, (slot_mask_ + 1) * sizeof(uint32_t));
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
