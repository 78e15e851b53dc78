// `wallgo speedtest`: how one search scales with threads on the machine it
// runs on (Stockfish has the same job). For 1, 2, 4 ... up to N threads it
// measures the playouts a second of one search on a fixed set of positions
// from every stage of a 2-player game, beside the machine's own ceiling: as
// many one-thread searches at once, each on its own graph, which share
// nothing but the cores and the memory bus. One search's share of that
// ceiling is what its threads lose to each other (docs/search.md,
// "Threads").
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "search/search.h"

namespace wallgo::search {

// The thread counts a speedtest measures: 1, 2, 4 ... and `max` itself.
std::vector<int> SpeedtestThreadCounts(int max);

// A search's playouts and the time they took, wall and CPU (of the whole
// process: the search's threads and its waiting main thread).
struct SpeedSample {
  int64_t playouts = 0;
  double seconds = 0;
  double cpu_seconds = 0;
  double per_second() const { return seconds > 0 ? playouts / seconds : 0; }
  double cpu_us_per_playout() const {
    return playouts > 0 ? 1e6 * cpu_seconds / playouts : 0;
  }
};

struct SpeedtestRow {
  int threads = 1;
  SpeedSample search;   // one search with `threads` threads
  SpeedSample ceiling;  // `threads` one-thread searches at once (threads > 1)
};

struct SpeedtestConfig {
  int max_threads = 1;
  double seconds = 1;  // each measurement, shared among the positions
  int rounds = 1;      // passes over the positions, each adding its figures
};

// Runs the measurements in order, handing each row to `on_row` as it is
// done. A row measures position by position, the search and then its
// ceiling, `rounds` times over, and adds up what each took. `options` gives the
// evaluation and level; threads, time, visits and hash are the speedtest's own
// (each graph large enough not to fill).
std::vector<SpeedtestRow> RunSpeedtest(
    const SearchOptions& options, const SpeedtestConfig& config,
    const std::function<void(const SpeedtestRow&)>& on_row);

}  // namespace wallgo::search
