// wallgo-referee: plays matches between Wall Go engines (see the README).
#include <iostream>
#include <string>
#include <vector>

#include "tools/referee/cli.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return wallgo::referee::RefereeMain(args, std::cout, std::cerr);
}
