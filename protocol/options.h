// The engine's named options (threads, visits, movetime, hash, seed, level,
// eval, shortlist, setup_priors, policy_weight, and the hidden tunables
// cpuct, cpuct_hybrid, cpuct_multi, fpu_reduction, fpu_prior,
// deferred_visits, thread_affinity; and virtual_loss): one table shared by the GTP
// commands set_option/get_option/list_options and by the command line, so
// both accept exactly the same names and ranges. Each option is one row of
// that table (options.cc): its name, type, range and field; its default is
// the field's in search::SearchOptions{}.
#pragma once

#include <span>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "search/search.h"

namespace wallgo::protocol {

// kChoice: one of `choices` by name, held as its index (min 0, max the last).
enum class OptionType { kInt, kFloat, kChoice };

// One option: everything about it is in its row of the table.
struct OptionSpec {
  absl::string_view name;
  OptionType type;
  // Inclusive range; a float option takes any decimal value inside it.
  double min;
  double max;
  absl::string_view help;
  // The option's field of SearchOptions as a double (every range fits
  // exactly), and the store of an already range-checked value into it.
  double (*get)(const search::SearchOptions&);
  void (*set)(search::SearchOptions&, double);
  std::span<const char* const> choices = {};  // kChoice: the names
  // A query of kata-analyze JSON may not override it: it sizes the
  // process's searchers.
  bool process_wide = false;
  // Beyond the range, whether the value can be had now (hash: the memory);
  // an error other than InvalidArgument says why not. May be null.
  absl::Status (*available)(double value) = nullptr;
  // A tuning option: set_option, get_option and the command line take it,
  // list_options and --help do not show it.
  bool hidden = false;
};

// The engine's defaults: search::SearchOptions{}, whose member
// initialisers are the one statement of every option's default (the
// table's default column reads them). Its move time of 1 second makes a
// plain `genmove` end on its own; that default is not the user's choice
// (movetime_set stays false): a clock given by time_settings/time_left
// replaces it. Setting movetime (even to 1) sets it.
search::SearchOptions DefaultOptions();
// The option's default (a choice's index): its field of DefaultOptions().
double DefaultValue(const OptionSpec& spec);

// Every option, in the order list_options prints them.
std::span<const OptionSpec> AllOptions();
// The option called `name` (exact, lowercase), or nullptr.
const OptionSpec* FindOption(absl::string_view name);

// The option's value in `options`, as text ("4", "0.5").
std::string OptionValueText(const search::SearchOptions& options,
                            const OptionSpec& spec);
// Parses `text` for `spec` and stores it in `options`; on failure returns
// InvalidArgument saying why (ResourceExhausted: a hash beyond the memory
// to be had) and leaves `options` unchanged.
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
