#include "tools/records/opening.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/regions.h"

namespace wallgo::records {
namespace {

std::string PlayCommand(Colour colour, Move move) {
  return absl::StrCat("play ", ColourName(colour), " ", MoveName(move));
}

absl::StatusOr<Opening> PositionOpening(const Rules& rules,
                                        const std::string& text) {
  absl::StatusOr<Position> pos = ParsePosition(text);
  if (!pos.ok()) return pos.status();
  if (!(pos->rules() == rules)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "opening '", text, "' has rules ", RulesString(pos->rules()),
        ", the match plays ", RulesString(rules)));
  }
  return Opening{text, *pos, {"setup " + PositionString(*pos)}};
}

absl::StatusOr<Opening> MoveListOpening(const Rules& rules,
                                        const std::string& text) {
  absl::StatusOr<Position> start = Position::Start(rules);
  if (!start.ok()) return start.status();
  Opening opening{text, *start, {}};
  for (absl::string_view token :
       absl::StrSplit(text, ' ', absl::SkipWhitespace())) {
    absl::StatusOr<Move> move = ParseMove(std::string(token));
    if (!move.ok()) return move.status();
    const Colour mover = opening.start.to_move();
    absl::Status legal = move->kind == MoveKind::kResign
                             ? absl::InvalidArgumentError("resign")
                             : CheckMove(opening.start, mover, *move);
    if (!legal.ok() || IsGameOver(opening.start)) {
      return absl::InvalidArgumentError(
          absl::StrCat("opening '", text, "': ", std::string(token),
                       " is not legal here: ", legal.message()));
    }
    opening.start.Play(*move);
    opening.commands.push_back(PlayCommand(mover, *move));
  }
  return opening;
}

}  // namespace

absl::StatusOr<Opening> ResolveOpening(const Rules& rules,
                                       std::string_view text) {
  const std::string trimmed(
      absl::StripAsciiWhitespace(absl::string_view(text.data(), text.size())));
  if (trimmed.find('=') != std::string::npos) {
    return PositionOpening(rules, trimmed);
  }
  return MoveListOpening(rules, trimmed);
}

}  // namespace wallgo::records
