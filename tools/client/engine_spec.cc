#include "tools/client/engine_spec.h"

#include <set>

#include "absl/strings/str_cat.h"

namespace wallgo::client {

std::vector<EngineSpec> NameEngines(const std::vector<std::string>& specs) {
  std::vector<EngineSpec> engines;
  std::set<std::string> taken;
  for (const std::string& spec : specs) {
    EngineSpec e;
    const size_t colon = spec.find(':');
    if (spec.rfind("name=", 0) == 0 && colon != std::string::npos) {
      e.name = spec.substr(5, colon - 5);
      e.command = spec.substr(colon + 1);
    } else {
      e.command = spec;
      const std::string program = spec.substr(0, spec.find(' '));
      e.name = program.substr(program.rfind('/') + 1);
    }
    const std::string base = e.name;
    for (int n = 2; !taken.insert(e.name).second; ++n) {
      e.name = absl::StrCat(base, "-", n);
    }
    engines.push_back(std::move(e));
  }
  return engines;
}

}  // namespace wallgo::client
