// wallgo-gui's command line.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/gui/lobby.h"
#include "tools/gui/server.h"

namespace wallgo::gui {

struct GuiOptions {
  std::vector<EngineSpec> engines;
  int port = 8600;
  std::string listen = "127.0.0.1";
  bool open = false;
  bool help = false;
  BridgeOptions bridge;
  int max_games = 8;
  ServerLimits socket_limits;
};

// `args` without the program name. `self` is this program's path: without
// --engine the engine is the `wallgo` beside it.
absl::StatusOr<GuiOptions> ParseGuiOptions(const std::vector<std::string>& args,
                                           const std::string& self);
std::string GuiUsage();

// The whole program; returns the exit status (2 for a bad command line).
int GuiMain(const std::vector<std::string>& args, const std::string& self,
            std::ostream& out, std::ostream& err);

}  // namespace wallgo::gui
