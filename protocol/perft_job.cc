#include "protocol/perft_job.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "engine/perft.h"

namespace wallgo::protocol {

absl::StatusOr<Position> PerftStart(const PerftJob& job) {
  if (!job.position.empty()) return ParsePosition(job.position);
  absl::StatusOr<Rules> rules = ParseRules(job.rules);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<Game> game = Game::New(*rules);
  if (!game.ok()) return game.status();
  for (const std::string& text : job.moves) {
    absl::StatusOr<Move> move = ParseMove(text);
    if (!move.ok()) return move.status();
    const Colour mover = game->position().to_move();
    if (absl::Status played = game->Play(mover, *move); !played.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("illegal move: ", text, ": ", played.message()));
    }
  }
  return game->position();
}

absl::Status RunPerftJob(const PerftJob& job, std::ostream& out) {
  absl::StatusOr<Position> pos = PerftStart(job);
  if (!pos.ok()) return pos.status();
  const absl::Time start = absl::Now();
  uint64_t total = 0;
  if (job.divide && job.depth > 0) {
    for (const auto& [move, count] : PerftDivide(*pos, job.depth)) {
      out << MoveName(move) << " " << count << "\n";
      total += count;
    }
  } else {
    total = Perft(*pos, job.depth);
  }
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  out << absl::StrFormat(
      "perft %d: %d\ntime %.3f s, %.0f leaves/s\n", job.depth, total, seconds,
      seconds > 0 ? static_cast<double>(total) / seconds : 0.0);
  return absl::OkStatus();
}

}  // namespace wallgo::protocol
