// Fuzz target: the bitboard engine against the plain reference implementation
// (tests/engine/reference.h) on games the fuzzer steers. The first bytes pick
// the rules (every player count, setup, stay rule, wall limit, breakers);
// then each byte picks a move among the legal ones, and once the bytes run
// out a generator seeded by them plays on to the end of the game. Optionally (a
// bit of the third byte) the position after the setup phase gets extra walls,
// breakers spent and a side to move from the bytes, built through
// Position::FromParts, to reach positions play rarely reaches. At every
// position both must agree on the legal moves, their count, the regions,
// whether each player has a turn, the end of the game, the scores, the
// tie-break and the winners; the chosen move must have the same effect in both;
// and the position string and the parts must round-trip. Any difference aborts
// with the position.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/outcome.h"
#include "engine/regions.h"
#include "tests/engine/reference.h"
#include "tests/fuzz/fuzz_check.h"

namespace wallgo {
namespace {

namespace ref = ::wallgo::reference;

// Positions compared in this process, printed at exit (the figure in
// docs/fuzzing.md).
uint64_t positions_compared = 0;

void PrintCount() {
  std::fprintf(stderr, "rules_differential: %llu positions compared\n",
               static_cast<unsigned long long>(positions_compared));
}

Rules RulesFrom(fuzz::ByteReader& bytes) {
  const uint8_t a = bytes.Next();
  const uint8_t b = bytes.Next();
  Rules rules = Rules::Default(2 + a % 3);
  if (rules.players == 2) {
    rules.setup = (a >> 2 & 1) ? SetupRule::kEmpty : SetupRule::kFourStone;
  } else {
    rules.breakers = a >> 2 & 1;
  }
  rules.stay = (a >> 3 & 1) ? StayRule::kMobile : StayRule::kAlways;
  rules.wall_limit = b < 128 ? kUnlimitedWalls : b % 32;
  return rules;
}

std::set<std::string> EngineMoves(const Position& pos, const MoveList& moves) {
  std::set<std::string> names;
  for (const Move& m : moves) names.insert(MoveName(m));
  FUZZ_CHECK(names.size() == static_cast<size_t>(moves.size()),
             "a move generated twice: " + PositionString(pos));
  return names;
}

std::set<std::set<int>> EngineRegions(const Position& pos) {
  const Regions regions = FindRegions(pos.walls());
  std::set<std::set<int>> out;
  for (int i = 0; i < regions.count; ++i) {
    std::set<int> cells;
    for (Bitboard b = regions.masks[i]; b != 0; b = PopLowest(b)) {
      cells.insert(LowestCell(b));
    }
    out.insert(cells);
  }
  return out;
}

std::set<std::set<int>> ReferenceRegions(const ref::Board& board) {
  std::set<std::set<int>> out;
  for (const auto& region : ref::RegionsOf(board)) {
    std::set<int> cells;
    for (const ref::Cell& c : region) cells.insert(CellOf(c.col, c.row));
    out.insert(cells);
  }
  return out;
}

// Every observable both implementations have, on one position.
void Compare(const Position& pos, const ref::Board& board,
             const MoveList& moves, const std::vector<ref::Turn>& turns) {
  // Also every 2^18 positions: a run that ends by a signal still says.
  if (++positions_compared % (1 << 18) == 0) PrintCount();
  const std::string text = PositionString(pos);
  FUZZ_CHECK(ref::FromPosition(pos) == board, "boards differ: " + text);
  std::set<std::string> reference_moves;
  for (const ref::Turn& t : turns) reference_moves.insert(ref::MoveText(t));
  FUZZ_CHECK(EngineMoves(pos, moves) == reference_moves,
             "legal moves differ: " + text);
  FUZZ_CHECK(CountMoves(pos) == static_cast<int>(turns.size()),
             "move count differs: " + text);
  FUZZ_CHECK(pos.in_setup() == ref::InSetup(board), "setup differs: " + text);
  FUZZ_CHECK(IsGameOver(pos) == ref::GameOver(board),
             "game end differs: " + text);
  FUZZ_CHECK(EngineRegions(pos) == ReferenceRegions(board),
             "regions differ: " + text);
  if (!pos.in_setup()) {
    for (int p = 0; p < pos.num_players(); ++p) {
      FUZZ_CHECK(
          HasLegalTurn(pos, ColourAt(p)) == ref::HasTurn(board, p),
          "has-turn differs for " + ColourName(ColourAt(p)) + ": " + text);
    }
  }
  const ref::Outcome expected = ref::Score(board);
  const Result result = ComputeResult(pos);
  for (int p = 0; p < pos.num_players(); ++p) {
    FUZZ_CHECK(result.sheet.score[p] == expected.score[p],
               "score differs: " + text);
    FUZZ_CHECK(result.sheet.largest_region[p] == expected.largest[p],
               "largest region differs: " + text);
  }
  FUZZ_CHECK(result.winners == expected.winners, "winners differ: " + text);
  // The protocol's text and the parts give back the same position.
  absl::StatusOr<Position> parsed = ParsePosition(text);
  FUZZ_CHECK(parsed.ok() && *parsed == pos, "position string: " + text);
  absl::StatusOr<Position> parts = Position::FromParts(pos.ToParts());
  FUZZ_CHECK(parts.ok() && *parts == pos, "parts: " + text);
  FUZZ_CHECK(pos.hash() == pos.ComputeHash(), "hash: " + text);
}

// The position with extra walls (each: an edge and a builder), breakers left
// and a side to move taken from the bytes; `pos` itself when the result is
// not a valid position (then FromParts must say why).
Position Perturb(const Position& pos, fuzz::ByteReader& bytes) {
  Position::Parts parts = pos.ToParts();
  const int walls = bytes.Below(48);
  for (int i = 0; i < walls; ++i) {
    const int cell = bytes.Below(kNumCells);
    const bool east = bytes.Next() & 1;
    const int builder = bytes.Below(pos.num_players());
    Bitboard& mask =
        east ? parts.walls[builder].east : parts.walls[builder].north;
    if (east ? ColOf(cell) == 6 : RowOf(cell) == 6) continue;  // the rim
    bool taken = false;
    for (const WallMasks& w : parts.walls) {
      taken |= ((east ? w.east : w.north) & CellBit(cell)) != 0;
    }
    if (!taken) mask |= CellBit(cell);
  }
  for (int p = 0; p < pos.num_players(); ++p) {
    parts.breakers_left[p] = bytes.Below(pos.rules().breakers + 1);
  }
  parts.to_move = ColourAt(bytes.Below(pos.num_players()));
  absl::StatusOr<Position> changed = Position::FromParts(parts);
  if (!changed.ok()) {
    FUZZ_CHECK(!changed.status().message().empty(), PositionString(pos));
    return pos;
  }
  return *changed;
}

}  // namespace
}  // namespace wallgo

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::atexit(wallgo::PrintCount);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wallgo;
  if (size > 2048) return 0;
  fuzz::ByteReader bytes(data, size);
  const Rules rules = RulesFrom(bytes);
  const bool perturb = bytes.Next() & 1;
  absl::StatusOr<Position> start = Position::Start(rules);
  FUZZ_CHECK(start.ok(), RulesString(rules));
  Position pos = *start;
  bool perturbed = false;
  for (int ply = 0; ply < 400; ++ply) {
    if (perturb && !perturbed && !pos.in_setup()) {
      pos = Perturb(pos, bytes);
      perturbed = true;
    }
    const ref::Board board = ref::FromPosition(pos);
    MoveList moves;
    GenerateMoves(pos, moves);
    const std::vector<ref::Turn> turns = ref::LegalMoves(board);
    Compare(pos, board, moves, turns);
    if (moves.empty()) break;
    const Move move = moves[bytes.Below(moves.size())];
    const std::string name = MoveName(move);
    auto turn = std::find_if(turns.begin(), turns.end(), [&](const auto& t) {
      return ref::MoveText(t) == name;
    });
    FUZZ_CHECK(turn != turns.end(), name);
    const ref::Board expected = ref::Apply(board, *turn);
    pos.Play(move);
    FUZZ_CHECK(ref::FromPosition(pos) == expected,
               "effect of " + name + " differs: " + PositionString(pos));
  }
  return 0;
}
