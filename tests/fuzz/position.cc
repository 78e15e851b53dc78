// Fuzz target: position strings (the protocol's `setup`), then a few legal
// moves chosen by the remaining bytes, with the position's invariants
// checked after each: the incremental hash, stones and walls consistent,
// the text round trip, the parts round trip, and move generation agreeing
// with CheckMove and the end of the game.
//
// Input: a position string on the first line; each byte after it picks one
// legal move (index modulo the number of moves), up to 16 moves.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "tests/fuzz/fuzz_check.h"

namespace wallgo {
namespace {

void CheckInvariants(const Position& pos) {
  const std::string text = PositionString(pos);
  FUZZ_CHECK(pos.hash() == pos.ComputeHash(), text);
  Bitboard all = 0;
  WallMasks walls;
  for (int p = 0; p < kMaxPlayers; ++p) {
    const Colour c = ColourAt(p);
    FUZZ_CHECK((all & pos.stones(c)) == 0, "two stones on a cell: " + text);
    all |= pos.stones(c);
    FUZZ_CHECK((walls.north & pos.walls_of(c).north) == 0, text);
    FUZZ_CHECK((walls.east & pos.walls_of(c).east) == 0, text);
    walls.north |= pos.walls_of(c).north;
    walls.east |= pos.walls_of(c).east;
    if (p >= pos.num_players()) {
      FUZZ_CHECK(pos.stones(c) == 0, "stones of a colour not in the game");
      continue;
    }
    const int limit = pos.rules().wall_limit;
    FUZZ_CHECK(limit == kUnlimitedWalls || pos.walls_on_board(c) <= limit,
               text);
    FUZZ_CHECK(pos.breakers_left(c) >= 0 &&
                   pos.breakers_left(c) <= pos.rules().breakers,
               text);
  }
  FUZZ_CHECK(all == pos.occupied(), text);
  FUZZ_CHECK(walls == pos.walls(), text);
  FUZZ_CHECK((walls.north & kRow7) == 0 && (walls.east & kColG) == 0,
             "a wall on the rim: " + text);
  FUZZ_CHECK(Index(pos.to_move()) < pos.num_players(), text);

  absl::StatusOr<Position> again = ParsePosition(text);
  FUZZ_CHECK(again.ok(), text + ": " + std::string(again.status().message()));
  FUZZ_CHECK(*again == pos, text + " -> " + PositionString(*again));
  absl::StatusOr<Position> parts = Position::FromParts(pos.ToParts());
  FUZZ_CHECK(parts.ok() && *parts == pos, text);

  MoveList moves;
  GenerateMoves(pos, moves);
  FUZZ_CHECK(CountMoves(pos) == moves.size(), text);
  FUZZ_CHECK(moves.empty() == IsGameOver(pos), text);
  for (const Move& move : moves) {
    const absl::Status legal = CheckMove(pos, pos.to_move(), move);
    FUZZ_CHECK(legal.ok(), text + " " + MoveName(move) + ": " +
                               std::string(legal.message()));
  }
}

}  // namespace
}  // namespace wallgo

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wallgo;
  if (size > 4096) return 0;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t newline = input.find('\n');
  const std::string text = input.substr(0, newline);
  absl::StatusOr<Position> parsed = ParsePosition(text);
  if (!parsed.ok()) {
    FUZZ_CHECK(!parsed.status().message().empty(), text);
    return 0;
  }
  Position pos = *parsed;
  CheckInvariants(pos);
  if (newline == std::string::npos) return 0;
  fuzz::ByteReader bytes(data + newline + 1, size - newline - 1);
  for (int i = 0; i < 16 && !bytes.empty(); ++i) {
    MoveList moves;
    GenerateMoves(pos, moves);
    if (moves.empty()) break;
    pos.Play(moves[bytes.Below(moves.size())]);
    CheckInvariants(pos);
  }
  return 0;
}
