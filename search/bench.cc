#include "search/bench.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>

#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "search/levels.h"
#include "search/mcts.h"

namespace wallgo::search {

const std::vector<BenchPosition>& BenchPositions() {
  static const auto* const kPositions = new std::vector<BenchPosition>{
      {"players=2", ""},
      {"players=2 setup=empty", ""},
      {"players=3", ""},
      {"players=4", ""},
      {"players=2",
       "e2 c2 b3 c5 e2f3e b6c6s c5d6e c2c2e b2c1n c2b1e c1e1n "
       "b3d3s d6d4s d3c4n e1f1n c6d5e f1g2w f2e3w f3e2e b1a1e"},
      {"players=2",
       "c6 e6 f5 e3 c6b5e f2e2n e3d2e e2d1n b2c1n e6e6e d2e3n "
       "e6f7w e3f4e f5e4e f6e5e f7f5n e5d4w e4d5e f4f4n f5g6n "
       "f4g3n d1d1w c1b2s d5d5s"},
      {"players=2",
       "b5 b3 c5 e3 e3c3s f2e3w f6f4w e3f3n f4e5w f3e3n c3d2n "
       "e3e2s b5b4s c5d6w e5e6n b3c4n b2c3n b6b5s c3d4w b5a4e "
       "d4d5n e2e2w d5b5w e2f2n b5a6s a4b3s d2b2e b3a2e"},
      {"players=2 setup=empty",
       "d6 d4 e6 d3 c4 c2 e3 f4 d3e2w d4c5e f4f3w "
       "e3f4s e2e4w c5b4e c4b5w c2d3w f3e2n d3d1e"},
      {"players=3",
       "e5 d4 c3 d6 c2 b3 e5f4e d4d3w c3b4s b3a4e d3f3n b4d4e "
       "f4f6n f3d3xw"},
      {"players=4",
       "d6 d4 d3 f4 b3 g5 b2 e2 e2d2n d4e3w d3c3w f4f2w d2e2xe "
       "b2c2n c3b4s b3a4e"},
  };
  return *kPositions;
}

Position BenchStart(const BenchPosition& bench) {
  absl::StatusOr<Rules> rules = ParseRules(bench.rules);
  if (!rules.ok())
    throw std::logic_error(std::string(rules.status().message()));
  absl::StatusOr<Game> game = Game::New(*rules);
  if (!game.ok()) throw std::logic_error(std::string(game.status().message()));
  const std::vector<std::string> texts =
      absl::StrSplit(bench.moves, ' ', absl::SkipEmpty());
  for (const std::string& text : texts) {
    absl::StatusOr<Move> move = ParseMove(text);
    absl::Status played = move.ok()
                              ? game->Play(game->position().to_move(), *move)
                              : move.status();
    if (!played.ok()) {
      throw std::logic_error("bench move " + text + ": " +
                             std::string(played.message()));
    }
  }
  return game->position();
}

BenchReport RunBench(const SearchOptions& options) {
  SearchOptions bench_options = options;
  bench_options.threads = 1;
  bench_options.movetime_s = 0;
  if (bench_options.visits <= 0) bench_options.visits = kBenchVisits;
  // Enough memory that no bench search fills it, so that the signature
  // does not depend on the hash option.
  bench_options.hash_mb = std::max(bench_options.hash_mb, kBenchMinHashMb);
  std::unique_ptr<Searcher> searcher = MakeLevelPlayer(bench_options);
  BenchReport report;
  const auto start = std::chrono::steady_clock::now();
  for (const BenchPosition& bench : BenchPositions()) {
    searcher->Clear();
    const SearchResult result =
        searcher->Search(BenchStart(bench), Limits{}, nullptr, 0);
    // The graph search's signature counts nodes passed, not created (every
    // playout creates one node, whatever it does); other levels report
    // their own node counts.
    const auto* mcts = dynamic_cast<const MctsSearcher*>(searcher.get());
    report.nodes += mcts ? mcts->last_nodes_visited() : result.info.nodes;
    report.visits += result.info.total_visits;
    ++report.positions;
  }
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (report.seconds > 0) {
    report.nodes_per_second = report.nodes / report.seconds;
    report.visits_per_second = report.visits / report.seconds;
  }
  return report;
}

}  // namespace wallgo::search
