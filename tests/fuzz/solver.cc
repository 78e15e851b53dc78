// Fuzz target: the endgame solver on hostile positions. A position string
// (the protocol's `setup`) on the first line, then bytes that pick up to 16
// legal moves (as the `position` target); the position reached is solved
// twice, with a small and a larger node budget. Checked: no crash; a
// finished game is its own result; a proven value lies in range and has
// legal optimal moves and a legal line; unproven answers list no optimal
// moves; and two proofs of one position agree (an unproven value reported
// as proven would sooner or later disagree with a real proof).
#include "search/solver/solver.h"

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "tests/fuzz/fuzz_check.h"

namespace wallgo {
namespace {

void CheckAnswer(const Position& pos, const search::SolveResult& r) {
  const std::string text = PositionString(pos);
  if (!r.proven) {
    FUZZ_CHECK(r.optimal.empty(), "unproven with optimal moves: " + text);
    return;
  }
  if (r.game_over) {
    FUZZ_CHECK(IsGameOver(pos), text);
    FUZZ_CHECK(r.utility == search::FinishedUtilities(pos), text);
    return;
  }
  for (int p = 0; p < pos.num_players(); ++p) {
    const auto v = search::PlayerValue::FromUtility(r.utility[p]);
    FUZZ_CHECK(v.margin >= -49 && v.margin <= 49, text);
    FUZZ_CHECK(v.share12 == 0 || v.share12 == 3 || v.share12 == 4 ||
                   v.share12 == 6 || v.share12 == 12,
               text);
  }
  FUZZ_CHECK(!r.optimal.empty(), "proven without a move: " + text);
  for (const Move& m : r.optimal) {
    FUZZ_CHECK(CheckMove(pos, pos.to_move(), m).ok(), text + " " + MoveName(m));
  }
  Position p = pos;
  for (const Move& m : r.pv) {
    FUZZ_CHECK(!IsGameOver(p) && CheckMove(p, p.to_move(), m).ok(),
               text + " pv " + MoveName(m));
    p.Play(m);
  }
}

}  // namespace
}  // namespace wallgo

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wallgo;
  if (size > 4096) return 0;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t newline = input.find('\n');
  absl::StatusOr<Position> parsed = ParsePosition(input.substr(0, newline));
  if (!parsed.ok()) return 0;
  Position pos = *parsed;
  if (newline != std::string::npos) {
    fuzz::ByteReader bytes(data + newline + 1, size - newline - 1);
    for (int i = 0; i < 16 && !bytes.empty(); ++i) {
      MoveList moves;
      GenerateMoves(pos, moves);
      if (moves.empty()) break;
      pos.Play(moves[bytes.Below(moves.size())]);
    }
  }
  search::SolverLimits limits;
  limits.seconds = 0;
  limits.hash_mb = 1;
  limits.nodes = 3000;
  const search::SolveResult small = search::Solve(pos, limits);
  CheckAnswer(pos, small);
  limits.nodes = 30000;
  const search::SolveResult large = search::Solve(pos, limits);
  CheckAnswer(pos, large);
  if (small.proven && large.proven) {
    FUZZ_CHECK(small.utility == large.utility,
               "two proofs disagree: " + PositionString(pos));
  }
  return 0;
}
