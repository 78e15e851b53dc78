// Speed of the reachability evaluation (it runs at every MCTS leaf) and of
// the alpha-beta player, on positions from greedy self-play games.
//   build-<dir>/bin/eval_bench
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine/movegen.h"
#include "engine/regions.h"
#include "search/classic/children.h"
#include "search/classic/eval.h"
#include "search/players/alphabeta.h"
#include "search/players/greedy.h"

namespace wallgo::search {
namespace {

// Every position of a few greedy self-play games (setup included, finished
// positions excluded), the mix a search meets.
std::vector<Position> GamePositions(int players, int games) {
  std::vector<Position> out;
  SearchOptions options = ClassicProfile();
  for (int g = 0; g < games; ++g) {
    options.seed = g;
    GreedyPlayer player(options);
    Position pos = *Position::Start(Rules::Default(players));
    while (!IsGameOver(pos)) {
      out.push_back(pos);
      pos.Play(player.Search(pos, {}, nullptr, 1).best);
    }
  }
  return out;
}

void BM_Evaluate(benchmark::State& state) {
  const std::vector<Position> positions =
      GamePositions(static_cast<int>(state.range(0)), 8);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(Evaluate(positions[i]));
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Evaluate)->Arg(2)->Arg(3)->Arg(4);

// A leaf as a search meets it: copy, play a move, evaluate.
void BM_PlayAndEvaluate(benchmark::State& state) {
  const std::vector<Position> positions = GamePositions(2, 8);
  std::vector<std::pair<Position, Move>> leaves;
  std::mt19937_64 rng(1);
  for (const Position& pos : positions) {
    MoveList moves;
    GenerateMoves(pos, moves);
    leaves.emplace_back(pos, moves[rng() % moves.size()]);
  }
  size_t i = 0;
  for (auto _ : state) {
    Position next = leaves[i].first;
    next.Play(leaves[i].second);
    benchmark::DoNotOptimize(Evaluate(next));
    if (++i == leaves.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PlayAndEvaluate);

// The mover's outlook of every child of a position, as the classic priors
// want them: one child at a time (copy, play, Evaluate: the old path) or
// all at once (EvaluateChildren). Items are children: 1e9 / items_per_second
// is the time per child in ns.
template <bool kAllAtOnce>
void BM_Children(benchmark::State& state) {
  const std::vector<Position> positions =
      GamePositions(static_cast<int>(state.range(0)), 8);
  std::vector<MoveList> moves(positions.size());
  for (size_t i = 0; i < positions.size(); ++i) {
    GenerateMoves(positions[i], moves[i]);
  }
  std::vector<ChildOutlook> out(MoveList::kCapacity);
  size_t i = 0;
  int64_t children = 0;
  for (auto _ : state) {
    const std::span<const Move> list(moves[i].begin(), moves[i].end());
    if constexpr (kAllAtOnce) {
      EvaluateChildren(positions[i], list, std::span(out.data(), list.size()));
    } else {
      for (size_t m = 0; m < list.size(); ++m) {
        out[m] = EvaluateChildSlowly(positions[i], list[m]);
      }
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
    children += static_cast<int64_t>(list.size());
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(children);
}
BENCHMARK(BM_Children<false>)
    ->Name("BM_ChildrenOneByOne")
    ->Arg(2)
    ->Arg(3)
    ->Arg(4);
BENCHMARK(BM_Children<true>)
    ->Name("BM_ChildrenAllAtOnce")
    ->Arg(2)
    ->Arg(3)
    ->Arg(4);

}  // namespace
}  // namespace wallgo::search

BENCHMARK_MAIN();
