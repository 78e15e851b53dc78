// wallgo-gui: a board in the browser for any engine that speaks the protocol.
#include <unistd.h>

#include <climits>
#include <iostream>
#include <string>
#include <vector>

#include "common/version/version.h"
#include "tools/gui/cli.h"

int main(int argc, char** argv) {
  if (wallgo::AnsweredVersion(argc, argv, "wallgo-gui", std::cout)) return 0;
  // This program's real path: the default engine is the wallgo beside it,
  // wherever it is installed.
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  const std::string path = n > 0 ? std::string(self, n) : std::string(argv[0]);
  return wallgo::gui::GuiMain(std::vector<std::string>(argv + 1, argv + argc),
                              path, std::cout, std::cerr);
}
