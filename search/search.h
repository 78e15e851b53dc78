// The search's public face, used by the protocol layer: a Searcher that is
// given a position and limits, thinks (blocking the calling thread), reports
// progress through a callback, and can be stopped from another thread.
// Knows nothing of text. The level option picks the player behind it.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/position.h"

namespace wallgo::search {

class Evaluator;

// What the graph search (levels 5..10) evaluates its leaves with: the
// classic reachability estimate, the learned network (search/net), or the
// network's value with the classic priors.
enum class EvalKind : uint8_t { kClassic, kNet, kHybrid };
inline constexpr std::array<const char*, 3> kEvalKindNames = {"classic", "net",
                                                              "hybrid"};

// The defaults of the engine's search (protocol DefaultOptions) and of
// self-play (tools/train GenerateOptions), which must search alike: the
// policy is trained on the visits of the search it drives. Both matter only
// for eval=hybrid.
//
// Only the network's 16 best moves get a classic child evaluation when a
// node is expanded; why 16, measured: docs/eval.md, "The shortlist".
inline constexpr int kDefaultShortlist = 16;
// The network's policy beside the classic priors, at every chunk of edges;
// why, and why 0.25, measured: docs/eval.md, "The policy in the priors".
inline constexpr double kDefaultPolicyWeight = 0.25;
// The largest policy_weight an option or command line accepts.
inline constexpr double kMaxPolicyWeight = 8;

// A search's options. These defaults are the library's, for tests and
// tools that build a searcher themselves: classic evaluation, no move time.
// The engine's defaults (the wallgo program, list_options) are the
// default column of the option table in protocol/options.cc, applied by
// protocol::DefaultOptions().
struct SearchOptions {
  int threads = 1;
  int64_t visits = 0;     // playouts per move; 0 = no visit limit
  double movetime_s = 0;  // seconds per move; 0 = no fixed move time
  // The user chose movetime (command line or set_option), not a default:
  // only then does it also cap a clock (see EffectiveMoveTime).
  bool movetime_set = false;
  int hash_mb = 256;  // search memory (node arena + table)
  uint64_t seed = 0;
  int level = 10;  // 1 (beginner) .. 10 (full strength)
  EvalKind eval = EvalKind::kClassic;
  // eval=hybrid: when a node is expanded and more than this many moves are
  // legal, only the `shortlist` that the network's policy ranks best get
  // the classic priors' child evaluation (ShortlistEvaluator); 0 = every
  // child.
  int shortlist = 0;
  // eval=hybrid: the priors of the setup phase (stone placements) are the
  // network's policy instead of the classic ones (SetupPriorsEvaluator).
  bool net_setup_priors = false;
  // eval=hybrid with a shortlist: the log priors of the shortlisted moves at
  // a node's expansion, and of every move when it earns more edges, add
  // this many times the policy's logit to the classic ones (0 = classic
  // only; ShortlistEvaluator).
  double policy_weight = 0;
  // The learned evaluation used when eval is kNet or kHybrid, loaded by the
  // caller (the protocol layer reads the weights file); null falls back to
  // the classic one. `net` is for games of 2 players, `net_multi` for 3 and
  // 4 (a network trained on their games: --weights-multi).
  std::shared_ptr<const Evaluator> net;
  std::shared_ptr<const Evaluator> net_multi;
  // Threads' search: the weight of a descent in flight as a loss in its
  // edge's value (tree_policy.h, kFullVirtualLoss); it counts as a visit in
  // the exploration term whatever the weight. One thread has none in flight.
  // 0 (WU-UCT's rule): with whole losses 16 threads scored -23 Elo against
  // one at 1,600 playouts, without them +1 (docs/search.md, "Threads: equal
  // playouts").
  double virtual_loss = 0.0;
};

// The GTP clock of the side to move, as time_settings/time_left describe it.
// main_s == 0 && byo_s == 0 means no clock.
struct Clock {
  double main_s = 0;        // main time left
  double byo_s = 0;         // byo-yomi period length (0 = none)
  int byo_stones = 0;       // stones per period (0 = none)
  int byo_stones_left = 0;  // stones still due in the current period
  bool in_byo = false;      // main time spent, now in byo-yomi
  bool active() const { return main_s > 0 || byo_s > 0; }
};

struct Limits {
  Clock clock;            // the searcher keeps within it, with a margin
  bool infinite = false;  // analyze: search until Stop()
  // Fill SearchInfo::ownership (costs one ownership estimate per playout).
  bool ownership = false;
  // List every root edge made so far among the candidates (with its prior;
  // edges are made lazily in prior order), not only those visited.
  bool all_moves = false;
};

struct Candidate {
  Move move;
  int64_t visits = 0;
  double winrate = 0.5;     // side to move's, in 0..1
  double score_margin = 0;  // side to move's expected score minus best other
  std::vector<Move> pv;     // starts with `move`
  double prior = 0;         // the search's prior for `move`, in 0..1 (last:
                            // brace-initialisations above stay valid)
};

// A cell's expected final owner: [p] for the players in the game,
// [kMaxPlayers] for nobody; the entries sum to 1.
using CellOwnership = std::array<float, kMaxPlayers + 1>;

struct SearchInfo {
  std::vector<Candidate> candidates;  // best first
  // The root's value for the side to move (its win rate in 0..1 and score
  // margin), and how much of it is proven: `solved` when the win rates are
  // certain, `exact` when the margin is too (a won/lost/drawn root).
  double root_winrate = 0.5;
  double root_score_margin = 0;
  bool solved = false;
  bool exact = false;
  // Per cell (a1, b1, ..., g7), when Limits::ownership asked for it: the
  // leaf positions' ownership estimates averaged over the playouts.
  std::vector<CellOwnership> ownership;
  int64_t total_visits = 0;
  int64_t nodes = 0;  // nodes created in the graph
  double elapsed_s = 0;
};

struct SearchResult {
  Move best;  // resign only when the searcher chooses to resign
  SearchInfo info;
};

using InfoCallback = std::function<void(const SearchInfo&)>;

class Searcher {
 public:
  virtual ~Searcher() = default;
  // Changes options between searches (threads, hash, level, ...).
  virtual void SetOptions(const SearchOptions& options) = 0;
  // Forgets everything learned (new game).
  virtual void Clear() = 0;
  // Searches `pos` (not over) and returns the chosen move. Calls `on_info`
  // about every `info_interval_s` seconds (never when it is null) and once at
  // the end. Blocks until a limit is reached or Stop() is called.
  virtual SearchResult Search(const Position& pos, const Limits& limits,
                              const InfoCallback& on_info,
                              double info_interval_s) = 0;
  // Safe from any thread; makes a running Search return promptly.
  virtual void Stop() = 0;
};

// The searcher for `options.level`.
std::unique_ptr<Searcher> MakeSearcher(const SearchOptions& options);

}  // namespace wallgo::search
