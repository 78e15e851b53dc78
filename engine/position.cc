#include "engine/position.h"

#include <span>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/zobrist.h"

namespace wallgo {
namespace {

using zobrist::kKeys;

constexpr Colour R = Colour::kRed, B = Colour::kBlue, G = Colour::kGreen,
                 Y = Colour::kYellow;
constexpr Colour kOrderFourStone[] = {R, B, B, R};
constexpr Colour kOrderEmpty2[] = {R, B, B, R, R, B, B, R};
constexpr Colour kOrder3[] = {R, B, G, G, B, R};
constexpr Colour kOrder4[] = {R, B, G, Y, Y, G, B, R};

std::span<const Colour> PlacementOrder(const Rules& rules) {
  if (rules.players == 3) return kOrder3;
  if (rules.players == 4) return kOrder4;
  if (rules.setup == SetupRule::kFourStone) return kOrderFourStone;
  return kOrderEmpty2;
}

// The stones on the board before the first placement (setup=fourstone).
std::array<Bitboard, kMaxPlayers> FixedStones(const Rules& rules) {
  std::array<Bitboard, kMaxPlayers> fixed{};
  if (rules.players == 2 && rules.setup == SetupRule::kFourStone) {
    fixed[Index(R)] = CellBit(CellOf(1, 1)) | CellBit(CellOf(5, 5));  // b2 f6
    fixed[Index(B)] = CellBit(CellOf(1, 5)) | CellBit(CellOf(5, 1));  // b6 f2
  }
  return fixed;
}

constexpr int kInteriorEdges = 84;

}  // namespace

absl::Status ValidateRules(const Rules& rules) {
  if (rules.players < 2 || rules.players > kMaxPlayers)
    return absl::InvalidArgumentError(
        absl::StrCat("players must be 2, 3 or 4, not ", rules.players));
  if (rules.players > 2 && rules.setup == SetupRule::kFourStone)
    return absl::InvalidArgumentError("setup=fourstone needs 2 players");
  if (rules.breakers < 0 || rules.breakers > 1)
    return absl::InvalidArgumentError("breakers must be 0 or 1");
  if (rules.players == 2 && rules.breakers != 0)
    return absl::InvalidArgumentError("2-player games have no wall breakers");
  if (rules.wall_limit != kUnlimitedWalls &&
      (rules.wall_limit < 0 || rules.wall_limit > kInteriorEdges))
    return absl::InvalidArgumentError(
        "wall-limit must be unlimited or a number from 0 to 84");
  return absl::OkStatus();
}

int Position::TotalPlacements(const Rules& rules) {
  return static_cast<int>(PlacementOrder(rules).size());
}

Colour Position::PlacerAt(const Rules& rules, int index) {
  return PlacementOrder(rules)[index];
}

absl::StatusOr<Position> Position::Start(const Rules& rules) {
  Parts parts;
  parts.rules = rules;
  parts.to_move = Colour::kRed;
  parts.stones = FixedStones(rules);
  parts.breakers_left.fill(rules.breakers);
  return FromParts(parts);
}

namespace {

absl::Status InvalidPosition(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("invalid position: ", why));
}

// Checks the stones of `parts` and returns the number of placements made.
absl::StatusOr<int> CheckStones(const Position::Parts& parts) {
  const Rules& rules = parts.rules;
  Bitboard seen = 0;
  for (int p = 0; p < kMaxPlayers; ++p) {
    const Bitboard s = parts.stones[p];
    if (s & ~kAllCells) return InvalidPosition("a stone is off the board");
    if (p >= rules.players && s)
      return InvalidPosition(absl::StrCat("colour ", p + 1, " is not in a ",
                                          rules.players, "-player game"));
    if (seen & s) return InvalidPosition("two stones on one cell");
    seen |= s;
  }
  const auto fixed = FixedStones(rules);
  const auto order = PlacementOrder(rules);
  int placed = 0;
  for (int p = 0; p < rules.players; ++p)
    placed += PopCount(parts.stones[p]) - PopCount(fixed[p]);
  if (placed < 0 || placed > static_cast<int>(order.size()))
    return InvalidPosition("wrong number of stones");
  std::array<int, kMaxPlayers> expected{};
  for (int i = 0; i < placed; ++i) ++expected[Index(order[i])];
  for (int p = 0; p < rules.players; ++p) {
    if (PopCount(parts.stones[p]) - PopCount(fixed[p]) != expected[p])
      return InvalidPosition(
          "stone counts do not fit the placement order of these rules");
  }
  const bool setup = placed < static_cast<int>(order.size());
  if (setup) {
    for (int p = 0; p < rules.players; ++p)
      if ((parts.stones[p] & fixed[p]) != fixed[p])
        return InvalidPosition("a fixed starting stone is missing");
    if (parts.to_move != order[placed])
      return InvalidPosition("turn does not match the placement order");
  }
  return placed;
}

absl::Status CheckWalls(const Position::Parts& parts, bool setup) {
  const Rules& rules = parts.rules;
  WallMasks all;
  for (int p = 0; p < kMaxPlayers; ++p) {
    const WallMasks& w = parts.walls[p];
    if ((w.north & ~(kAllCells & ~kRow7)) || (w.east & ~(kAllCells & ~kColG)))
      return InvalidPosition("a wall on the rim");
    if (p >= rules.players && (w.north | w.east))
      return InvalidPosition("walls of a colour not in the game");
    if ((all.north & w.north) || (all.east & w.east))
      return InvalidPosition("two walls on one edge");
    all.north |= w.north;
    all.east |= w.east;
    const int count = PopCount(w.north) + PopCount(w.east);
    if (rules.wall_limit != kUnlimitedWalls && count > rules.wall_limit)
      return InvalidPosition("more walls than the wall limit");
  }
  if (setup && (all.north | all.east))
    return InvalidPosition("walls during the setup phase");
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Position> Position::FromParts(const Parts& parts) {
  if (absl::Status s = ValidateRules(parts.rules); !s.ok())
    return InvalidPosition(s.message());
  if (Index(parts.to_move) >= parts.rules.players)
    return InvalidPosition("turn names a colour not in the game");
  absl::StatusOr<int> placed = CheckStones(parts);
  if (!placed.ok()) return placed.status();
  const bool setup = *placed < TotalPlacements(parts.rules);
  if (absl::Status s = CheckWalls(parts, setup); !s.ok()) return s;
  for (int p = 0; p < kMaxPlayers; ++p) {
    const int b = p < parts.rules.players ? parts.breakers_left[p] : 0;
    if (b < 0 || b > parts.rules.breakers)
      return InvalidPosition("breakers left out of range");
  }
  Position pos;
  pos.rules_ = parts.rules;
  pos.to_move_ = parts.to_move;
  pos.placements_done_ = static_cast<uint8_t>(*placed);
  for (int p = 0; p < parts.rules.players; ++p) {
    pos.stones_[p] = parts.stones[p];
    pos.walls_by_[p] = parts.walls[p];
    pos.occupied_ |= parts.stones[p];
    pos.walls_.north |= parts.walls[p].north;
    pos.walls_.east |= parts.walls[p].east;
    pos.breakers_left_[p] = static_cast<uint8_t>(parts.breakers_left[p]);
  }
  pos.hash_ = pos.ComputeHash();
  return pos;
}

Position::Parts Position::ToParts() const {
  Parts parts;
  parts.rules = rules_;
  parts.to_move = to_move_;
  parts.stones = stones_;
  parts.walls = walls_by_;
  for (int p = 0; p < kMaxPlayers; ++p)
    parts.breakers_left[p] = breakers_left_[p];
  return parts;
}

int Position::walls_on_board(Colour c) const {
  const WallMasks& w = walls_by_[Index(c)];
  return PopCount(w.north) + PopCount(w.east);
}

int Position::walls_left(Colour c) const {
  if (rules_.wall_limit == kUnlimitedWalls) return kUnlimitedWalls;
  return rules_.wall_limit - walls_on_board(c);
}

uint64_t Position::ComputeHash() const {
  uint64_t h =
      kKeys.to_move[Index(to_move_)] ^ kKeys.placements[placements_done_];
  for (int p = 0; p < rules_.players; ++p) {
    for (Bitboard s = stones_[p]; s; s = PopLowest(s))
      h ^= kKeys.stone[p][LowestCell(s)];
    for (Bitboard w = walls_by_[p].north; w; w = PopLowest(w))
      h ^= kKeys.wall[p][zobrist::EdgeIndex(
          {static_cast<uint8_t>(LowestCell(w)), false})];
    for (Bitboard w = walls_by_[p].east; w; w = PopLowest(w))
      h ^= kKeys.wall[p][zobrist::EdgeIndex(
          {static_cast<uint8_t>(LowestCell(w)), true})];
    h ^= kKeys.breakers[p][breakers_left_[p]];
  }
  return h;
}

void Position::ToggleWall(Colour builder, Edge edge) {
  const Bitboard bit = CellBit(edge.cell);
  WallMasks& own = walls_by_[Index(builder)];
  (edge.east ? own.east : own.north) ^= bit;
  (edge.east ? walls_.east : walls_.north) ^= bit;
  hash_ ^= kKeys.wall[Index(builder)][zobrist::EdgeIndex(edge)];
}

void Position::AdvanceTurn() {
  hash_ ^= kKeys.to_move[Index(to_move_)];
  to_move_ = ColourAt((Index(to_move_) + 1) % rules_.players);
  hash_ ^= kKeys.to_move[Index(to_move_)];
}

void Position::Play(Move move) {
  const int me = Index(to_move_);
  switch (move.kind) {
    case MoveKind::kPlace: {
      stones_[me] |= CellBit(move.to);
      occupied_ |= CellBit(move.to);
      hash_ ^= kKeys.stone[me][move.to];
      hash_ ^= kKeys.placements[placements_done_];
      ++placements_done_;
      hash_ ^= kKeys.placements[placements_done_];
      hash_ ^= kKeys.to_move[me];
      to_move_ = in_setup() ? PlacerAt(rules_, placements_done_) : Colour::kRed;
      hash_ ^= kKeys.to_move[Index(to_move_)];
      return;
    }
    case MoveKind::kTurn:
    case MoveKind::kBreak: {
      const Bitboard change = CellBit(move.from) ^ CellBit(move.to);
      stones_[me] ^= change;
      occupied_ ^= change;
      hash_ ^= kKeys.stone[me][move.from] ^ kKeys.stone[me][move.to];
      const Edge edge = EdgeAt(move.to, move.side).edge;
      if (move.kind == MoveKind::kTurn) {
        ToggleWall(to_move_, edge);
      } else {
        const Bitboard bit = CellBit(edge.cell);
        for (int p = 0; p < rules_.players; ++p) {
          const WallMasks& w = walls_by_[p];
          if ((edge.east ? w.east : w.north) & bit)
            ToggleWall(ColourAt(p), edge);
        }
        hash_ ^= kKeys.breakers[me][breakers_left_[me]];
        --breakers_left_[me];
        hash_ ^= kKeys.breakers[me][breakers_left_[me]];
      }
      break;
    }
    case MoveKind::kPass:
    case MoveKind::kResign:
      break;
  }
  AdvanceTurn();
}

bool Position::operator==(const Position& other) const {
  return rules_ == other.rules_ && stones_ == other.stones_ &&
         walls_by_ == other.walls_by_ && to_move_ == other.to_move_ &&
         placements_done_ == other.placements_done_ &&
         breakers_left_ == other.breakers_left_;
}

}  // namespace wallgo
