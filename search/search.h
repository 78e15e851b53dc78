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

// The largest policy_weight an option or command line accepts.
inline constexpr double kMaxPolicyWeight = 8;

// A search's options. Their defaults here are the engine's: the only
// statement of them, which the option table (protocol/options.cc) reads for
// its default column, so that SearchOptions{} is what the `wallgo` program
// plays with. A program or test that searches otherwise names a profile
// below (ClassicProfile, SelfPlayProfile), not values of its own.
struct SearchOptions {
  int threads = 1;
  int64_t visits = 0;  // playouts per move; 0 = no visit limit
  // Seconds per move; 0 = no fixed move time. The default makes a plain
  // `genmove` end on its own; a clock replaces it (movetime_set).
  double movetime_s = 1;
  // The user chose movetime (command line or set_option), not a default:
  // only then does it also cap a clock (see EffectiveMoveTime).
  bool movetime_set = false;
  int hash_mb = 256;  // search memory (node arena + table)
  uint64_t seed = 0;
  int level = 10;  // 1 (beginner) .. 10 (full strength)
  // Hybrid: the stronger at equal time in 2-player games with the built-in
  // networks (docs/eval.md, "In the search: `eval=net` and `eval=hybrid`").
  EvalKind eval = EvalKind::kHybrid;
  // eval=hybrid: when a node is expanded and more than this many moves are
  // legal, only the `shortlist` that the network's policy ranks best get
  // the classic priors' child evaluation (ShortlistEvaluator); 0 = every
  // child. Why 16, measured: docs/eval.md, "The shortlist".
  int shortlist = 16;
  // eval=hybrid: the priors of the setup phase (stone placements) are the
  // network's policy instead of the classic ones (SetupPriorsEvaluator).
  bool net_setup_priors = false;
  // eval=hybrid with a shortlist: the log priors of the shortlisted moves at
  // a node's expansion, and of every move when it earns more edges, add
  // this many times the policy's logit to the classic ones (0 = classic
  // only; ShortlistEvaluator). Why 0.25, measured: docs/eval.md, "The
  // policy in the priors".
  double policy_weight = 0.25;

  // The graph search's tunables (levels 5..10; rows of the option table
  // that list_options does not show, as Stockfish hides its tuning
  // options). PUCT's exploration constant, in utility units (a win is
  // worth 1): with the classic values in 2-player games; with eval=hybrid's
  // network values (1.4: docs/eval.md, "Exploration with the network's
  // values"); in games of 3 or 4 players.
  double c_puct = 1.0;
  double c_puct_hybrid = 1.4;
  double c_puct_multi = 1.0;
  // First play urgency: a move not tried yet is worth its parent's (or
  // best-prior child's) evaluation, less fpu_reduction, plus
  // fpu_prior_scale * log(prior / best prior) (MctsConfig).
  double fpu_reduction = 0.0;
  double fpu_prior_scale = 0.2;
  // With several threads, a visit through an edge that has at least this
  // many visits per thread is deferred (no virtual loss; written with the
  // thread's next batch); 0 = never. docs/search.md, "Deferred visits".
  int deferred_visits = 256;
  // With several threads, the bonus below the root to each thread's own
  // share of a node's edges; 0 = none. docs/search.md, "Thread affinity".
  double thread_affinity = 0.03;

  // The learned evaluation used when eval is kNet or kHybrid, loaded by the
  // caller (the protocol layer reads the weights file); null falls back to
  // the classic one. `net` is for games of 2 players, `net_multi` for 3 and
  // 4 (a network trained on their games: --weights-multi).
  std::shared_ptr<const Evaluator> net;
  std::shared_ptr<const Evaluator> net_multi;
  // Threads' search: the weight of a descent in flight as a loss in its
  // edge's value (tree_policy.h, kFullVirtualLoss); it counts as a visit in
  // the exploration term whatever the weight. One thread has none in flight.
  // 0 is WU-UCT's rule, why and measured: docs/search.md, "Threads: equal
  // playouts (virtual loss)".
  double virtual_loss = 0.0;
  // Near the end of the game (levels 8..10), the share of a move's time (or
  // of its playouts, counted in solver nodes) that the exact endgame solver
  // gets before the graph search; 0 = never. docs/solver.md, "In the
  // engine".
  double solver_share = 0.2;

  bool operator==(const SearchOptions&) const = default;
};

// The profiles: SearchOptions{} changed where a program or test searches
// otherwise than the engine, each stated once here.
//
// The classic evaluation alone with no move time (the caller gives visits
// or a clock): the search without a network, for the search's tests and
// the tools that measure it in process.
inline SearchOptions ClassicProfile() {
  SearchOptions options;
  options.movetime_s = 0;
  options.eval = EvalKind::kClassic;
  options.shortlist = 0;
  options.policy_weight = 0;
  return options;
}
// Self-play data (wallgo-net generate): one thread, 32 MB (many games at
// once), no move time (a visit budget a move), the classic evaluation
// (--eval picks net or hybrid, with a network); the shortlist and policy
// weight stay the engine's, so that the policy is trained on the visits of
// the search it drives.
inline SearchOptions SelfPlayProfile() {
  SearchOptions options;
  options.threads = 1;
  options.movetime_s = 0;
  options.hash_mb = 32;
  options.eval = EvalKind::kClassic;
  return options;
}

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
