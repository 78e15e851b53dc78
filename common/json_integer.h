// Whether a JSON value read from outside is an integer in a range. nlohmann's
// get<int64_t>() of a number with a fraction, or of one out of range,
// converts it with static_cast (undefined behaviour for 3e23: the records
// fuzz target found it), so readers check with this first. nlohmann keeps 0
// and above as unsigned, below as signed.
#pragma once

#include <cstdint>

namespace wallgo::common {

// Any nlohmann::basic_json (json, ordered_json).
template <typename Json>
bool IsIntegerIn(const Json& value, int64_t min, int64_t max) {
  if (value.is_number_unsigned()) {
    const uint64_t v = value.template get<uint64_t>();
    return max >= 0 && v <= static_cast<uint64_t>(max) &&
           (min <= 0 || v >= static_cast<uint64_t>(min));
  }
  return value.is_number_integer() && value.template get<int64_t>() >= min &&
         value.template get<int64_t>() <= max;
}

}  // namespace wallgo::common
