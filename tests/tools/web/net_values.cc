// Prints the built-in network's values and priors, as exact hexadecimal
// floats, for the positions of a few pseudo-random games: built natively and
// for WebAssembly (tools/web), the two outputs must be equal byte for byte
// (web_test.py), which shows that the wasm SIMD128 sums equal the native
// ones to the bit.
//   wallgo-net-values [GAMES] [SEED]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/movegen.h"
#include "engine/position.h"
#include "engine/zobrist.h"
#include "search/net/builtin_weights.h"

namespace wallgo {
namespace {

void PrintEvaluation(const search::Evaluator& net, const Position& pos,
                     const MoveList& moves) {
  std::vector<float> priors(moves.size());
  const search::Value value =
      net.Evaluate(pos, std::span(moves.begin(), moves.end()), priors);
  for (int p = 0; p < pos.num_players(); ++p) {
    std::printf(" %a %a", value.win[p], value.margin[p]);
  }
  for (const float prior : priors) std::printf(" %a", prior);
  std::printf("\n");
}

int Main(int argc, char** argv) {
  const int games = argc > 1 ? std::atoi(argv[1]) : 4;
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  absl::StatusOr<std::shared_ptr<const search::Evaluator>> net =
      search::net::LoadNetEvaluator("");
  if (!net.ok()) {
    std::fprintf(stderr, "%s\n", std::string(net.status().message()).c_str());
    return 1;
  }
  uint64_t state = seed;
  for (int game = 0; game < games; ++game) {
    Position pos = *Position::Start(Rules::Default(2));
    for (int ply = 0;; ++ply) {
      MoveList moves;
      GenerateMoves(pos, moves);
      std::printf("%d %d", game, ply);
      PrintEvaluation(**net, pos, moves);
      if (moves.empty()) break;
      const Move move = moves[zobrist::SplitMix64(state++) % moves.size()];
      pos.Play(move);
    }
  }
  return 0;
}

}  // namespace
}  // namespace wallgo

int main(int argc, char** argv) { return wallgo::Main(argc, argv); }
