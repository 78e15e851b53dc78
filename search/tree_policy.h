// The graph search's in-tree steps, on a Graph any thread may share:
// choosing an edge (PUCT with virtual loss), and backing a playout up its
// path (edge visits, node values recomputed from the children, proofs).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/zobrist.h"
#include "search/graph.h"
#include "search/value.h"

namespace wallgo::search {

// A pending (virtual) visit counts as a loss for the player choosing it, so
// that concurrent threads spread over different lines...
inline constexpr float kVirtualLossUtility = 0.0f;
// ...with this weight in the edge's value (each pending visit also counts in
// the exploration term, as a visit, whatever the weight): 1, a whole loss
// (the classic virtual loss); 0, none, the value left as it is (WU-UCT's
// rule: in-flight descents count only as visits). SelectStep's default.
inline constexpr float kFullVirtualLoss = 1.0f;

// One step of a playout: `edge` of `node` was taken. A deferred step took
// a busy edge without a virtual loss, and its visit is written later, in a
// batch (PendingVisits).
struct PathStep {
  NodeId node;
  int edge;
  bool deferred = false;
};

// A sure sole win for `player`.
inline bool SureWin(const Value& v, int player) {
  return v.win[player] >= 1.0f;
}

// The edge of expanded node `n` with the best PUCT score for n's mover:
//   Q + c_puct * prior * sqrt(1 + sum N) / (1 + N),
// where N counts visits and pending virtual losses, Q is the edge's utility
// (the child's value as last backed up, or the first-play value) mixed with
// the virtual losses. Adds a virtual loss to the chosen edge. Edges must
// come sorted by first-play value and prior, both non-increasing: then an
// untried edge never beats the first untried one, and only edges up to that
// one are read.
int SelectEdge(Graph& graph, Node& n, double c_puct);

class PendingVisits;

// With several threads, each prefers its own share of every node's edges,
// by `bonus` added to their scores. Where edges score about alike, the
// threads then take different ones, and below them each works mostly in
// lines the other does not write: every line one thread writes and the
// other then reads is a cache miss, about one a node on a shared path
// (docs/search.md, "Thread affinity"). The shares are dealt in turn down
// the node's edges, which are in prior order, from a thread that a hash of
// the node picks: any `threads` edges in a row, the likeliest moves among
// them, are each a different thread's. Each edge is exactly one thread's.
struct ThreadAffinity {
  int thread = 0;
  int threads = 1;
  float bonus = 0;  // 0: no preference

