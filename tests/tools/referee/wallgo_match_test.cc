// A short real match: the real `wallgo` engine against itself under the
// referee, every game finished by the rules, records consistent.
#include <sys/wait.h>

#include <filesystem>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "gtest/gtest.h"
#include "tests/temp_file.h"
#include "tools/referee/match.h"
#include "tools/referee/schedule.h"

namespace wallgo::referee {
namespace {

TEST(WallgoMatchTest, SelfPlayPairFinishesByTheRules) {
  const wallgo::testing::TempDir dir("wallgo-referee-real");
  MatchOptions o;
  // A small hash keeps the first move's allocation short; --movetime 0 so
  // that the referee's clock (time_settings) is the engine's only limit.
  const std::string command = absl::StrCat(WALLGO, " --hash 16 --movetime 0");
  o.engines = {{"wallgo-a", command}, {"wallgo-b", command}};
  o.games = 2;
  o.time.movetime_s = 0.05;
  o.margin_s = 1.0;
  o.engine_log = dir / "engines.log";
  o.records_file = dir / "games.jsonl";
  o.quiet = true;
  std::ostringstream out;
  absl::StatusOr<MatchResult> result = RunMatch(o, out);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->records.size(), 2u);
  for (const GameRecord& r : result->records) {
    EXPECT_EQ(r.reason, "finished") << r.detail;
    Game game(ResolveOpening(o.rules, r.opening)->start);
    for (const records::MoveRecord& m : r.moves) {
      ASSERT_TRUE(game.Play(*ParseColour(m.colour), *ParseMove(m.move)).ok());
    }
    EXPECT_TRUE(IsGameOver(game.position()));
    EXPECT_EQ(PositionString(game.position()), r.final_position);
  }
  errno = 0;
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);
}

}  // namespace
}  // namespace wallgo::referee
