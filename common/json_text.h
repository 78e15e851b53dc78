// JSON text for anything that may hold outside bytes (engines' words, users'
// input cut short): nlohmann::json's dump() throws type_error 316 on bytes
// that are not UTF-8, which in a server or a match ends the process. Here
// such bytes become U+FFFD instead. Found by the fuzz targets
// (docs/fuzzing.md).
#pragma once

#include <string>

#include "nlohmann/json.hpp"

namespace wallgo::common {

// Any nlohmann::basic_json (json, ordered_json): a template, so that an
// ordered_json keeps its key order (a conversion to json would sort it).
template <typename Json>
std::string JsonText(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace wallgo::common
