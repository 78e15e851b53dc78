#include "protocol/options.h"

#include <array>
#include <cmath>
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/movegen.h"

namespace wallgo::protocol {
namespace {

constexpr std::array<const char*, 2> kSetupPriorsNames = {"classic", "net"};

// The most search memory, in MB. The WebAssembly engine (tools/web) has at
// most 2 GB of memory in all, and a search graph that does not fit would
// abort it (it cannot catch std::bad_alloc), so it refuses more than 1 GB.
#if defined(__EMSCRIPTEN__)
constexpr double kMaxHashMb = 1024;
#else
constexpr double kMaxHashMb = 65536;
#endif

constexpr std::array<OptionSpec, 10> kOptions = {{
    {OptionId::kThreads, "threads", OptionType::kInt, 1, 256, "search threads"},
    {OptionId::kVisits, "visits", OptionType::kInt, 0, 1e12,
     "playouts per move, 0 = no visit limit"},
    {OptionId::kMovetime, "movetime", OptionType::kFloat, 0, 86400,
     "seconds per move, 0 = no fixed move time"},
    {OptionId::kHash, "hash", OptionType::kInt, 1, kMaxHashMb,
     "MB of search memory"},
    {OptionId::kSeed, "seed", OptionType::kInt, 0, 4294967295.0,
     "random seed of the search"},
    {OptionId::kLevel, "level", OptionType::kInt, 1, 10,
     "playing strength, 1 = beginner .. 10 = full strength"},
    {OptionId::kEval, "eval", OptionType::kChoice, 0,
     search::kEvalKindNames.size() - 1,
     "leaf evaluation of levels 5..10: classic (reachability), net "
     "(learned, --weights) or hybrid (the net's value, classic priors)",
     search::kEvalKindNames},
    {OptionId::kShortlist, "shortlist", OptionType::kInt, 0,
     wallgo::MoveList::kCapacity,
     "eval=hybrid: the classic priors evaluate only this many moves, the "
     "network's best; 0 = every move"},
    {OptionId::kSetupPriors, "setup_priors", OptionType::kChoice, 0, 1,
     "eval=hybrid: the priors of stone placements, classic (as after "
     "them) or net (the network's policy)",
     kSetupPriorsNames},
    {OptionId::kPolicyWeight, "policy_weight", OptionType::kFloat, 0,
     search::kMaxPolicyWeight,
     "eval=hybrid with a shortlist: weight of the network's policy in the "
     "priors (the shortlist's, then every move's), beside the classic "
     "ones; 0 = classic only"},
}};

// Reads the option's field as a double (every range fits exactly).
double GetValue(const search::SearchOptions& o, OptionId id) {
  switch (id) {
    case OptionId::kThreads:
      return o.threads;
    case OptionId::kVisits:
      return static_cast<double>(o.visits);
    case OptionId::kMovetime:
      return o.movetime_s;
    case OptionId::kHash:
      return o.hash_mb;
    case OptionId::kSeed:
      return static_cast<double>(o.seed);
    case OptionId::kLevel:
      return o.level;
    case OptionId::kEval:
      return static_cast<int>(o.eval);
    case OptionId::kShortlist:
      return o.shortlist;
    case OptionId::kSetupPriors:
      return o.net_setup_priors ? 1 : 0;
    case OptionId::kPolicyWeight:
      return o.policy_weight;
  }
  return 0;
}

// Stores an already range-checked value.
void SetValue(search::SearchOptions& o, OptionId id, double value) {
  switch (id) {
    case OptionId::kThreads:
      o.threads = static_cast<int>(value);
      return;
    case OptionId::kVisits:
      o.visits = static_cast<int64_t>(value);
      return;
    case OptionId::kMovetime:
      o.movetime_s = value;
      o.movetime_set = true;  // the user's choice, even when it is the default
      return;
    case OptionId::kHash:
      o.hash_mb = static_cast<int>(value);
      return;
    case OptionId::kSeed:
      o.seed = static_cast<uint64_t>(value);
      return;
    case OptionId::kLevel:
      o.level = static_cast<int>(value);
      return;
    case OptionId::kEval:
      o.eval = static_cast<search::EvalKind>(value);
      return;
    case OptionId::kShortlist:
      o.shortlist = static_cast<int>(value);
      return;
    case OptionId::kSetupPriors:
      o.net_setup_priors = value != 0;
      return;
    case OptionId::kPolicyWeight:
      o.policy_weight = value;
      return;
  }
}

std::string FormatNumber(double value, const OptionSpec& spec) {
  if (spec.type == OptionType::kChoice) {
    return std::string(spec.choices[static_cast<size_t>(value)]);
  }
  if (spec.type == OptionType::kInt) {
    return absl::StrCat(static_cast<int64_t>(value));
  }
  return absl::StrFormat("%g", value);
}

absl::string_view TypeName(OptionType type) {
  switch (type) {
    case OptionType::kInt:
      return "int";
    case OptionType::kFloat:
      return "float";
    case OptionType::kChoice:
      return "choice";
  }
  return "";
}

// Parses a value of `spec`'s type (a choice by name, to its index).
absl::StatusOr<double> ParseNumber(absl::string_view text,
                                   const OptionSpec& spec) {
  if (spec.type == OptionType::kChoice) {
    for (size_t i = 0; i < spec.choices.size(); ++i) {
      if (spec.choices[i] == text) return static_cast<double>(i);
    }
    return absl::InvalidArgumentError("not a choice");
  }
  if (spec.type == OptionType::kInt) {
    int64_t value = 0;
    if (!absl::SimpleAtoi(text, &value)) {
      return absl::InvalidArgumentError("not an integer");
    }
    return static_cast<double>(value);
  }
  double value = 0;
  if (!absl::SimpleAtod(text, &value) || !std::isfinite(value)) {
    return absl::InvalidArgumentError("not a number");
  }
  return value;
}

std::string ExpectedText(const OptionSpec& spec) {
  switch (spec.type) {
    case OptionType::kInt:
      return "an integer";
    case OptionType::kFloat:
      return "a number";
    case OptionType::kChoice:
      return absl::StrCat("one of ", FormatRange(spec));
  }
  return "";
}

}  // namespace

search::SearchOptions DefaultOptions() {
  search::SearchOptions options;
  options.movetime_s = 1;
  // The stronger at equal time in 2-player games with wallgo-net-2 and 3
  // (docs/eval.md); games of 3 or 4 players search with the classic
  // evaluation whatever the option says (the network never saw them).
  options.eval = search::EvalKind::kHybrid;
  // The network's shortlist and its policy in the priors (search.h says
  // why these values).
  options.shortlist = search::kDefaultShortlist;
  options.policy_weight = search::kDefaultPolicyWeight;
  return options;
}

std::span<const OptionSpec> AllOptions() { return kOptions; }

const OptionSpec* FindOption(absl::string_view name) {
  for (const OptionSpec& spec : kOptions) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::string OptionValueText(const search::SearchOptions& options,
                            const OptionSpec& spec) {
  return FormatNumber(GetValue(options, spec.id), spec);
}

absl::Status SetOptionFromText(search::SearchOptions& options,
                               const OptionSpec& spec, absl::string_view text) {
  const std::string shown(text.substr(0, 40));
  absl::StatusOr<double> value = ParseNumber(text, spec);
  if (!value.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        spec.name, " must be ", ExpectedText(spec), ", not '", shown, "'"));
  }
  if (*value < spec.min || *value > spec.max) {
    return absl::InvalidArgumentError(absl::StrCat(
        spec.name, " must be in ", FormatRange(spec), ", not ", shown));
  }
  SetValue(options, spec.id, *value);
  return absl::OkStatus();
}

std::string FormatRange(const OptionSpec& spec) {
  if (spec.type == OptionType::kChoice) {
    return absl::StrJoin(spec.choices, ", ");
  }
  return absl::StrCat(FormatNumber(spec.min, spec), "..",
                      FormatNumber(spec.max, spec));
}

std::string DescribeOption(const search::SearchOptions& options,
                           const OptionSpec& spec) {
  const search::SearchOptions defaults = DefaultOptions();
  if (spec.type == OptionType::kChoice) {
    return absl::StrCat(
        spec.name, " type=choice values=", absl::StrJoin(spec.choices, "|"),
        " default=", OptionValueText(defaults, spec),
        " value=", OptionValueText(options, spec));
  }
  return absl::StrCat(spec.name, " type=", TypeName(spec.type),
                      " min=", FormatNumber(spec.min, spec),
                      " max=", FormatNumber(spec.max, spec),
                      " default=", OptionValueText(defaults, spec),
                      " value=", OptionValueText(options, spec));
}

}  // namespace wallgo::protocol
