#include "search/tree_policy.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <tuple>
#include <utility>

#include "engine/movegen.h"

namespace wallgo::search {

namespace {

// A node with at most this many tried edges is always recomputed in full:
// that reads no more than the incremental step would save.
constexpr int kAlwaysFullUpTo = 4;
// Other nodes are recomputed in full once every this many visits, which
// brings in what the incremental steps cannot see (see AddVisit)...
constexpr int kFullEvery = 8;
// ...or, at a node with many tried edges, once every tried / kFullShare
// visits: a full recompute reads every tried edge and its child's value
// (lines the other threads keep rewriting), so its cost per visit stays
// about kFullShare edges however wide the node (the root has ~150).
constexpr int kFullShare = 4;

// The edges worth reading: those chosen before, plus (in selection) the first
// one never chosen, which outscores every later one (see Node::tried).
int EdgesToRead(const Node& n, bool with_first_untried) {
  // Acquire: a chunk added by another thread is read only once published.
  const int count = n.num_edges.load(std::memory_order_acquire);
  const int tried = n.tried.load(std::memory_order_relaxed);
  return std::min(count, tried + (with_first_untried ? 1 : 0));
}

// Marks edge `i` of `n` as chosen; only the first untried edge moves the
// mark, so it never skips one. Read first: a locked write to the node's
// line, which every thread reads, on every selection would cost them all.
void MarkTried(Node& n, int i) {
  uint16_t expected = static_cast<uint16_t>(i);
  if (n.tried.load(std::memory_order_relaxed) != expected) return;
  n.tried.compare_exchange_strong(expected, static_cast<uint16_t>(i + 1),
                                  std::memory_order_relaxed);
}

// Writes the edge's utility only when it changed: the edge shares a cache
// line with others that every thread reads.
void RefreshUtility(Edge& e, float u) {
  if (e.utility.load(std::memory_order_relaxed) != u) {
    e.utility.store(u, std::memory_order_relaxed);
  }
}

// Whether adding `count` visits (a flush adds several) to a node of
// `weight` recomputes it in full: a decided node takes its best child's
// value, not an average, and a proven child may decide its parent; small
// nodes always, the others each time the weight passes a multiple of the
// period.
bool NeedsFullRecompute(const Node& n, bool child_proven, int32_t weight,
                        int32_t count = 1) {
  const int tried = n.tried.load(std::memory_order_relaxed);
  const int32_t period = std::max(kFullEvery, tried / kFullShare);
  return n.proof.load(std::memory_order_relaxed) != Proof::kNone ||
         child_proven || tried <= kAlwaysFullUpTo ||
         (weight - 1) / period != (weight + count - 1) / period;
}

// sum += weight * v, for the first `players` players.
void AddWeighted(Value& sum, int32_t weight, const Value& v, int players) {
  for (int k = 0; k < players; ++k) {
    sum.win[k] += weight * v.win[k];
    sum.margin[k] += weight * v.margin[k];
  }
}

// sum / weight, for the first `players` players.
Value Divided(const Value& sum, int32_t weight, int players) {
  Value mean;
  for (int k = 0; k < players; ++k) {
    mean.win[k] = sum.win[k] / weight;
    mean.margin[k] = sum.margin[k] / weight;
  }
  return mean;
}

// The index of the first largest of `values[0, count)` (0 when count is 0).
// The maximum is found first, in four independent lanes (one running
// maximum waits on the last: 4 cycles a value), then its first index.
int FirstLargest(const double* values, int count) {
  constexpr int kLanes = 4;
  std::array<double, kLanes> lane;
  lane.fill(-std::numeric_limits<double>::infinity());
  int i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    for (int k = 0; k < kLanes; ++k) {
      lane[k] = values[i + k] > lane[k] ? values[i + k] : lane[k];
    }
  }
  for (; i < count; ++i) lane[0] = values[i] > lane[0] ? values[i] : lane[0];
  const double largest = *std::max_element(lane.begin(), lane.end());
  for (i = 0; i < count; ++i) {
    if (values[i] == largest) return i;
  }
  return 0;
}

// The edge of n with the best PUCT score (SelectEdge), and its visits; adds
// no virtual loss. `own` (may be null) holds the calling thread's deferred
// visits of node `id`, which count as its visits; `affinity` raises the
// thread's own edges.
std::pair<int, int32_t> BestEdge(Graph& graph, NodeId id, Node& n,
                                 double c_puct, const PendingVisits* own,
                                 const ThreadAffinity& affinity,
                                 float virtual_loss) {
  const int count = EdgesToRead(n, true);
  // The edges are read once, into plain arrays, on which the scores are
  // then computed in vector registers (the divisions were most of the time).
  std::array<double, MoveList::kCapacity> q, prior, score;
  std::array<int32_t, MoveList::kCapacity> tries;  // visits + pending
  int64_t total = 0;
  graph.ForEachEdge(n, count, [&](int i, const Edge& e) {
    const int32_t visits = e.visits.load(std::memory_order_relaxed);
    const int32_t pending = e.virtual_loss.load(std::memory_order_relaxed);
    q[i] = e.utility.load(std::memory_order_relaxed);
    if (pending > 0 && virtual_loss > 0) {
      const float lost = virtual_loss * static_cast<float>(pending);
      q[i] = (q[i] * visits + lost * kVirtualLossUtility) / (visits + lost);
    }
    prior[i] = e.prior;
    tries[i] = visits + pending;
    total += tries[i];
  });
  if (own != nullptr) {
    own->ForEachOf(id, [&](int i, int32_t visits) {
      if (i >= count) return;
      tries[i] += visits;
      total += visits;
    });
  }
  const double explore = c_puct * std::sqrt(double(total) + 1);
  for (int i = 0; i < count; ++i) {
    score[i] = q[i] + explore * prior[i] / (1 + tries[i]);
  }
  if (affinity.bonus != 0) affinity.AddBonus(id, score.data(), count);
  const int best = FirstLargest(score.data(), count);
  return {best, count > 0 ? tries[best] : 0};
}

// Chooses n's best edge; its step is deferred (no virtual loss) when the
// edge has at least `defer_from` visits and pending (0: never).
std::pair<int, bool> Choose(Graph& graph, NodeId id, Node& n, double c_puct,
                            int32_t defer_from, const PendingVisits* own,
                            const ThreadAffinity& affinity,
                            float virtual_loss) {
  const auto [best, tries] =
      BestEdge(graph, id, n, c_puct, own, affinity, virtual_loss);
  const bool deferred = defer_from > 0 && tries >= defer_from;
  if (!deferred) {
    graph.edge(n, best).virtual_loss.fetch_add(1, std::memory_order_relaxed);
  }
  MarkTried(n, best);
  return {best, deferred};
}

// The tiers of RankRootEdges, best last.
constexpr int kProvenLossTier = 0, kWorseWinTier = 1, kUnprovenTier = 2,
              kBetterLossTier = 3, kProvenWinTier = 4;

using RankKey = std::tuple<int, int64_t, float>;

RankKey RootEdgeKey(Graph& graph, Node& root, int i) {
  const int p = root.to_move;
  Edge& e = graph.edge(root, i);
  const int64_t visits = e.visits.load(std::memory_order_relaxed);
  const NodeId child = e.child.load(std::memory_order_acquire);
  if (child == kNoNode) return {kUnprovenTier, visits, e.prior};
  Node& c = graph.node(child);
  const Value v = c.q.Load();
  const Proof proof = c.proof.load(std::memory_order_acquire);
  if (proof != Proof::kNone && SureWin(v, p)) {
    return {kProvenWinTier, 0, v.Utility(p)};
  }
  if (proof != Proof::kNone && v.win[p] <= 0.0f) {
    return {kProvenLossTier, 0, v.Utility(p)};
  }
  return {kUnprovenTier, visits, v.Utility(p)};
}

// The mover's value of root edge `i` as its playouts estimate it; none
// for no edge or one never visited.
std::optional<Value> EstimatedValue(Graph& graph, Node& root, int i) {
  if (i < 0) return std::nullopt;
  Edge& e = graph.edge(root, i);
  const NodeId child = e.child.load(std::memory_order_acquire);
  if (child == kNoNode || e.visits.load(std::memory_order_relaxed) == 0) {
    return std::nullopt;
  }
  return graph.node(child).q.Load();
}

}  // namespace

