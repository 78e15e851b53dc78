// The command-line handling the eval tools share.
#pragma once

#include <iostream>

#include "boost/program_options.hpp"

namespace wallgo::search {

// Parses the command line into the variables `desc` names; false (after
// printing the options) when --help was asked for.
inline bool ParseFlags(const boost::program_options::options_description& desc,
                       int argc, char** argv) {
  namespace po = boost::program_options;
  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, desc), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << desc;
    return false;
  }
  return true;
}

}  // namespace wallgo::search
