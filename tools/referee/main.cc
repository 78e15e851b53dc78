// wallgo-referee: plays matches between Wall Go engines (see the README).
#include <iostream>
#include <string>
#include <vector>

#include "common/batch/preemption.h"
#include "common/version/version.h"
#include "tools/referee/cli.h"

int main(int argc, char** argv) {
  if (wallgo::AnsweredVersion(argc, argv, "wallgo-referee", std::cout))
    return 0;
  // Before any thread: SIGTERM and SIGINT become a stop request, and an
  // interrupted run exits with status 75 (common/batch/preemption.h).
  wallgo::batch::StopOnSignals stop;
  const std::vector<std::string> args(argv + 1, argv + argc);
  return wallgo::referee::RefereeMain(args, std::cout, std::cerr, stop.token());
}
