// `wallgo speedtest`: prints search/speedtest.h's measurements as one table,
// a row per thread count as it is measured, and a last line that sums it up:
//   speedtest: N threads X.XXx of 1 thread, ceiling Y.YYx, efficiency Z%
#pragma once

#include <string>
#include <vector>

#include "search/search.h"
#include "search/speedtest.h"

namespace wallgo::protocol {

// The table's rows as text (the job itself is in main.cc, which links the
// search): the title, the header, then one line per row given so far
// (the first row must be the one-thread search, the others' base).
std::string SpeedtestTitle(const search::SpeedtestConfig& config);
std::string SpeedtestHeader();
std::string SpeedtestLine(const search::SpeedtestRow& row,
                          const search::SpeedtestRow& one_thread);
std::string SpeedtestSummary(const std::vector<search::SpeedtestRow>& rows);

}  // namespace wallgo::protocol