int SelectEdge(Graph& graph, Node& n, double c_puct) {
  return Choose(graph, kNoNode, n, c_puct, 0, nullptr, {}, kFullVirtualLoss)
      .first;
}

PathStep SelectStep(Graph& graph, NodeId id, double c_puct, int32_t defer_from,
                    const PendingVisits* own, const ThreadAffinity& affinity,
                    float virtual_loss) {
  const auto [best, deferred] = Choose(graph, id, graph.node(id), c_puct,
                                       defer_from, own, affinity, virtual_loss);
  return {id, best, deferred};
}

ValueChange AddVisit(Graph& graph, Node& n, int i, const ValueChange& child,
                     int players) {
  Edge& e = graph.edge(n, i);
  // The weight before this visit is counted on the edge: read after, it
  // may already include it (another thread's full recompute in between),
  // and the step below would count it twice. The increment's release half
  // is what keeps the read before it; relaxed would let them swap.
  const int32_t weight = n.weight.load(std::memory_order_relaxed);
  const int32_t old_visits = e.visits.fetch_add(1, std::memory_order_acq_rel);
  e.virtual_loss.fetch_sub(1, std::memory_order_relaxed);
  e.utility.store(child.after.Utility(n.to_move), std::memory_order_relaxed);
  ValueChange change;
  change.before = n.q.Load(players);
  const Node& c = graph.node(e.child.load(std::memory_order_acquire));
  if (n.proof.load(std::memory_order_relaxed) == Proof::kExact) {
    change.after = change.before;
  } else if (NeedsFullRecompute(
                 n, c.proof.load(std::memory_order_acquire) != Proof::kNone,
                 weight)) {
    UpdateNode(graph, n, players);
    change.after = n.q.Load(players);
  } else {
    // Q' = (W Q + N (q'_c - q_c) + q'_c) / (W + 1): the child's new value
    // replaces its old one in the N visits counted before, plus this one.
    auto step = [&](float q, float child_before, float child_after) {
      return (weight * q + old_visits * (child_after - child_before) +
              child_after) /
             static_cast<float>(weight + 1);
    };
    for (int k = 0; k < players; ++k) {
      change.after.win[k] =
          step(change.before.win[k], child.before.win[k], child.after.win[k]);
      change.after.margin[k] =
          step(change.before.margin[k], child.before.margin[k],
               child.after.margin[k]);
    }
    n.q.Store(change.after, players);
    n.weight.store(weight + 1, std::memory_order_relaxed);
  }
  return change;
}

