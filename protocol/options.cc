#include "protocol/options.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

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

// Reads and stores SearchOptions field `kField` as a double.
template <auto kField>
double Get(const search::SearchOptions& options) {
  return static_cast<double>(options.*kField);
}
template <auto kField>
void Set(search::SearchOptions& options, double value) {
  using Field = std::remove_cvref_t<decltype(options.*kField)>;
  options.*kField = static_cast<Field>(value);
}

// Setting movetime is the user's choice, even when it is the default.
void SetMovetime(search::SearchOptions& options, double value) {
  options.movetime_s = value;
  options.movetime_set = true;
}

// Whether `mb` of search memory can be had now, asked of the allocator and
// given straight back: the WebAssembly engine's only (natively the range is
// the limit, and memory is committed as the search touches it). A browser,
// above all on a phone, may give a page far less than the range allows, and
// a search graph that does not fit would abort the engine, which cannot
// catch std::bad_alloc. The graph in use is still held while the probe
// runs, so the answer errs on the safe side: a yes is sure.
#if defined(__EMSCRIPTEN__)
absl::Status HashMemoryAvailable(double mb) {
  // volatile: a malloc whose block is only freed may be left out by the
  // compiler, which then assumes it succeeded.
  void* volatile probe = std::malloc(static_cast<size_t>(mb) << 20);
  if (probe == nullptr) {
    return absl::ResourceExhaustedError(
        absl::StrCat("hash ", mb,
                     " MB is more memory than this engine can get here, "
                     "beside what it holds; the hash is unchanged"));
  }
  std::free(probe);
  return absl::OkStatus();
}
constexpr auto kHashAvailable = &HashMemoryAvailable;
#else
constexpr absl::Status (*kHashAvailable)(double) = nullptr;
#endif

using search::SearchOptions;

