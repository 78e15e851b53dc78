// The engine's named options (threads, visits, movetime, hash, seed, level,
// eval):
// one table shared by the GTP commands set_option/get_option/list_options and
// by the command line, so both accept exactly the same names and ranges.
#pragma once

#include <span>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "search/search.h"

namespace wallgo::protocol {

// kChoice: one of `choices` by name, held as its index (min 0, max the last).
enum class OptionType { kInt, kFloat, kChoice };

enum class OptionId {
  kThreads,
  kVisits,
  kMovetime,
  kHash,
  kSeed,
  kLevel,
  kEval,
  kShortlist,
  kSetupPriors,
  kPolicyWeight
};

struct OptionSpec {
  OptionId id;
  absl::string_view name;
  OptionType type;
  // Inclusive range; a float option takes any decimal value inside it.
  double min;
  double max;
  absl::string_view help;
  std::span<const char* const> choices = {};  // kChoice: the names
};

// The engine's defaults: search::SearchOptions' defaults, except a move time
// of 1 second, so that a plain `genmove` always ends on its own. That default
// is not the user's choice (movetime_set stays false): a clock given by
// time_settings/time_left replaces it. Setting movetime (even to 1) sets it.
search::SearchOptions DefaultOptions();

// Every option, in the order list_options prints them.
std::span<const OptionSpec> AllOptions();
// The option called `name` (exact, lowercase), or nullptr.
const OptionSpec* FindOption(absl::string_view name);

// The option's value in `options`, as text ("4", "0.5").
std::string OptionValueText(const search::SearchOptions& options,
                            const OptionSpec& spec);
// Parses `text` for `spec` and stores it in `options`; on failure returns
// InvalidArgument saying why and leaves `options` unchanged.
absl::Status SetOptionFromText(search::SearchOptions& options,
                               const OptionSpec& spec, absl::string_view text);

// "1..256", the option's range as text.
std::string FormatRange(const OptionSpec& spec);

// "name type=int min=1 max=256 default=1 value=4" for list_options;
// "eval type=choice values=classic|net default=classic value=net" for a
// choice.
std::string DescribeOption(const search::SearchOptions& options,
                           const OptionSpec& spec);

}  // namespace wallgo::protocol
