// Generates training data: games of the graph search against itself at a
// fixed visit budget, every position recorded with the search's visits per
// legal move, its value, and the game's final scores and owners.
// Randomness covers openings: the first `random_placements` placements are
// uniformly random, the next `temperature_plies` moves are drawn with
// probability proportional to visits^(1/temperature), the rest are the most
// visited move. Game g's randomness and search seed come from (seed, g)
// alone, so shards and jobs change nothing but the speed.
//
// Playout cap randomisation (KataGo, "Accelerating Self-Play Learning in
// Go"): with `fast_visits` > 0, each move is searched with the full `visits`
// only with probability `full_share`, and otherwise with `fast_visits`. The
// fast moves are played and recorded for the value, score and ownership
// targets, but with no visits, so they are no policy target: a game costs
// far fewer playouts, while every policy target comes from a full search.
//
// With eval=hybrid the games are searched as the engine searches by default
// (SelfPlayProfile keeps its shortlist and policy weight): the network's
// policy picks the shortlist and is
// blended into the priors. The policy is thus trained on the visits of the
// search that it drives, as KataGo and Leela Zero train on their engine's
// own search.
#pragma once

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/types.h"
#include "search/net/network.h"
#include "search/search.h"
#include "tools/train_data/training_data.h"

namespace wallgo::train {

using search::EvalKind;
using search::SearchOptions;
using search::SelfPlayProfile;
using search::net::Network;
using train_data::DataHeader;
using train_data::DataRecord;

struct GenerateOptions {
  Rules rules;
  int games = 100;  // games of the whole run, all shards together
  int visits = 400;
  int fast_visits = 0;       // 0: every move searched with `visits`
  float full_share = 0.25f;  // with fast_visits: the full searches' share
  int random_placements = 2;
  int temperature_plies = 10;
  float temperature = 1.0f;
  uint64_t seed = 1;
  int shard_index = 0;  // 0-based
  int shard_count = 1;
  int jobs = 1;  // games played at once, one search thread each
  // The search of every move (its visits and seed are the game's): hash,
  // evaluation, shortlist and policy weight. Net or hybrid need `network`,
  // whose checksum the file's header records.
  SearchOptions search = SelfPlayProfile();
  std::shared_ptr<const Network> network;
};

// The header a run with `options` writes.
DataHeader HeaderFor(const GenerateOptions& options);

// The records of game `game` (deterministic in options and game); none
// when `stop` is requested before the game ends.
std::vector<DataRecord> PlaySelfPlayGame(const GenerateOptions& options,
                                         int game, std::stop_token stop = {});

struct GenerateReport {
  int games_before = 0;  // whole games found in the file (resume)
  int games_played = 0;
  int64_t records = 0;  // in the file at the end
  double seconds = 0;
  bool interrupted = false;  // `stop` came before every game was played
};

// Plays this shard's games (game numbers g with g % shard_count ==
// shard_index) that the file at `path` does not hold yet, appending them in
// order. `progress` (may be null) is called after each game written. A
// `stop` request ends the games in progress, which are dropped: the file
// holds whole games only, and a later run plays the rest.
absl::StatusOr<GenerateReport> GenerateData(
    const std::string& path, const GenerateOptions& options,
    const std::function<void(const GenerateReport&)>& progress = nullptr,
    std::stop_token stop = {});

}  // namespace wallgo::train
