// Who may do what on a game's page: the server's own user everything, a
// seat's join link (an unguessable token per colour) its own colour's turns,
// anyone else watching only.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tools/gui/gui_game.h"

namespace wallgo::gui {

// What a page may do: everything (the server's own user, or any page when
// wallgo-gui listens on loopback only), play one colour (a seat's join
// link), or only watch.
struct Access {
  static constexpr int kAll = -2, kWatch = -1;
  int seat = kAll;  // kAll, kWatch or a colour index
};

// 128 random bits in hex: an unguessable key.
std::string NewToken();

// A join token per colour (kMaxPlayers of them).
std::vector<std::string> NewSeatTokens();

// The colour index whose join token is `token`, or Access::kWatch.
int SeatOfToken(const std::vector<std::string>& seat_tokens,
                const std::string& token);

// Whether `access` may send a message of `type` while `game` is shown
// (PermissionDenied, saying why, if not).
absl::Status CheckAccess(const std::string& type, Access access,
                         const GuiGame& game);

}  // namespace wallgo::gui
