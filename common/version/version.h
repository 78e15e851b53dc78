#ifndef WALLGO_COMMON_VERSION_VERSION_H_
#define WALLGO_COMMON_VERSION_VERSION_H_

// wallgo's version, one truth for every program: CMakeLists.txt's
// project(VERSION), and the commit the build was made from, both written
// into version.cc by cmake/version.cmake at build time.

#include <ostream>
#include <string>
#include <string_view>

namespace wallgo {

// "1.0.0": the protocol's `version` answer, the packages' version.
std::string_view Version();

// The source's commit (12 hex digits, "-dirty" when the checkout had
// changes), or "unknown" for a source without one.
std::string_view Commit();

// What `PROGRAM --version` prints: "wallgo-referee 1.0.0 (commit
// 986e658a1b2c)".
std::string VersionLine(std::string_view program);

// Every program answers `--version` before it parses anything else: when
// an argument before any `--` is `--version` (with other options or
// without, as GNU programs do), writes VersionLine(program) to out and
// returns true (main then returns 0). common/version_option.h lists it in
// the program's --help.
bool AnsweredVersion(int argc, const char* const* argv,
                     std::string_view program, std::ostream& out);

}  // namespace wallgo

#endif  // WALLGO_COMMON_VERSION_VERSION_H_
