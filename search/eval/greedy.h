// The simplest players: uniformly random, and greedy (the best move by a
// one-move look at the reachability evaluation). Both are seeded, so a fixed
// seed replays the same game.
#pragma once

#include <cstdint>
#include <random>

#include "search/search.h"

namespace wallgo::search {

// Keeps the options and a generator seeded by options.seed; Clear() and a
// change of seed restart the generator. Nothing to stop: moves are instant.
class SeededPlayer : public Searcher {
 public:
  explicit SeededPlayer(const SearchOptions& options);
  void SetOptions(const SearchOptions& options) override;
  void Clear() override;
  void Stop() override {}

 protected:
  const SearchOptions& options() const { return options_; }
  std::mt19937_64& rng() { return rng_; }

 private:
  SearchOptions options_;
  std::mt19937_64 rng_;
};

// Plays a legal move chosen uniformly at random.
class RandomPlayer : public SeededPlayer {
 public:
  using SeededPlayer::SeededPlayer;
  SearchResult Search(const Position& pos, const Limits& limits,
                      const InfoCallback& on_info,
                      double info_interval_s) override;
};

// Plays the move after which its own OutcomeValue (score margin by
// reachability, a won game above all) is largest; ties broken at random.
class GreedyPlayer : public SeededPlayer {
 public:
  using SeededPlayer::SeededPlayer;
  SearchResult Search(const Position& pos, const Limits& limits,
                      const InfoCallback& on_info,
                      double info_interval_s) override;
};

}  // namespace wallgo::search