  // The thread that prefers edge 0 of node `id`; edge i is then
  // (FirstOwner + i) mod threads's.
  int FirstOwner(NodeId id) const {
    return static_cast<int>(
        ((zobrist::SplitMix64(id) >> 32) * static_cast<uint32_t>(threads)) >>
        32);
  }
  bool Prefers(NodeId id, int edge) const {
    return (FirstOwner(id) + edge) % threads == thread;
  }
  // Adds the bonus to `score[i]` of each preferred edge i < count: Prefers
  // for a node's first edges, with one hash for them all.
  void AddBonus(NodeId id, double* score, int count) const {
    int owner = FirstOwner(id);
    for (int i = 0; i < count; ++i) {
      if (owner == thread) score[i] += bonus;
      if (++owner == threads) owner = 0;
    }
  }
};

// The same for a search with several threads: when the chosen edge already
// has at least `defer_from` visits (0: never), the step is deferred and
// takes no virtual loss. Among thousands of visits one pending loss changes
// no choice, and each write to the busy top nodes' lines costs every other
// thread a cache miss (docs/search.md, "Deferred visits"). The thread's own
// deferred visits not yet written (`own`, may be null) count as visits, so
// that it does not keep choosing an edge as if it had not taken it.
// `affinity` adds its bonus to the thread's own edges among those read
// (the tried ones and the first untried). `virtual_loss` weighs the pending
// visits in the edges' values (kFullVirtualLoss).
PathStep SelectStep(Graph& graph, NodeId id, double c_puct, int32_t defer_from,
                    const PendingVisits* own = nullptr,
                    const ThreadAffinity& affinity = {},
                    float virtual_loss = kFullVirtualLoss);

// Recomputes n's value from its own evaluation U and its children's values,
// weighted by edge visits: Q = (U + sum N*Q_child) / (1 + sum N) (KataGo's
// graph formula), and refreshes the edges' utilities. Then tries to prove
// n: a decided child that is a sure win for the mover, or children all
// decided, decide n (max-n: the mover picks its best child); all exact make
// n exact. Exact nodes are left alone.
void UpdateNode(Graph& graph, Node& n, int players);

// A node's value before and after one backup step.
struct ValueChange {
  Value before, after;
};

// Counts one playout through edge `i` of `n`, whose child's value changed
// as `child` says, and returns how n's value changed. Small nodes, proven
// children and every 8th visit get the full UpdateNode; otherwise
// n's value is moved by the child's change alone, in constant time: changes
// the child got through other parents (transpositions) or that a racing
// thread overwrote wait for the next full recompute.
ValueChange AddVisit(Graph& graph, Node& n, int i, const ValueChange& child,
                     int players);

// One thread's visits through deferred steps, not yet written to the
// graph. Flush writes them, deepest nodes first: each edge's visits in one
// increment, then the node's value, either recomputed in full
// (UpdateNode) as often as AddVisit would, or moved by the new visits
// alone, each at its child's value now. It does not move the node by the
// children's change since their deferred visits, as AddVisit's step does:
// by the flush other threads' backups have already counted part of that
// change, and counted again it took a node's value out of [0, 1]. Node
// ids must not move between Add and Flush (flush before a recycling).
class PendingVisits {
 public:
  // A visit through `step`, at `depth` in its path.
  void Add(const PathStep& step, int depth);
  bool empty() const { return entries_.empty(); }
  // Calls f(edge, visits) for each of node `id`'s edges with visits here.
  // Every selection asks, and most nodes have none: a bit per node id
  // modulo 64 answers most of them without a scan.
  template <typename F>
  void ForEachOf(NodeId id, F&& f) const {
    if ((nodes_ & NodeBit(id)) == 0) return;
    for (const Entry& e : entries_) {
      if (e.node == id) f(e.edge, e.count);
    }
  }
  void Flush(Graph& graph, int players);

 private:
  struct Entry {
    NodeId node;
    int edge;
    int depth;
    int32_t count;
  };
  static uint64_t NodeBit(NodeId id) { return uint64_t{1} << (id % 64); }
  void FlushNode(Graph& graph, int players, size_t first, size_t end);

  std::vector<Entry> entries_;
  uint64_t nodes_ = 0;  // NodeBit of every entry's node
};

// Counts the playout on every edge of `path`, removes its virtual losses
// and updates the nodes from the leaf (the last edge's child) up. Deferred
// steps go to `pending` (which must then be given) and pass their node's
// value up unchanged.
void Backup(Graph& graph, const std::vector<PathStep>& path, int players,
            PendingVisits* pending = nullptr);

// The root's edges, best first, for the move to play and the candidates
// shown: proven sole wins for the mover, then the rest by visits (then
// value, or prior where unexpanded), proven losses last; proven edges by
// value. A proven loss whose exact value is worth more to the mover than
// the estimate of the edge the visits rank first comes before every
// unproven edge: a loss by 3 beats an unproven move whose playouts average
// a loss by 9, as the search, visiting by value, already knows. Only a
// proven loss that the playouts' estimate beats stays last, as an
// MCTS-solver's does. Likewise a proven win worth less than that estimate,
// where the estimate is itself all but a sure win (kAlmostSureWin), comes
// after the unproven edges (and before every loss): a proven win by 6 does
// not displace a move whose 1,800 playouts win 99.9% by 14 on average.
inline constexpr float kAlmostSureWin = 0.99f;
std::vector<int> RankRootEdges(Graph& graph, Node& root);

}  // namespace wallgo::search
