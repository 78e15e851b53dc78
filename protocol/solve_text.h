// The text of the `solve` command's answer (docs/protocol.md, "solve"): one
// `info` line per finished iteration of the horizon, then the result.
#pragma once

#include <string>

#include "engine/position.h"
#include "search/solver/solver.h"

namespace wallgo::protocol {

// `info depth D nodes N time S` (the iteration's horizon and the search so
// far).
std::string SolveInfoLine(const search::SolveResult& step);

// The answer's lines after the info lines, each ending in a newline:
//   result win|draw|loss margin M proven depth D nodes N
//   values red win 12 blue loss -12   (every player: result, margin)
//   optimal M1 M2 ...                 (in legal_moves order; `optimal-known`
//                                      when the budget ended first: one)
//   pv M1 M2 ...
//   regions settled S contested C cells K independent|dependent: why
// or, unproven: `result unproven depth D nodes N` and the regions line.
std::string SolveAnswer(const Position& pos, const search::SolveResult& r);

// The analysis answer's "solve" object (docs/analysis.md): {"proven",
// "result", "margin", "values": {colour: {"result", "margin"}}, "optimal",
// "allOptimal", "pv", "depth", "nodes", "regions": {"settled", "contested",
// "contestedCells", "independent", "reason"}}; unproven answers carry only
// "proven", "depth", "nodes" and "regions".
std::string SolveJson(const Position& pos, const search::SolveResult& r);

}  // namespace wallgo::protocol
