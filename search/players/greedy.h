// The simplest players: uniformly random, and greedy (the best move by a
// one-move look at the reachability evaluation). Both are seeded, so a fixed
// seed replays the same game.
#pragma once

#include <cstdint>
#include <random>

#include "engine/movegen.h"
#include "search/search.h"

namespace wallgo::search {

// Keeps the options and a generator seeded by options.seed; Clear() and a
// change of seed restart the generator. Search generates the legal moves and
// lets Choose pick one (a finished game, with none, gets a pass). Nothing to
// stop: moves are instant.
class SeededPlayer : public Searcher {
 public:
  explicit SeededPlayer(const SearchOptions& options);
  void SetOptions(const SearchOptions& options) override;
  void Clear() override;
  SearchResult Search(const Position& pos, const Limits& limits,
                      const InfoCallback& on_info,
                      double info_interval_s) final;
  void Stop() override {}

 protected:
  // One of `moves` (never empty), the legal moves of `pos`.
  virtual Move Choose(const Position& pos, const MoveList& moves) = 0;
  std::mt19937_64& rng() { return rng_; }

 private:
  SearchOptions options_;
  std::mt19937_64 rng_;
};

// Plays a legal move chosen uniformly at random.
class RandomPlayer : public SeededPlayer {
 public:
  using SeededPlayer::SeededPlayer;

 protected:
  Move Choose(const Position& pos, const MoveList& moves) override;
};

// Plays the move after which its own OutcomeValue (score margin by
// reachability, a won game above all) is largest; ties broken at random.
class GreedyPlayer : public SeededPlayer {
 public:
  using SeededPlayer::SeededPlayer;

 protected:
  Move Choose(const Position& pos, const MoveList& moves) override;
};

}  // namespace wallgo::search