void Backup(Graph& graph, const std::vector<PathStep>& path, int players,
            PendingVisits* pending) {
  if (path.empty()) return;
  const PathStep& last = path.back();
  const NodeId leaf = graph.edge(graph.node(last.node), last.edge)
                          .child.load(std::memory_order_acquire);
  ValueChange change;
  change.before = change.after = graph.node(leaf).q.Load(players);
  for (int depth = static_cast<int>(path.size()) - 1; depth >= 0; --depth) {
    const PathStep& step = path[depth];
    Node& n = graph.node(step.node);
    if (step.deferred) {
      pending->Add(step, depth);
      change.before = change.after = n.q.Load(players);
    } else {
      change = AddVisit(graph, n, step.edge, change, players);
    }
  }
}

void PendingVisits::Add(const PathStep& step, int depth) {
  for (Entry& e : entries_) {
    if (e.node == step.node && e.edge == step.edge && e.depth == depth) {
      ++e.count;
      return;
    }
  }
  entries_.push_back({step.node, step.edge, depth, 1});
  nodes_ |= NodeBit(step.node);
}

void PendingVisits::Flush(Graph& graph, int players) {
  std::stable_sort(
      entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
        return a.depth != b.depth ? a.depth > b.depth : a.node < b.node;
      });
  for (size_t first = 0; first < entries_.size();) {
    size_t end = first + 1;
    while (end < entries_.size() &&
           entries_[end].node == entries_[first].node &&
           entries_[end].depth == entries_[first].depth) {
      ++end;
    }
    FlushNode(graph, players, first, end);
    first = end;
  }
  entries_.clear();
  nodes_ = 0;
}

