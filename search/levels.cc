// MakeSearcher: the player behind each level, from a random mover for
// beginners to the full-strength graph search.
#include "search/levels.h"

#include <memory>

#include "search/classic/eval.h"
#include "search/classic/shortlist_evaluator.h"
#include "search/endgame_search.h"
#include "search/frozen_contest.h"
#include "search/mcts.h"
#include "search/players/alphabeta.h"
#include "search/players/greedy.h"

namespace wallgo::search {
namespace {

// MCTS playout caps for levels 5..9 (level 10 has none) and the randomness
// of their final choice: lower levels play weaker, more human-like moves.
constexpr int64_t kLevelVisits[] = {100, 400, 1500, 6000, 25000};
constexpr double kLevelTemperature[] = {0.6, 0.3, 0.15, 0.0, 0.0};

// Whether `a` and `b` make the same evaluator (UseEvaluation): a searcher
// holds its evaluator, so it is rebuilt when any of these change.
bool SameEvaluation(const SearchOptions& a, const SearchOptions& b) {
  return a.eval == b.eval && a.shortlist == b.shortlist &&
         a.net_setup_priors == b.net_setup_priors &&
         a.policy_weight == b.policy_weight && a.net == b.net &&
         a.net_multi == b.net_multi;
}

// The first level whose choice has no randomness: from it on, the exact
// solver plays the end of the game (EndgameSearcher).
constexpr int kFirstSolvingLevel = 8;

// The player of `options.level`, with the solver in front from
// kFirstSolvingLevel on.
std::unique_ptr<Searcher> MakePlayer(const SearchOptions& options) {
  std::unique_ptr<Searcher> player = MakeLevelPlayer(options);
  if (options.level < kFirstSolvingLevel) return player;
  return std::make_unique<EndgameSearcher>(
      std::move(player), options, LevelConfig(options.level).max_visits);
}

// Searcher for `options.level`, rebuilt when the level or the evaluation
// changes.
class LevelSearcher : public Searcher {
 public:
  explicit LevelSearcher(const SearchOptions& options)
      : options_(options), inner_(MakePlayer(options)) {}

  void SetOptions(const SearchOptions& options) override {
    const bool same_player =
        options.level == options_.level && SameEvaluation(options, options_);
    options_ = options;
    if (same_player) {
      inner_->SetOptions(options);
    } else {
      inner_ = MakePlayer(options);
    }
  }
  void Clear() override { inner_->Clear(); }
  SearchResult Search(const Position& pos, const Limits& limits,
                      const InfoCallback& on_info,
                      double info_interval_s) override {
    SearchResult result = inner_->Search(pos, limits, on_info, info_interval_s);
    // The fixed-depth players average no playouts: they answer the root's
    // own estimate.
    if (limits.ownership && result.info.ownership.empty()) {
      const Ownership o = EstimateOwnership(pos);
      result.info.ownership.assign(o.share.begin(), o.share.end());
    }
    return result;
  }
  void Stop() override { inner_->Stop(); }

 private:
  SearchOptions options_;
  std::unique_ptr<Searcher> inner_;
};

// The player count the built-in network learned from: games of other
// counts get SearchOptions::net_multi, or the classic evaluation.
constexpr int kNetPlayers = 2;

// The search's evaluator with network `net` as options.eval says: its
// values and priors (net), or its values with the classic priors ranked
// and blended by its policy (hybrid).
std::shared_ptr<const Evaluator> Learned(
    const SearchOptions& options, std::shared_ptr<const Evaluator> net,
    const std::shared_ptr<const ClassicEvaluator>& classic) {
  if (options.eval == EvalKind::kNet) return net;
  std::shared_ptr<const Evaluator> priors = classic;
  if (options.shortlist > 0) {
    priors = std::make_shared<ShortlistEvaluator>(
        net, classic, options.shortlist, options.policy_weight);
  }
  if (options.net_setup_priors) {
    priors = std::make_shared<SetupPriorsEvaluator>(net, priors);
  }
  return std::make_shared<CompositeEvaluator>(net, priors);
}

// Puts options.eval's evaluator into `config` (the learned one, when asked
// for and loaded: options.net in games of kNetPlayers, options.net_multi in
// the others; else the config's own, the classic by default).
void UseEvaluation(const SearchOptions& options, MctsConfig& config) {
  if (options.eval == EvalKind::kClassic) return;
  if (options.net == nullptr && options.net_multi == nullptr) return;
  auto classic = std::make_shared<ClassicEvaluator>(config.classic);
  if (options.eval == EvalKind::kNet) {
    // The network's priors come with its value: one call expands a node.
    config.expand_at_creation = true;
  } else {
    config.hybrid_values = true;  // SearchOptions::c_puct_hybrid
  }
  auto learned_or_classic = [&](const std::shared_ptr<const Evaluator>& net) {
    return net == nullptr ? std::shared_ptr<const Evaluator>(classic)
                          : Learned(options, net, classic);
  };
  config.evaluator = std::make_shared<PlayerCountEvaluator>(
      kNetPlayers, learned_or_classic(options.net),
      learned_or_classic(options.net_multi));
}

}  // namespace

MctsConfig LevelConfig(int level) {
  MctsConfig config;
  if (level >= 5 && level <= 9) {
    config.max_visits = kLevelVisits[level - 5];
    config.move_temperature = kLevelTemperature[level - 5];
  }
  return config;
}

std::unique_ptr<Searcher> MakeLevelPlayer(const SearchOptions& options) {
  switch (options.level) {
    case 1:
      return std::make_unique<RandomPlayer>(options);
    case 2:
      return std::make_unique<GreedyPlayer>(options);
    case 3: {
      AlphaBetaConfig shallow;
      shallow.max_depth = 2;
      return std::make_unique<AlphaBetaPlayer>(options, shallow);
    }
    case 4:
      return std::make_unique<AlphaBetaPlayer>(options);
    default: {
      MctsConfig config = LevelConfig(options.level);
      UseEvaluation(options, config);
      // Whatever the evaluation, a frozen contest caps the final scores.
      std::shared_ptr<const Evaluator> evaluation =
          config.evaluator != nullptr
              ? config.evaluator
              : std::make_shared<ClassicEvaluator>(config.classic);
      config.evaluator =
          std::make_shared<FrozenContestEvaluator>(std::move(evaluation));
      return std::make_unique<MctsSearcher>(options, config);
    }
  }
}

std::unique_ptr<Searcher> MakeSearcher(const SearchOptions& options) {
  return std::make_unique<LevelSearcher>(options);
}

}  // namespace wallgo::search
