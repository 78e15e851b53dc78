#include "tests/engine/test_support.h"

#include <cctype>
#include <cstdlib>

#include "engine/notation.h"
#include "engine/regions.h"
#include "gtest/gtest.h"

namespace wallgo::testing {

Position Parse(absl::string_view text) {
  absl::StatusOr<Position> pos = ParsePosition(text);
  EXPECT_TRUE(pos.ok()) << text << ": " << pos.status();
  if (!pos.ok()) std::abort();  // a broken fixture: nothing else is meaningful
  return *pos;
}

Position StartOf(const Rules& rules) {
  absl::StatusOr<Position> pos = Position::Start(rules);
  EXPECT_TRUE(pos.ok()) << RulesString(rules) << ": " << pos.status();
  if (!pos.ok()) std::abort();
  return *pos;
}

std::set<std::string> EngineMoveNames(const Position& pos) {
  MoveList moves;
  GenerateMoves(pos, moves);
  std::set<std::string> names;
  for (const Move& m : moves) names.insert(MoveName(m));
  return names;
}

std::set<std::string> ReferenceMoveNames(const reference::Board& board) {
  std::set<std::string> names;
  for (const reference::Turn& t : reference::LegalMoves(board)) {
    names.insert(reference::MoveText(t));
  }
  return names;
}

std::vector<Variant> Variants() {
  std::vector<Variant> out;
  auto add = [&out](std::string name, int players, SetupRule setup,
                    StayRule stay, int wall_limit, int breakers) {
    Rules r = Rules::Default(players);
    r.setup = setup;
    r.stay = stay;
    r.wall_limit = wall_limit;
    r.breakers = breakers;
    out.push_back({std::move(name), r});
  };
  using enum SetupRule;
  using enum StayRule;
  add("2p fourstone", 2, kFourStone, kAlways, kUnlimitedWalls, 0);
  add("2p empty", 2, kEmpty, kAlways, kUnlimitedWalls, 0);
  add("2p fourstone mobile", 2, kFourStone, kMobile, kUnlimitedWalls, 0);
  add("2p empty mobile wall-limit=8", 2, kEmpty, kMobile, 8, 0);
  add("2p fourstone wall-limit=3", 2, kFourStone, kAlways, 3, 0);
  add("3p breakers=1", 3, kEmpty, kAlways, kUnlimitedWalls, 1);
  add("3p breakers=0 mobile", 3, kEmpty, kMobile, kUnlimitedWalls, 0);
  add("4p breakers=1", 4, kEmpty, kAlways, kUnlimitedWalls, 1);
  add("4p breakers=1 mobile wall-limit=4", 4, kEmpty, kMobile, 4, 1);
  add("3p breakers=1 wall-limit=2", 3, kEmpty, kAlways, 2, 1);
  return out;
}

Position RandomPlayPosition(const Rules& rules, int max_walls,
                            std::mt19937_64& rng) {
  Position::Parts parts;
  parts.rules = rules;
  parts.to_move = ColourAt(static_cast<int>(rng() % rules.players));
  const int stones_each = rules.players == 2 ? 4 : 2;
  Bitboard occupied = 0;
  for (int p = 0; p < rules.players; ++p) {
    for (int i = 0; i < stones_each;) {
      const Bitboard bit = CellBit(static_cast<int>(rng() % kNumCells));
      if (occupied & bit) continue;
      occupied |= bit;
      parts.stones[p] |= bit;
      ++i;
    }
    parts.breakers_left[p] = static_cast<int>(rng() % (rules.breakers + 1));
  }
  const int walls = static_cast<int>(rng() % (max_walls + 1));
  for (int i = 0; i < walls; ++i) {
    const int p = static_cast<int>(rng() % rules.players);
    WallMasks& own = parts.walls[p];
    if (rules.wall_limit != kUnlimitedWalls &&
        PopCount(own.north) + PopCount(own.east) >= rules.wall_limit) {
      continue;
    }
    const EdgeOrRim edge = EdgeAt(static_cast<int>(rng() % kNumCells),
                                  static_cast<Side>(rng() % kNumSides));
    if (!edge.valid) continue;
    bool taken = false;
    for (const WallMasks& w : parts.walls) {
      taken |= ((edge.edge.east ? w.east : w.north) >> edge.edge.cell) & 1;
    }
    if (taken) continue;
    (edge.edge.east ? own.east : own.north) |= CellBit(edge.edge.cell);
  }
  absl::StatusOr<Position> pos = Position::FromParts(parts);
  EXPECT_TRUE(pos.ok()) << pos.status();
  if (!pos.ok()) std::abort();
  return *pos;
}

uint64_t SeedFor(absl::string_view name) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : name) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  }
  return hash;
}

std::string VariantTestName(const ::testing::TestParamInfo<Variant>& info) {
  std::string name;
  for (char c : info.param.name) {
    if (std::isalnum(static_cast<unsigned char>(c))) name += c;
  }
  return name;
}

Move RandomMove(const Position& pos, std::mt19937_64& rng) {
  MoveList moves;
  GenerateMoves(pos, moves);
  return moves[static_cast<int>(rng() % moves.size())];
}

int PlayRandomGame(const Rules& rules, std::mt19937_64& rng, int max_moves,
                   const std::function<void(const Position&)>& visit) {
  Position pos = StartOf(rules);
  int played = 0;
  visit(pos);
  while (played < max_moves && !IsGameOver(pos)) {
    pos.Play(RandomMove(pos, rng));
    ++played;
    visit(pos);
  }
  return played;
}

int CellAt(absl::string_view name) {
  absl::StatusOr<int> cell = ParseCell(name);
  EXPECT_TRUE(cell.ok()) << name;
  return cell.value_or(0);
}

std::string RowWalls(std::initializer_list<int> rows) {
  std::string out;
  for (int row : rows) {
    for (char col = 'a'; col <= 'g'; ++col) {
      if (!out.empty()) out += ',';
      out += std::string{col, static_cast<char>('0' + row), 'n'};
    }
  }
  return out;
}

}  // namespace wallgo::testing
