#include "protocol/board_picture.h"

#include "engine/notation.h"
#include "engine/outcome.h"
#include "gtest/gtest.h"

namespace wallgo::protocol {
namespace {

Game GameAt(const std::string& position) {
  absl::StatusOr<Position> pos = ParsePosition(position);
  EXPECT_TRUE(pos.ok()) << pos.status();
  return Game(*pos);
}

// Red's stones at c3 and e5, blue's at b6 and f2; red has walled c3 in on
// the north and east (joined at the corner) and blue built d5's south edge.
TEST(BoardPictureTest, DrawsStonesWallsAndTheStateBelow) {
  const Game game = GameAt(
      "players=2 setup=fourstone stay=always wall-limit=20 turn=blue "
      "red=b2,f6,c3,e5 blue=b6,f2,d4,a1 red-walls=c3n,c3e,c2e blue-walls=d4n");
  EXPECT_EQ(BoardPicture(game),
            "     a   b   c   d   e   f   g\n"
            "   +---------------------------+\n"
            " 7 | .   .   .   .   .   .   . | 7\n"
            "   |                           |\n"
            " 6 | .   B   .   .   .   R   . | 6\n"
            "   |                           |\n"
            " 5 | .   .   .   .   R   .   . | 5\n"
            "   |            ---            |\n"
            " 4 | .   .   .   B   .   .   . | 4\n"
            "   |        ---+               |\n"
            " 3 | .   .   R | .   .   .   . | 3\n"
            "   |           |               |\n"
            " 2 | .   R   . | .   .   B   . | 2\n"
            "   |                           |\n"
            " 1 | B   .   .   .   .   .   . | 1\n"
            "   +---------------------------+\n"
            "     a   b   c   d   e   f   g\n"
            "play phase: blue to move\n"
            "score: red 0, blue 0\n"
            "walls left: red 17, blue 19");
}

TEST(BoardPictureTest, SetupPhaseBreakersAndGameOver) {
  const Game start = Game::New(Rules::Default(3)).value();
  const std::string picture = BoardPicture(start);
  EXPECT_NE(picture.find("setup phase: red to place a stone (6 placements "
                         "left)\nscore: red 0, blue 0, green 0\n"
                         "walls left: red unlimited, blue unlimited, green "
                         "unlimited\nbreakers left: red 1, blue 1, green 1"),
            std::string::npos)
      << picture;
  Game resigned = start;
  ASSERT_TRUE(resigned.Play(Colour::kRed, Move::Resign()).ok());
  EXPECT_NE(BoardPicture(resigned).find("game over: red resigned, "),
            std::string::npos);
}

TEST(BoardPictureTest, WinnerTextNamesTheWinnerOrADraw) {
  Result result;
  result.winners = 1u << 2;
  EXPECT_EQ(WinnerText(result), "green");
  result.winners = 0b11;
  EXPECT_EQ(WinnerText(result), "draw");
}

}  // namespace
}  // namespace wallgo::protocol
