// Playing levels (SearchOptions.level, 1..10):
//   1 random mover, 2 greedy (one-move look at the evaluation),
//   3 alpha-beta 2 plies, 4 alpha-beta iterative deepening (time-limited),
//   5..9 graph search capped at 100 / 400 / 1500 / 6000 / 25000 playouts
//   (5..7 also pick among good moves at random), 10 graph search, full.
// Every level keeps to the time limits it is given.
#pragma once

#include <memory>

#include "search/mcts.h"
#include "search/search.h"

namespace wallgo::search {

// The graph-search settings of `level` (5..10).
MctsConfig LevelConfig(int level);

// The player of `options.level` itself (MakeSearcher wraps it so that a
// later SetOptions may change the level).
std::unique_ptr<Searcher> MakeLevelPlayer(const SearchOptions& options);

}  // namespace wallgo::search
