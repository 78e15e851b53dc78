// The engine's protocol session in the WebAssembly builds (docs/web.md):
// the native engine's defaults but a smaller hash (browsers, phones most of
// all, give a page little memory), the built-in network, and the arguments
// `--NAME VALUE` setting the protocol's options (those of setoption) before
// the first line, so that programs start it as they start `wallgo` (the
// rest of the native command line, Boost's, is native only). The engine
// program (web_main.cc) runs one on its input; the static site
// (site_main.cc) runs one per engine the GUI's bridge starts.
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace wallgo::web {

// Runs the session until `in` ends or `quit`; returns the exit status
// (2 for a bad argument or network, said on `err`). `args` are the
// arguments after the program's name.
int RunEngineSession(const std::vector<std::string>& args, std::istream& in,
                     std::ostream& out, std::ostream& err);

}  // namespace wallgo::web
