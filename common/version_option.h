// `--version` in a program's options, so that its --help lists it. Every
// program answers `--version` before it parses anything else
// (AnsweredVersion, common/version/version.h); this is the line of its help
// that says so, the same in every program.
#pragma once

#include "boost/program_options/options_description.hpp"

namespace wallgo::common {

inline void AddVersionOption(boost::program_options::options_description& d) {
  d.add_options()("version", "print the version and exit");
}

}  // namespace wallgo::common
