// The engine behind the text protocol, as Stockfish's Engine is behind UCI:
// it holds the game (position + history), the search options, the clock and
// the searcher, and offers typed operations that know nothing of text. Every
// operation that fails changes nothing.
#pragma once

#include <functional>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/game.h"
#include "protocol/time_control.h"
#include "search/search.h"

namespace wallgo::protocol {

// Makes the searcher; injected so that tests can use a deterministic double.
using SearcherFactory = std::function<std::unique_ptr<search::Searcher>(
    const search::SearchOptions&)>;

// How a caller watches and ends a search.
struct SearchControl {
  search::InfoCallback on_info;  // may be null
  double info_interval_s = 1.0;
  // Polled every few hundredths of a second while searching; true stops the
  // search (input arrived, quit, end of input). May be null.
  std::function<bool()> should_stop;
  // Ask the searcher for an ownership map in every SearchInfo, and for every
  // root move among the candidates (search::Limits).
  bool ownership = false;
  bool all_moves = false;
};

// What a finished genmove did.
struct GenMoveResult {
  Move move;
  search::SearchInfo info;
  double seconds = 0;
};

class Engine {
 public:
  Engine(SearcherFactory factory, const search::SearchOptions& options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  const Game& game() const { return game_; }
  const Position& position() const { return game_.position(); }

  // A new game under `rules`; fails for rules outside docs/rules.md.
  absl::Status NewGame(const Rules& rules);
  // Replaces the game by one starting at `pos` (no history).
  void Setup(const Position& pos);
  // Plays `move` for `colour`; the error says why it is illegal.
  absl::Status Play(Colour colour, Move move);
  absl::Status Undo();

  // OK when GenMove(colour) would search: the game is not over
  // ("game over") and `colour` is to move ("illegal move: it is ...").
  absl::Status CheckGenMove(Colour colour) const;
  // Searches for `colour` (which must be to move in a game not over), plays
  // the chosen move and returns it. If the searcher answers an illegal move
  // (a bug, or a search stopped before its first visit) the first legal move
  // is played instead, so the game always goes on legally.
  absl::StatusOr<GenMoveResult> GenMove(Colour colour,
                                        const SearchControl& control);
  // Searches the current position without limits until control.should_stop
  // says so; fails when the game is over.
  absl::Status Analyze(const SearchControl& control);
  // Searches the current position within the options' limits (visits,
  // movetime; no clock) and plays nothing; fails when the game is over.
  absl::StatusOr<search::SearchResult> Think(const SearchControl& control);

  const search::SearchOptions& options() const { return options_; }
  void SetOptions(const search::SearchOptions& options);

  TimeControl& time_control() { return time_control_; }
  const TimeControl& time_control() const { return time_control_; }

 private:
  search::Searcher& searcher();
  search::SearchResult RunSearch(const search::Limits& limits,
                                 const SearchControl& control);

  SearcherFactory factory_;
  search::SearchOptions options_;
  std::unique_ptr<search::Searcher> searcher_;  // made on first use
  Game game_;
  TimeControl time_control_;
};

}  // namespace wallgo::protocol
