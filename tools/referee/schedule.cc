#include "tools/referee/schedule.h"

#include <fstream>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "engine/zobrist.h"

namespace wallgo::referee {
namespace {

// Appends to `out` every combination of `size` values from [first, last).
void Combinations(int first, int last, int size, std::vector<int>& prefix,
                  std::vector<std::vector<int>>& out) {
  if (size == 0) {
    out.push_back(prefix);
    return;
  }
  for (int i = first; i + size <= last; ++i) {
    prefix.push_back(i);
    Combinations(i + 1, last, size - 1, prefix, out);
    prefix.pop_back();
  }
}

}  // namespace

uint64_t Random::Next() {
  state_ += 0x9E3779B97F4A7C15ULL;
  return zobrist::SplitMix64(state_);
}

std::vector<std::vector<int>> EngineGroups(int engines, int players,
                                           bool gauntlet) {
  std::vector<std::vector<int>> groups;
  std::vector<int> prefix;
  if (gauntlet && engines > players) {
    prefix.push_back(0);
    Combinations(1, engines, players - 1, prefix, groups);
  } else {
    Combinations(0, engines, players, prefix, groups);
  }
  return groups;
}

std::vector<GameSpec> BuildSchedule(int engines, int players, int games,
                                    bool gauntlet) {
  const std::vector<std::vector<int>> groups =
      EngineGroups(engines, players, gauntlet);
  std::vector<GameSpec> schedule;
  if (groups.empty()) return schedule;
  for (int game = 0; game < games; ++game) {
    GameSpec spec;
    spec.game = game + 1;
    spec.set = game / players;
    spec.opening_round = spec.set / static_cast<int>(groups.size());
    const std::vector<int>& group = groups[spec.set % groups.size()];
    const int rotation = game % players;
    for (int colour = 0; colour < players; ++colour) {
      spec.seats.push_back(group[(colour + rotation) % players]);
    }
    schedule.push_back(std::move(spec));
  }
  return schedule;
}

Opening RandomOpening(const Rules& rules, uint64_t seed, int round, int plies) {
  Random random(zobrist::SplitMix64(seed) ^ uint64_t(round));
  Position pos = *Position::Start(rules);
  std::string text;
  for (int ply = 0; ply < plies && !IsGameOver(pos); ++ply) {
    MoveList moves;
    GenerateMoves(pos, moves);
    const Move move = moves[random.Below(moves.size())];
    absl::StrAppend(&text, text.empty() ? "" : " ", MoveName(move));
    pos.Play(move);
  }
  // Replaying the text gives the commands and checks the moves once more.
  return *ResolveOpening(rules, text);
}

absl::StatusOr<std::vector<Opening>> LoadOpenings(const Rules& rules,
                                                  const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("cannot read openings ", path));
  }
  std::vector<Opening> openings;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const absl::string_view trimmed = absl::StripAsciiWhitespace(line);
    if (trimmed.empty() || trimmed[0] == '#') continue;
    absl::StatusOr<Opening> opening =
        ResolveOpening(rules, std::string(trimmed));
    if (!opening.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", number, ": ", opening.status().message()));
    }
    openings.push_back(*std::move(opening));
  }
  if (openings.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path, " has no openings"));
  }
  return openings;
}

}  // namespace wallgo::referee
