// How programs that drive engines (the referee, the GUI) name them on their
// command lines: `--engine "name=NAME:CMD"` or a bare shell command.
#pragma once

#include <string>
#include <vector>

namespace wallgo::client {

struct EngineSpec {
  std::string name;     // unique among the engines of one run
  std::string command;  // a shell command line (run with /bin/sh -c)
};

// "name=NAME:CMD" or a bare command (named after its program); a name that
// is taken gets "-2", "-3", ...
std::vector<EngineSpec> NameEngines(const std::vector<std::string>& specs);

}  // namespace wallgo::client
