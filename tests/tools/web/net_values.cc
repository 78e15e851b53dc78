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

// Appends a float as an exact hexadecimal float, after a space.
void AppendHex(std::string& line, float value) {
  char text[32];
  std::snprintf(text, sizeof text, " %a", value);
  line += text;
}

// One whole line per write: under load, Node's proxied stdout of the wasm
// build once lost a newline and a few characters between the pieces of a
// line printed piece by piece.
void PrintEvaluation(const search::Evaluator& net, const Position& pos,
                     const MoveList& moves, std::string line) {
  std::vector<float> priors(moves.size());
  const search::Value value =
      net.Evaluate(pos, std::span(moves.begin(), moves.end()), priors);
  for (int p = 0; p < pos.num_players(); ++p) {
    AppendHex(line, value.win[p]);
    AppendHex(line, value.margin[p]);
  }
  for (const float prior : priors) AppendHex(line, prior);
  line += "\n";
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
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
      PrintEvaluation(**net, pos, moves,
                      std::to_string(game) + " " + std::to_string(ply));
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
