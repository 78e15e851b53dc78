#include "tools/gui/access.h"

#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "engine/notation.h"

namespace wallgo::gui {

std::string NewToken() {
  std::random_device device;
  std::string token;
  for (int k = 0; k < 4; ++k) {
    absl::StrAppend(&token, absl::Hex(device(), absl::kZeroPad8));
  }
  return token;
}

std::vector<std::string> NewSeatTokens() {
  std::vector<std::string> tokens;
  for (int i = 0; i < kMaxPlayers; ++i) tokens.push_back(NewToken());
  return tokens;
}

int SeatOfToken(const std::vector<std::string>& seat_tokens,
                const std::string& token) {
  for (size_t i = 0; i < seat_tokens.size(); ++i) {
    if (!token.empty() && token == seat_tokens[i]) return static_cast<int>(i);
  }
  return Access::kWatch;
}

absl::Status CheckAccess(const std::string& type, Access access,
                         const GuiGame& game) {
  if (access.seat == Access::kAll) return absl::OkStatus();
  if (access.seat == Access::kWatch) {
    return absl::PermissionDeniedError(
        "this page only watches: playing needs a seat's join link");
  }
  // A seat plays its own colour's turns and may look around; setting up
  // games, seats and engines is for the server's own user.
  static const std::set<std::string> kSeatMessages = {"move", "resign", "goto",
                                                      "hint", "review"};
  if (!kSeatMessages.count(type)) {
    return absl::PermissionDeniedError(absl::StrCat(
        "'", type.substr(0, 40), "' is for the host of this wallgo-gui"));
  }
  if ((type == "move" || type == "resign") &&
      (!game.at_end() ||
       Index(game.shown().position().to_move()) != access.seat)) {
    return absl::PermissionDeniedError(
        absl::StrCat("this page plays ", ColourName(ColourAt(access.seat)),
                     " only, on its own turn"));
  }
  return absl::OkStatus();
}

}  // namespace wallgo::gui
