// What a match is: the engines, the rules, the clock, the schedule and where
// the records go. Filled from the command line (cli.h) or by tests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/types.h"
#include "tools/client/engine_spec.h"
#include "tools/referee/stats.h"

namespace wallgo::referee {

using client::EngineSpec;  // shared with the GUI (tools/client)

// What happens to a player whose engine does not answer genmove in time.
enum class TimeoutRule {
  kForfeit,  // the late engine loses the game (tournament convention)
  kRandom,   // the player gets a random legal turn (the rule sheets)
};

struct TimeControl {
  double movetime_s = 1.0;  // seconds per move, when base_s is 0
  double base_s = 0;        // a clock per player: base + increment per move
  double increment_s = 0;
  bool has_clock() const { return base_s > 0; }
};

struct MatchOptions {
  std::vector<EngineSpec> engines;
  int games = 2;        // in the whole match (all shards together)
  int concurrency = 1;  // games played at once
  TimeControl time;
  // An engine is late only when it exceeds its time by more than this.
  double margin_s = 0.5;
  // Deadline for every command other than genmove (newgame, play, ...).
  double command_timeout_s = 10.0;
  TimeoutRule timeout_rule = TimeoutRule::kForfeit;
  Rules rules;
  // One opening per line; empty: random openings from `seed`.
  std::string openings_file;
  uint64_t seed = 1;
  int opening_plies = 2;     // random moves in a random opening
  std::string records_file;  // JSON Lines; empty: none
  std::string engine_log;    // engines' standard error; empty: discarded
  std::optional<SprtParams> sprt;
  bool resume = false;
  int shard_index = 0;  // 0-based here; the command line counts from 1
  int shard_count = 1;
  bool gauntlet = false;  // first engine against each other one
  bool quiet = false;     // no per-game lines or summaries on the output
};

}  // namespace wallgo::referee
