// The message of a Boost.Program_options error, safe for any user input.
//
// Boost 1.74 builds the message by replacing placeholders such as
// %canonical_option% or %value% in a template with the option name and
// value the user gave, and repeats each replacement until the placeholder
// is gone. A name or value that itself contains a placeholder
// (`--%canonical_option%`, a config line `x%value%=1`) therefore never
// finishes: what() loops, growing the message until memory runs out (found
// by the config fuzz target, tests/fuzz/corpus/config). ErrorMessage writes
// every '%' of the user's text as "%25" first, so that no placeholder can
// appear in it, then asks Boost for the message.
#pragma once

#include <map>
#include <string>

#include "boost/program_options/errors.hpp"

namespace wallgo::common {

namespace detail {
// Reads error_with_option_name's protected substitutions (a member pointer
// named through a derived class is allowed to reach them).
struct SubstitutionsOf : boost::program_options::error_with_option_name {
  using boost::program_options::error_with_option_name::m_substitutions;
};
}  // namespace detail

inline std::string EscapePercent(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '%') {
      out += "%25";
    } else {
      out += c;
    }
  }
  return out;
}

// Takes the error by reference: the escaped substitutions stay in it.
inline std::string ErrorMessage(boost::program_options::error& error) {
  if (auto* named =
          dynamic_cast<boost::program_options::error_with_option_name*>(
              &error)) {
    std::map<std::string, std::string>& substitutions =
        named->*(&detail::SubstitutionsOf::m_substitutions);
    for (auto& [placeholder, value] : substitutions) {
      value = EscapePercent(value);
    }
  }
  return error.what();
}

}  // namespace wallgo::common
