#include "search/net/features.h"

#include "engine/bitboard.h"
#include "engine/outcome.h"
#include "engine/regions.h"

namespace wallgo::search::net {
namespace {

void Emit(Features& out, int feature) {
  out.active[out.count++] = static_cast<uint16_t>(feature);
}

// One feature `base + cell * stride` for every cell of `cells`.
void EmitCells(Features& out, Bitboard cells, int base, int stride) {
  for (; cells != 0; cells = PopLowest(cells)) {
    Emit(out, base + LowestCell(cells) * stride);
  }
}

void EmitRace(Features& out, Bitboard cells, int race_class) {
  EmitCells(out, cells, kRaceBase + race_class, kRaceClasses);
}

// The race in the contested cells: every slot spreads a turn (two steps
// through empty cells) at a time; a cell goes to the slot that reaches it
// first alone, or is a tie. Stones count as reached in turn 0.
Bitboard EmitContestedRace(const Position& pos, Bitboard contested,
                           const std::array<Bitboard, kMaxPlayers>& by_slot,
                           Features& out) {
  const int players = pos.num_players();
  const WallMasks& walls = pos.walls();
  const Bitboard empty = contested & ~pos.occupied();
  std::array<Bitboard, kMaxPlayers> reach{};
  Bitboard claimed = 0;
  for (int s = 0; s < players; ++s) {
    reach[s] = by_slot[s] & contested;
    EmitRace(out, reach[s], kRaceFirst + 3 * s);
    claimed |= reach[s];
  }
  for (int turn = 1;; ++turn) {
    std::array<Bitboard, kMaxPlayers> fresh{};
    Bitboard once = 0, several = 0;
    for (int s = 0; s < players; ++s) {
      Bitboard r = reach[s];
      r |= Step(r, walls) & empty;
      r |= Step(r, walls) & empty;
      fresh[s] = r & ~claimed;
      several |= once & fresh[s];
      once |= fresh[s];
      reach[s] = r;
    }
    if (once == 0) break;
    const int bucket = turn <= 1 ? 0 : turn == 2 ? 1 : 2;
    for (int s = 0; s < players; ++s) {
      EmitRace(out, fresh[s] & ~several, kRaceFirst + 3 * s + bucket);
    }
    EmitRace(out, several, kRaceTie);
    claimed |= once;
  }
  return claimed;
}

}  // namespace

void ExtractFeatures(const Position& pos, Features& out) {
  out.count = 0;
  const int players = pos.num_players();
  const int mover = Index(pos.to_move());
  std::array<Bitboard, kMaxPlayers> by_slot{};
  for (int p = 0; p < players; ++p) {
    const int s = SlotOf(p, mover, players);
    by_slot[s] = pos.stones(ColourAt(p));
    EmitCells(out, by_slot[s], kStoneBase + s * kNumCells, 1);
  }

  // Regions with stones: owned by one slot (play phase) or contested.
  Bitboard contested = 0, owned_any = 0;
  for (Bitboard left = pos.occupied(); left != 0;) {
    const Bitboard region = FloodFill(CellBit(LowestCell(left)), pos.walls());
    left &= ~region;
    int owner = -1, colours = 0;
    for (int s = 0; s < players; ++s) {
      if (by_slot[s] & region) {
        owner = s;
        ++colours;
      }
    }
    if (colours == 1 && !pos.in_setup()) {
      EmitRace(out, region, kRaceOwned + owner);
      owned_any |= region;
    } else {
      contested |= region;
    }
  }
  const Bitboard reached = EmitContestedRace(pos, contested, by_slot, out);
  EmitRace(out, kAllCells & ~owned_any & ~reached, kRaceNobody);

  const WallMasks& walls = pos.walls();
  for (const bool east : {false, true}) {
    for (Bitboard b = east ? walls.east : walls.north; b != 0;
         b = PopLowest(b)) {
      Emit(out, WallFeature({static_cast<uint8_t>(LowestCell(b)), east}));
    }
  }

  const Rules& rules = pos.rules();
  Emit(out, kPlayersBase + players - 2);
  Emit(out, kPlacementsLeftBase + Position::TotalPlacements(rules) -
                pos.placements_done());
  for (int p = 0; p < players; ++p) {
    if (pos.breakers_left(ColourAt(p)) > 0) {
      Emit(out, kBreakersBase + SlotOf(p, mover, players));
    }
  }
  if (rules.setup == SetupRule::kEmpty) Emit(out, kSetupEmpty);
  if (rules.stay == StayRule::kMobile) Emit(out, kStayMobile);
  if (rules.wall_limit != kUnlimitedWalls) Emit(out, kWallsLimited);

  out.finished =
      !pos.in_setup() &&
      (contested == 0 || (CanRunOutOfTurns(rules) && IsGameOver(pos)));
}

}  // namespace wallgo::search::net
