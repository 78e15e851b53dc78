// The `showboard` picture: a plain-text board with coordinates on the rim,
// stones as R B G Y, walls as | and ---, then the phase and side to move,
// the scores, and the walls (and breakers) each player has left.
#pragma once

#include <string>

#include "engine/game.h"

namespace wallgo::protocol {

std::string BoardPicture(const Game& game);

// The winner's colour name, or "draw" when several players share the top.
std::string WinnerText(const Result& result);

}  // namespace wallgo::protocol
