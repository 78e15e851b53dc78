// One game under the referee's own rules engine: it asks each engine in turn
// for a move, checks it, tells the other engines, keeps the clocks, and ends
// and scores the game itself. Any engine fault ends the game with that
// engine losing; the fault never escapes as an error.
#pragma once

#include "tools/client/engine_pool.h"
#include "tools/client/engine_process.h"
#include "tools/records/records.h"
#include "tools/referee/options.h"
#include "tools/referee/schedule.h"

namespace wallgo::referee {

// Records are the shared records library's (tools/records).
using records::GameRecord;
using records::MoveRecord;

// The referee speaks to engines through the shared client.
using client::EngineLog;
using client::EnginePool;
using client::EngineProcess;
using client::Fault;
using client::Reply;
using client::SteadyClock;

GameRecord PlayGame(const MatchOptions& options, const GameSpec& spec,
                    const Opening& opening, EnginePool& pool);

}  // namespace wallgo::referee