constexpr std::array<OptionSpec, 19> kOptions = {{
    {.name = "threads",
     .type = OptionType::kInt,
     .min = 1,
     .max = 256,
     .help = "search threads",
     .get = Get<&SearchOptions::threads>,
     .set = Set<&SearchOptions::threads>,
     .process_wide = true},
    {.name = "visits",
     .type = OptionType::kInt,
     .min = 0,
     .max = 1e12,
     .help = "playouts per move, 0 = no visit limit",
     .get = Get<&SearchOptions::visits>,
     .set = Set<&SearchOptions::visits>},
    {.name = "movetime",
     .type = OptionType::kFloat,
     .min = 0,
     .max = 86400,
     .help = "seconds per move, 0 = no fixed move time",
     .get = Get<&SearchOptions::movetime_s>,
     .set = SetMovetime},
    {.name = "hash",
     .type = OptionType::kInt,
     .min = 1,
     .max = kMaxHashMb,
     .help = "MB of search memory",
     .get = Get<&SearchOptions::hash_mb>,
     .set = Set<&SearchOptions::hash_mb>,
     .process_wide = true,
     .available = kHashAvailable},
    {.name = "seed",
     .type = OptionType::kInt,
     .min = 0,
     .max = 4294967295.0,
     .help = "random seed of the search",
     .get = Get<&SearchOptions::seed>,
     .set = Set<&SearchOptions::seed>},
    {.name = "level",
     .type = OptionType::kInt,
     .min = 1,
     .max = 10,
     .help = "playing strength, 1 = beginner .. 10 = full strength",
     .get = Get<&SearchOptions::level>,
     .set = Set<&SearchOptions::level>},
    {.name = "eval",
     .type = OptionType::kChoice,
     .min = 0,
     .max = search::kEvalKindNames.size() - 1,
     .help = "leaf evaluation of levels 5..10: classic (reachability), net "
             "(learned, --weights) or hybrid (the net's value, classic "
             "priors)",
     .get = Get<&SearchOptions::eval>,
     .set = Set<&SearchOptions::eval>,
     .choices = search::kEvalKindNames},
    {.name = "shortlist",
     .type = OptionType::kInt,
     .min = 0,
     .max = wallgo::MoveList::kCapacity,
     .help = "eval=hybrid: the classic priors evaluate only this many moves, "
             "the network's best; 0 = every move",
     .get = Get<&SearchOptions::shortlist>,
     .set = Set<&SearchOptions::shortlist>},
    {.name = "setup_priors",
     .type = OptionType::kChoice,
     .min = 0,
     .max = 1,
     .help = "eval=hybrid: the priors of stone placements, classic (as after "
             "them) or net (the network's policy)",
     .get = Get<&SearchOptions::net_setup_priors>,
     .set = Set<&SearchOptions::net_setup_priors>,
     .choices = kSetupPriorsNames},
    {.name = "policy_weight",
     .type = OptionType::kFloat,
     .min = 0,
     .max = search::kMaxPolicyWeight,
     .help = "eval=hybrid with a shortlist: weight of the network's policy in "
             "the priors (the shortlist's, then every move's), beside the "
             "classic ones; 0 = classic only",
     .get = Get<&SearchOptions::policy_weight>,
     .set = Set<&SearchOptions::policy_weight>},
    // The graph search's tunables, for tuning matches (wallgo-selfplay
    // --a-option): hidden from list_options and --help, as Stockfish hides
    // its tuning options.
    {.name = "cpuct",
     .type = OptionType::kFloat,
     .min = 0,
     .max = 100,
     .help = "PUCT exploration with the classic values, 2 players",
     .get = Get<&SearchOptions::c_puct>,
     .set = Set<&SearchOptions::c_puct>,
     .hidden = true},
    {.name = "cpuct_hybrid",
     .type = OptionType::kFloat,
     .min = 0,
     .max = 100,
     .help = "PUCT exploration with eval=hybrid's network values, 2 players",
     .get = Get<&SearchOptions::c_puct_hybrid>,
     .set = Set<&SearchOptions::c_puct_hybrid>,
     .hidden = true},
    {.name = "cpuct_multi",
     .type = OptionType::kFloat,
     .min = 0,
     .max = 100,
     .help = "PUCT exploration, 3 or 4 players",
     .get = Get<&SearchOptions::c_puct_multi>,
     .set = Set<&SearchOptions::c_puct_multi>,
     .hidden = true},
    {.name = "fpu_reduction",
     .type = OptionType::kFloat,
     .min = -1,
     .max = 1,
     .help = "first play urgency: the parent's value minus this",
     .get = Get<&SearchOptions::fpu_reduction>,
     .set = Set<&SearchOptions::fpu_reduction>,
     .hidden = true},
    {.name = "fpu_prior",
     .type = OptionType::kFloat,
     .min = 0,
     .max = 10,
     .help = "first play urgency: plus this times log(prior / best prior)",
     .get = Get<&SearchOptions::fpu_prior_scale>,
     .set = Set<&SearchOptions::fpu_prior_scale>,
     .hidden = true},
    {.name = "deferred_visits",
     .type = OptionType::kInt,
     .min = 0,
     .max = 1e6,
     .help = "with several threads, an edge's visits per thread from which "
             "its visits are deferred; 0 = never",
     .get = Get<&SearchOptions::deferred_visits>,
     .set = Set<&SearchOptions::deferred_visits>,
     .hidden = true},
    {.name = "thread_affinity",
     .type = OptionType::kFloat,
     .min = 0,
     .max = 1,
     .help = "with several threads, the bonus to each thread's share of a "
             "node's edges; 0 = none",
     .get = Get<&SearchOptions::thread_affinity>,
     .set = Set<&SearchOptions::thread_affinity>,
     .hidden = true},
    // The threads' selection rule (docs/search.md, "Threads: equal
    // playouts"): a row of its own, apart from the rows above.
    {.name = "virtual_loss",
     .type = OptionType::kFloat,
     .min = 0,
     .max = 1,
     .help = "with several threads: weight of a descent in flight as a loss "
             "in its move's value (1 = a whole loss, 0 = none: it counts "
             "only as a visit)",
     .get = Get<&SearchOptions::virtual_loss>,
     .set = Set<&SearchOptions::virtual_loss>},
    // The endgame solver's share of a move (docs/solver.md, "In the
    // engine"): a tunable, hidden as the graph search's are.
    {.name = "solver_share",
     .type = OptionType::kFloat,
     .min = 0,
     .max = 1,
     .help = "near the end of the game, the share of a move's time (or "
             "playouts) the exact solver gets first; 0 = never",
     .get = Get<&SearchOptions::solver_share>,
     .set = Set<&SearchOptions::solver_share>,
     .hidden = true},
}};

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

search::SearchOptions DefaultOptions() { return search::SearchOptions{}; }

double DefaultValue(const OptionSpec& spec) {
  return spec.get(search::SearchOptions{});
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
  return FormatNumber(spec.get(options), spec);
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
  if (spec.available != nullptr && *value != spec.get(options)) {
    if (absl::Status can = spec.available(*value); !can.ok()) return can;
  }
  spec.set(options, *value);
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
  const std::string default_text = FormatNumber(DefaultValue(spec), spec);
  if (spec.type == OptionType::kChoice) {
    return absl::StrCat(
        spec.name, " type=choice values=", absl::StrJoin(spec.choices, "|"),
        " default=", default_text, " value=", OptionValueText(options, spec));
  }
  return absl::StrCat(spec.name, " type=", TypeName(spec.type),
                      " min=", FormatNumber(spec.min, spec),
                      " max=", FormatNumber(spec.max, spec),
                      " default=", default_text,
                      " value=", OptionValueText(options, spec));
}

}  // namespace wallgo::protocol
