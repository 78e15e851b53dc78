// From game records to what engine authors read: a line per finished game
// and a summary with wins/draws/losses, Elo with its interval, LOS,
// pentanomial pair counts and the SPRT state.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tools/records/records.h"
#include "tools/referee/stats.h"

namespace wallgo::referee {

// Records are the shared records library's (tools/records).
using records::GameRecord;

// Two-player results between engines `first` and `second`, from `first`'s
// point of view; pairs are complete sets (both games of a pair recorded).
struct HeadToHead {
  std::string first, second;
  Trinomial games;
  Pentanomial pairs;
};

// Every pairing that met in two-player games. `engine_order` decides which
// engine of a pairing is `first`; engines missing from it follow in order of
// appearance.
std::vector<HeadToHead> HeadToHeadStats(
    const std::vector<GameRecord>& records,
    const std::vector<std::string>& engine_order);

// Points of one engine over games of any number of players: a sole win is
// a win, a shared first place a draw.
struct Standing {
  std::string engine;
  Trinomial results;
  double mean_score = 0;  // mean territory per game
};
std::vector<Standing> Standings(const std::vector<GameRecord>& records,
                                const std::vector<std::string>& engine_order);

// "Finished game 3 (alpha vs beta): 1-0 {finished: red 26, blue 23}".
std::string GameLine(const GameRecord& record);

// The summary block; with `sprt`, the SPRT line for the first pairing.
std::string Summary(const std::vector<GameRecord>& records,
                    const std::vector<std::string>& engine_order,
                    const std::optional<SprtParams>& sprt);

// The SPRT state of the first pairing; nullopt without a two-player pairing.
std::optional<SprtState> SprtOf(const std::vector<GameRecord>& records,
                                const std::vector<std::string>& engine_order,
                                const SprtParams& sprt);

}  // namespace wallgo::referee
