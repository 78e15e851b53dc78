#include "engine/movegen.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "engine/notation.h"
#include "engine/regions.h"

namespace wallgo {
namespace {

// Cells a turn may end on when only `blocked` cells stop the stone.
Bitboard Reach(int from, Bitboard blocked, const WallMasks& walls,
               StayRule stay) {
  const Bitboard start = CellBit(from);
  const Bitboard one = Step(start, walls) & ~blocked;
  const Bitboard two = Step(one, walls) & ~blocked;
  // stay=mobile: `two` holds the start exactly when a single step exists.
  return one | two | (stay == StayRule::kAlways ? start : 0);
}

// What a player may do with a destination cell this turn.
struct TurnMasks {
  std::array<Bitboard, kNumSides> build{};  // free edges, if walls remain
  std::array<Bitboard, kNumSides> brk{};  // walled edges, if a breaker remains
  Bitboard any = 0;                       // cells with at least one option
};

TurnMasks MakeTurnMasks(const Position& pos, Colour colour) {
  TurnMasks m;
  const bool can_build = pos.walls_left(colour) != 0;
  const bool can_break = pos.breakers_left(colour) > 0;
  for (int s = 0; s < kNumSides; ++s) {
    const Side side = static_cast<Side>(s);
    if (can_build) m.build[s] = FreeSideMask(pos.walls(), side);
    if (can_break) m.brk[s] = WalledSideMask(pos.walls(), side);
    m.any |= m.build[s] | m.brk[s];
  }
  return m;
}

int CountTurns(const Position& pos, Colour colour) {
  const TurnMasks m = MakeTurnMasks(pos, colour);
  int count = 0;
  for (Bitboard s = pos.stones(colour); s; s = PopLowest(s)) {
    const Bitboard dest = Destinations(pos, LowestCell(s));
    for (int side = 0; side < kNumSides; ++side)
      count += PopCount(dest & m.build[side]) + PopCount(dest & m.brk[side]);
  }
  return count;
}

void GenerateTurns(const Position& pos, Colour colour, MoveList& out) {
  const TurnMasks m = MakeTurnMasks(pos, colour);
  for (Bitboard s = pos.stones(colour); s; s = PopLowest(s)) {
    const int from = LowestCell(s);
    const Bitboard dest = Destinations(pos, from);
    for (int side = 0; side < kNumSides; ++side) {
      for (Bitboard d = dest & m.build[side]; d; d = PopLowest(d))
        out.push_back(Move::Turn(from, LowestCell(d), static_cast<Side>(side)));
      for (Bitboard d = dest & m.brk[side]; d; d = PopLowest(d))
        out.push_back(
            Move::Break(from, LowestCell(d), static_cast<Side>(side)));
    }
  }
}

absl::Status Illegal(const Move& move, absl::string_view why) {
  return absl::FailedPreconditionError(
      absl::StrCat("illegal move: ", MoveName(move), ": ", why));
}

// Why `to` is not a destination of the stone on `from`.
std::string WhyUnreachable(const Position& pos, int from, int to) {
  const int distance =
      std::abs(ColOf(from) - ColOf(to)) + std::abs(RowOf(from) - RowOf(to));
  if (distance > 2)
    return absl::StrCat(CellName(to), " is more than two steps from ",
                        CellName(from));
  if (from == to) return "a stone may stay only if it could step out and back";
  if (pos.occupied() & CellBit(to))
    return absl::StrCat(CellName(to), " is occupied");
  const Bitboard blocked = pos.occupied() & ~CellBit(from);
  const StayRule stay = pos.rules().stay;
  if (Reach(from, 0, pos.walls(), stay) & CellBit(to))
    return absl::StrCat("the path to ", CellName(to), " is blocked by stones");
  if (Reach(from, blocked, WallMasks{}, stay) & CellBit(to))
    return absl::StrCat("the path to ", CellName(to), " is walled off");
  return absl::StrCat("the path to ", CellName(to),
                      " is blocked by walls and stones");
}

absl::Status CheckTurn(const Position& pos, Colour colour, Move move) {
  if (!(pos.stones(colour) & CellBit(move.from)))
    return Illegal(move, absl::StrCat(CellName(move.from), " holds no ",
                                      ColourName(colour), " stone"));
  if (!(Destinations(pos, move.from) & CellBit(move.to)))
    return Illegal(move, WhyUnreachable(pos, move.from, move.to));
  const EdgeOrRim edge = EdgeAt(move.to, move.side);
  const std::string edge_name =
      absl::StrCat(CellName(move.to), std::string(1, SideLetter(move.side)));
  if (!edge.valid) return Illegal(move, absl::StrCat(edge_name, " is the rim"));
  const bool walled = WalledSideMask(pos.walls(), move.side) & CellBit(move.to);
  if (move.kind == MoveKind::kTurn) {
    if (walled)
      return Illegal(move, absl::StrCat(edge_name, " already has a wall"));
    if (pos.walls_left(colour) == 0)
      return Illegal(move,
                     absl::StrCat(ColourName(colour), " has no walls left"));
    return absl::OkStatus();
  }
  if (pos.rules().breakers == 0)
    return Illegal(move, "this game has no wall breakers");
  if (pos.breakers_left(colour) == 0)
    return Illegal(
        move, absl::StrCat(ColourName(colour), " has used its wall breaker"));
  if (!walled)
    return Illegal(move, absl::StrCat(edge_name, " has no wall to break"));
  return absl::OkStatus();
}

}  // namespace

Bitboard Destinations(const Position& pos, int from) {
  return Reach(from, pos.occupied() & ~CellBit(from), pos.walls(),
               pos.rules().stay);
}

Bitboard FreeSideMask(const WallMasks& walls, Side side) {
  switch (side) {
    case Side::kNorth:
      return kAllCells & ~kRow7 & ~walls.north;
    case Side::kEast:
      return kAllCells & ~kColG & ~walls.east;
    case Side::kSouth:
      return kAllCells & ~kRow1 & ~(walls.north << 7);
    case Side::kWest:
      return kAllCells & ~kColA & ~(walls.east << 1);
  }
  return 0;
}

Bitboard WalledSideMask(const WallMasks& walls, Side side) {
  switch (side) {
    case Side::kNorth:
      return walls.north;
    case Side::kEast:
      return walls.east;
    case Side::kSouth:
      return walls.north << 7;
    case Side::kWest:
      return walls.east << 1;
  }
  return 0;
}

bool HasLegalTurn(const Position& pos, Colour colour) {
  const TurnMasks m = MakeTurnMasks(pos, colour);
  if (!m.any) return false;
  for (Bitboard s = pos.stones(colour); s; s = PopLowest(s))
    if (Destinations(pos, LowestCell(s)) & m.any) return true;
  return false;
}

void GenerateMoves(const Position& pos, MoveList& out) {
  out.clear();
  if (pos.in_setup()) {
    for (Bitboard e = kAllCells & ~pos.occupied(); e; e = PopLowest(e))
      out.push_back(Move::Place(LowestCell(e)));
    return;
  }
  if (IsGameOver(pos)) return;
  GenerateTurns(pos, pos.to_move(), out);
  if (out.empty()) out.push_back(Move::Pass());
}

int CountMoves(const Position& pos) {
  if (pos.in_setup()) return PopCount(kAllCells & ~pos.occupied());
  if (IsGameOver(pos)) return 0;
  const int turns = CountTurns(pos, pos.to_move());
  return turns > 0 ? turns : 1;
}

absl::Status CheckMove(const Position& pos, Colour colour, Move move) {
  if (Index(colour) >= pos.num_players())
    return absl::InvalidArgumentError(
        absl::StrCat("illegal move: ", ColourName(colour), " is not in a ",
                     pos.num_players(), "-player game"));
  if (move.from >= kNumCells || move.to >= kNumCells)
    return absl::InvalidArgumentError("illegal move: a cell off the board");
  if (IsGameOver(pos)) return absl::FailedPreconditionError("game over");
  if (move.kind == MoveKind::kResign) return absl::OkStatus();
  if (colour != pos.to_move())
    return Illegal(
        move, absl::StrCat("it is ", ColourName(pos.to_move()), "'s turn"));
  if (pos.in_setup()) {
    if (move.kind != MoveKind::kPlace)
      return Illegal(move, "the setup phase needs a placement, e.g. d4");
    if (pos.occupied() & CellBit(move.to))
      return Illegal(move, absl::StrCat(CellName(move.to), " is occupied"));
    return absl::OkStatus();
  }
  switch (move.kind) {
    case MoveKind::kPlace:
      return Illegal(move,
                     "placements are over: a turn is from, to and wall side, "
                     "e.g. c3c5n");
    case MoveKind::kPass:
      if (HasLegalTurn(pos, colour))
        return Illegal(move, "pass is legal only without a legal turn");
      return absl::OkStatus();
    default:
      return CheckTurn(pos, colour, move);
  }
}

}  // namespace wallgo
