// Frozen contests (search/frozen_contest.h): found where the rules keep them
// frozen, valued by the stones outside them, and seen by the graph search,
// which no longer walls its own stone in beside an opponent's when ahead.
#include "search/frozen_contest.h"

#include <memory>
#include <string>

#include "absl/strings/str_replace.h"
#include "engine/notation.h"
#include "gtest/gtest.h"
#include "search/levels.h"
#include "search/mcts.h"
#include "tests/engine/test_support.h"

namespace wallgo::search {
namespace {

// The first won-games fixture (tests/data/won-games-drawn.jsonl) at turn
// 38, red to move, 27 cells to blue's 11; red played b2a3e, walling a3 off
// from b3, and so its own c3 and blue's b3 into two cells of their own
// (kAfterFreeze). The game was drawn 3-3 after 105 plies.
constexpr char kBeforeFreeze[] =
    "players=2 setup=fourstone stay=mobile wall-limit=unlimited breakers=0 "
    "turn=red red=e1,b2,c3,b5 blue=d1,f2,b3,a6 "
    "red-walls=d1e,c2e,c3n,c3e,e3n,f3n,g3n,b4n,c4n,d4n,e4n,d5n,d5e,a6e,b6e,"
    "d6e,c7e blue-walls=b1n,d1n,e1e,f1n,b2n,b2e,c2n,e2e,a3n,b3n,e3e,f3e,a5n,"
    "b5n,c5e,c6n,c6e";
constexpr char kAfterFreeze[] =
    "players=2 setup=fourstone stay=mobile wall-limit=unlimited breakers=0 "
    "turn=blue red=e1,a3,c3,b5 blue=d1,f2,b3,a6 "
    "red-walls=d1e,c2e,a3e,c3n,c3e,e3n,f3n,g3n,b4n,c4n,d4n,e4n,d5n,d5e,a6e,"
    "b6e,d6e,c7e blue-walls=b1n,d1n,e1e,f1n,b2n,b2e,c2n,e2e,a3n,b3n,e3e,f3e,"
    "a5n,b5n,c5e,c6n,c6e";

TEST(FrozenContestTest, AStoneWalledInBesideAnOpponentFreezesTheContest) {
  EXPECT_FALSE(FrozenContestCaps(testing::Parse(kBeforeFreeze)).has_value());
  const auto caps = FrozenContestCaps(testing::Parse(kAfterFreeze));
  ASSERT_TRUE(caps.has_value());
  EXPECT_EQ((*caps)[0], 3);  // red's stones but c3
  EXPECT_EQ((*caps)[1], 3);  // blue's but b3
  const Value v = ValueOfCaps(*caps, 2);
  EXPECT_FLOAT_EQ(v.win[0], 0.5f);
  EXPECT_FLOAT_EQ(v.margin[0], 0.0f);
  const Value ahead = ValueOfCaps({3, 2}, 2);
  EXPECT_FLOAT_EQ(ahead.win[0], 1.0f);
  EXPECT_FLOAT_EQ(ahead.win[1], 0.0f);
  EXPECT_FLOAT_EQ(ahead.margin[1], -1.0f);
}

// Where a stone may stay and build, or walls run out (the game then ends
// with the cells held), the same board is not frozen.
TEST(FrozenContestTest, RulesThatLetARegionThawHaveNone) {
  const std::string always =
      absl::StrReplaceAll(kAfterFreeze, {{"stay=mobile", "stay=always"}});
  EXPECT_FALSE(FrozenContestCaps(testing::Parse(always)).has_value());
  const std::string limit = absl::StrReplaceAll(
      kAfterFreeze, {{"wall-limit=unlimited", "wall-limit=40"}});
  EXPECT_FALSE(FrozenContestCaps(testing::Parse(limit)).has_value());
}

// After the freeze the classic evaluation still counts red's territory:
// the graph search alone has blue lost. Every level's search
// (MakeLevelPlayer) values it as the caps say: 3 stones each, a draw.
TEST(FrozenContestTest, TheSearchValuesAFrozenContestByItsCaps) {
  const Position pos = testing::Parse(kAfterFreeze);
  SearchOptions o = ClassicProfile();
  o.visits = 2000;
  o.hash_mb = 16;
  o.seed = 1;
  const SearchResult plain = MctsSearcher(o).Search(pos, Limits{}, nullptr, 0);
  EXPECT_LT(plain.info.root_winrate, 0.2);
  EXPECT_LT(plain.info.root_score_margin, -5);
  const SearchResult seen =
      MakeLevelPlayer(o)->Search(pos, Limits{}, nullptr, 0);
  EXPECT_NEAR(seen.info.root_winrate, 0.5, 0.01);
  EXPECT_NEAR(seen.info.root_score_margin, 0, 0.1);
}

}  // namespace
}  // namespace wallgo::search