// Counts entries [first, end), all edges of one node at one depth, and
// updates the node: in full (UpdateNode) as often as AddVisit would, and
// otherwise by the new visits alone, each at its child's value now:
//   Q' = (W Q + sum k q_child) / (W + sum k).
// That mean of values stays a value; the change of the children's values
// in their older visits waits for the next full recompute, as a change
// through another parent does in AddVisit.
void PendingVisits::FlushNode(Graph& graph, int players, size_t first,
                              size_t end) {
  Node& n = graph.node(entries_[first].node);
  // Read before the increments, as in AddVisit.
  const int32_t weight = n.weight.load(std::memory_order_relaxed);
  Value sum;
  int32_t added = 0;
  bool child_proven = false;
  // A playout links the child before it records the step, so no child
  // should be missing; if one is, UpdateNode, which skips it, does the sums.
  bool child_missing = false;
  for (size_t i = first; i < end; ++i) {
    Edge& e = graph.edge(n, entries_[i].edge);
    const int32_t count = entries_[i].count;
    e.visits.fetch_add(count, std::memory_order_acq_rel);
    const NodeId child = e.child.load(std::memory_order_acquire);
    if (child == kNoNode) {
      child_missing = true;
      continue;
    }
    const Node& c = graph.node(child);
    child_proven =
        child_proven || c.proof.load(std::memory_order_acquire) != Proof::kNone;
    const Value v = c.q.Load(players);
    RefreshUtility(e, v.Utility(n.to_move));
    AddWeighted(sum, count, v, players);
    added += count;
  }
  if (n.proof.load(std::memory_order_relaxed) == Proof::kExact) return;
  if (child_missing || NeedsFullRecompute(n, child_proven, weight, added)) {
    UpdateNode(graph, n, players);
    return;
  }
  AddWeighted(sum, weight, n.q.Load(players), players);
  n.q.Store(Divided(sum, weight + added, players), players);
  n.weight.store(weight + added, std::memory_order_relaxed);
}

void UpdateNode(Graph& graph, Node& n, int players) {
  if (n.proof.load(std::memory_order_relaxed) == Proof::kExact) return;
  const int p = n.to_move;
  const int count = EdgesToRead(n, false);
  Value sum = n.eval;
  int32_t weight = 1;
  // An untried edge (or a move with no edge yet) has no child: nothing
  // decided there yet.
  bool all_decided =
      count == n.num_moves.load(std::memory_order_relaxed) && count > 0;
  bool all_exact = all_decided, sure_win = false;
  Value best;
  float best_utility = -std::numeric_limits<float>::infinity();
  graph.ForEachEdge(n, count, [&](int, Edge& e) {
    const NodeId child = e.child.load(std::memory_order_acquire);
    if (child == kNoNode) {
      all_decided = all_exact = false;
      return;
    }
    const Node& c = graph.node(child);
    const int32_t visits = e.visits.load(std::memory_order_relaxed);
    const Proof proof = c.proof.load(std::memory_order_acquire);
    if (visits == 0 && proof == Proof::kNone) {  // nothing to read
      all_decided = all_exact = false;
      return;
    }
    const Value v = c.q.Load(players);
    const float u = v.Utility(p);
    RefreshUtility(e, u);
    AddWeighted(sum, visits, v, players);
    weight += visits;
    if (proof == Proof::kNone) {
      all_decided = all_exact = false;
      return;
    }
    all_exact = all_exact && proof == Proof::kExact;
    if (SureWin(v, p) && (!sure_win || u > best_utility)) {
      sure_win = true;
      best = v, best_utility = u;
    } else if (!sure_win && u > best_utility) {
      best = v, best_utility = u;
    }
  });
  n.weight.store(weight, std::memory_order_relaxed);
  if (sure_win || all_decided) {
    n.q.Store(best, players);
    n.proof.store(all_decided && all_exact ? Proof::kExact : Proof::kDecided,
                  std::memory_order_release);
    return;
  }
  n.q.Store(Divided(sum, weight, players), players);
}

std::vector<int> RankRootEdges(Graph& graph, Node& root) {
  const int n = root.num_edges.load(std::memory_order_acquire);
  std::vector<int> order(n);
  std::vector<RankKey> keys(n);
  int top_unproven = -1;
  for (int i = 0; i < n; ++i) {
    order[i] = i;
    keys[i] = RootEdgeKey(graph, root, i);
    if (std::get<0>(keys[i]) == kUnprovenTier &&
        (top_unproven < 0 || keys[i] > keys[top_unproven])) {
      top_unproven = i;
    }
  }
  const int p = root.to_move;
  const std::optional<Value> estimate =
      EstimatedValue(graph, root, top_unproven);
  for (int i = 0; i < n && estimate; ++i) {
    const auto [tier, visits, utility] = keys[i];
    if (tier == kProvenLossTier && utility > estimate->Utility(p)) {
      keys[i] = {kBetterLossTier, 0, utility};
    }
    if (tier == kProvenWinTier && utility < estimate->Utility(p) &&
        estimate->win[p] >= kAlmostSureWin) {
      keys[i] = {kWorseWinTier, 0, utility};
    }
  }
  std::stable_sort(order.begin(), order.end(),
                   [&keys](int a, int b) { return keys[a] > keys[b]; });
  return order;
}

}  // namespace wallgo::search
