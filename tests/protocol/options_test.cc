#include "protocol/options.h"

#include "gtest/gtest.h"
#include "protocol/time_control.h"

namespace wallgo::protocol {
namespace {

TEST(OptionsTest, EveryOptionOfTheContractExistsWithItsDefault) {
  const search::SearchOptions defaults = DefaultOptions();
  for (const char* name :
       {"threads", "visits", "movetime", "hash", "seed", "level", "eval"}) {
    EXPECT_NE(FindOption(name), nullptr) << name;
  }
  // DefaultOptions() and list_options's default= both come from the table.
  for (const OptionSpec& option : AllOptions()) {
    const OptionSpec* spec = FindOption(option.name);
    ASSERT_EQ(spec, &option) << option.name;
    const std::string description = DescribeOption(defaults, *spec);
    const std::string value = OptionValueText(defaults, *spec);
    EXPECT_NE(description.find(" default=" + value + " value=" + value),
              std::string::npos)
        << description;
  }
  EXPECT_EQ(FindOption("Threads"), nullptr);
}

// The text after "default=" in the option's list_options line.
std::string DefaultText(const OptionSpec& spec) {
  const std::string line = DescribeOption(search::SearchOptions{}, spec);
  const size_t start = line.find(" default=") + 9;
  return line.substr(start, line.find(' ', start) - start);
}

// Every field of SearchOptions is an option's, and the table's defaults
// (as list_options prints them) are SearchOptions{}'s: the one statement of
// the engine's defaults, which `wallgo` plays with (DefaultOptions).
TEST(OptionsTest, TheTablesDefaultsAreSearchOptionsDefaultsFieldByField) {
  const search::SearchOptions defaults;
  // Every option moved off its default, through the table.
  search::SearchOptions moved = defaults;
  for (const OptionSpec& spec : AllOptions()) {
    const double other = DefaultValue(spec) != spec.max ? spec.max : spec.min;
    spec.set(moved, other);
  }
  // Each field moved: no field of the search lacks a row.
  EXPECT_NE(moved.threads, defaults.threads);
  EXPECT_NE(moved.visits, defaults.visits);
  EXPECT_NE(moved.movetime_s, defaults.movetime_s);
  EXPECT_NE(moved.hash_mb, defaults.hash_mb);
  EXPECT_NE(moved.seed, defaults.seed);
  EXPECT_NE(moved.level, defaults.level);
  EXPECT_NE(moved.eval, defaults.eval);
  EXPECT_NE(moved.shortlist, defaults.shortlist);
  EXPECT_NE(moved.net_setup_priors, defaults.net_setup_priors);
  EXPECT_NE(moved.policy_weight, defaults.policy_weight);
  EXPECT_NE(moved.c_puct, defaults.c_puct);
  EXPECT_NE(moved.c_puct_hybrid, defaults.c_puct_hybrid);
  EXPECT_NE(moved.c_puct_multi, defaults.c_puct_multi);
  EXPECT_NE(moved.fpu_reduction, defaults.fpu_reduction);
  EXPECT_NE(moved.fpu_prior_scale, defaults.fpu_prior_scale);
  EXPECT_NE(moved.deferred_visits, defaults.deferred_visits);
  EXPECT_NE(moved.thread_affinity, defaults.thread_affinity);
  // Every option set back to its listed default text.
  search::SearchOptions back = moved;
  for (const OptionSpec& spec : AllOptions()) {
    ASSERT_TRUE(SetOptionFromText(back, spec, DefaultText(spec)).ok())
        << spec.name;
  }
  back.movetime_set = false;  // set_option's mark of the user's choice
  EXPECT_EQ(back.threads, defaults.threads);
  EXPECT_EQ(back.visits, defaults.visits);
  EXPECT_EQ(back.movetime_s, defaults.movetime_s);
  EXPECT_EQ(back.hash_mb, defaults.hash_mb);
  EXPECT_EQ(back.seed, defaults.seed);
  EXPECT_EQ(back.level, defaults.level);
  EXPECT_EQ(back.eval, defaults.eval);
  EXPECT_EQ(back.shortlist, defaults.shortlist);
  EXPECT_EQ(back.net_setup_priors, defaults.net_setup_priors);
  EXPECT_EQ(back.policy_weight, defaults.policy_weight);
  EXPECT_EQ(back.c_puct, defaults.c_puct);
  EXPECT_EQ(back.c_puct_hybrid, defaults.c_puct_hybrid);
  EXPECT_EQ(back.c_puct_multi, defaults.c_puct_multi);
  EXPECT_EQ(back.fpu_reduction, defaults.fpu_reduction);
  EXPECT_EQ(back.fpu_prior_scale, defaults.fpu_prior_scale);
  EXPECT_EQ(back.deferred_visits, defaults.deferred_visits);
  EXPECT_EQ(back.thread_affinity, defaults.thread_affinity);
  EXPECT_TRUE(back == defaults);  // and nothing else differs
  EXPECT_TRUE(DefaultOptions() == defaults);
}

// The profiles change the defaults where they say, and nothing else.
TEST(OptionsTest, ProfilesChangeOnlyWhatTheyName) {
  search::SearchOptions classic = search::ClassicProfile();
  EXPECT_EQ(classic.eval, search::EvalKind::kClassic);
  EXPECT_EQ(classic.movetime_s, 0);
  classic.eval = search::SearchOptions{}.eval;
  classic.movetime_s = search::SearchOptions{}.movetime_s;
  classic.shortlist = search::SearchOptions{}.shortlist;
  classic.policy_weight = search::SearchOptions{}.policy_weight;
  EXPECT_TRUE(classic == search::SearchOptions{});
  search::SearchOptions self_play = search::SelfPlayProfile();
  EXPECT_EQ(self_play.shortlist, search::SearchOptions{}.shortlist);
  EXPECT_EQ(self_play.policy_weight, search::SearchOptions{}.policy_weight);
  self_play.eval = search::SearchOptions{}.eval;
  self_play.movetime_s = search::SearchOptions{}.movetime_s;
  self_play.hash_mb = search::SearchOptions{}.hash_mb;
  EXPECT_TRUE(self_play == search::SearchOptions{});
}

// The tunables are options like any other, but list_options leaves them
// out.
TEST(OptionsTest, TheSearchTunablesAreHiddenOptions) {
  for (const char* name :
       {"cpuct", "cpuct_hybrid", "cpuct_multi", "fpu_reduction", "fpu_prior",
        "deferred_visits", "thread_affinity", "solver_share"}) {
    const OptionSpec* spec = FindOption(name);
    ASSERT_NE(spec, nullptr) << name;
    EXPECT_TRUE(spec->hidden) << name;
  }
  for (const char* name : {"threads", "eval", "shortlist", "policy_weight"}) {
    EXPECT_FALSE(FindOption(name)->hidden) << name;
  }
  search::SearchOptions options = DefaultOptions();
  ASSERT_TRUE(SetOptionFromText(options, *FindOption("cpuct"), "1.5").ok());
  EXPECT_EQ(options.c_puct, 1.5);
  EXPECT_EQ(OptionValueText(options, *FindOption("thread_affinity")), "0.03");
}

TEST(OptionsTest, ValuesAreParsedAndRangeCheckedWithoutPartialChanges) {
  search::SearchOptions options = DefaultOptions();
  const OptionSpec& level = *FindOption("level");
  EXPECT_TRUE(SetOptionFromText(options, level, "3").ok());
  EXPECT_EQ(options.level, 3);
  for (const char* bad :
       {"0", "11", "2.5", "", "three", "99999999999999999999"}) {
    EXPECT_FALSE(SetOptionFromText(options, level, bad).ok()) << bad;
    EXPECT_EQ(options.level, 3);
  }
  const OptionSpec& movetime = *FindOption("movetime");
  EXPECT_TRUE(SetOptionFromText(options, movetime, "2.25").ok());
  EXPECT_DOUBLE_EQ(options.movetime_s, 2.25);
  EXPECT_FALSE(SetOptionFromText(options, movetime, "nan").ok());
  EXPECT_FALSE(SetOptionFromText(options, movetime, "-1").ok());
  const OptionSpec& seed = *FindOption("seed");
  EXPECT_TRUE(SetOptionFromText(options, seed, "4294967295").ok());
  EXPECT_EQ(options.seed, 4294967295u);
  EXPECT_EQ(OptionValueText(options, seed), "4294967295");
}

TEST(OptionsTest, TheEvaluationIsAChoiceByName) {
  search::SearchOptions options = DefaultOptions();
  const OptionSpec& eval = *FindOption("eval");
  EXPECT_EQ(OptionValueText(options, eval), "hybrid");
  EXPECT_EQ(DescribeOption(options, eval),
            "eval type=choice values=classic|net|hybrid default=hybrid "
            "value=hybrid");
  EXPECT_TRUE(SetOptionFromText(options, eval, "classic").ok());
  EXPECT_EQ(options.eval, search::EvalKind::kClassic);
  EXPECT_EQ(DescribeOption(options, eval),
            "eval type=choice values=classic|net|hybrid default=hybrid "
            "value=classic");
  EXPECT_TRUE(SetOptionFromText(options, eval, "net").ok());
  EXPECT_EQ(options.eval, search::EvalKind::kNet);
  EXPECT_EQ(OptionValueText(options, eval), "net");
  for (const char* bad : {"", "Net", "2", "classic ", "neural"}) {
    const absl::Status status = SetOptionFromText(options, eval, bad);
    EXPECT_EQ(status.message(), std::string("eval must be one of classic, "
                                            "net, hybrid, not '") +
                                    bad + "'");
    EXPECT_EQ(options.eval, search::EvalKind::kNet);
  }
}

TEST(TimeControlTest, NoSettingsMeansNoClock) {
  TimeControl tc;
  EXPECT_FALSE(tc.clock(Colour::kRed).active());
  ASSERT_TRUE(tc.SetSettings(0, 30, 0).ok());  // GTP: no time limits
  EXPECT_FALSE(tc.clock(Colour::kRed).active());
  EXPECT_TRUE(tc.SetTimeLeft(Colour::kRed, 5, 0).ok());
  EXPECT_FALSE(tc.clock(Colour::kRed).active());
}

TEST(TimeControlTest, MainTimeRunsIntoByoYomiPeriods) {
  TimeControl tc;
  ASSERT_TRUE(tc.SetSettings(10, 30, 2).ok());
  tc.Spend(Colour::kRed, 4);
  EXPECT_DOUBLE_EQ(tc.clock(Colour::kRed).main_s, 6);
  EXPECT_FALSE(tc.clock(Colour::kRed).in_byo);
  tc.Spend(Colour::kRed, 8);  // 2 s into byo-yomi, one stone of two played
  EXPECT_TRUE(tc.clock(Colour::kRed).in_byo);
  EXPECT_DOUBLE_EQ(tc.clock(Colour::kRed).byo_s, 28);
  EXPECT_EQ(tc.clock(Colour::kRed).byo_stones_left, 1);
  tc.Spend(Colour::kRed, 5);  // the period's stones are done: a new period
  EXPECT_DOUBLE_EQ(tc.clock(Colour::kRed).byo_s, 30);
  EXPECT_EQ(tc.clock(Colour::kRed).byo_stones_left, 2);
  EXPECT_DOUBLE_EQ(tc.clock(Colour::kBlue).main_s, 10);  // untouched
  tc.Reset();
  EXPECT_DOUBLE_EQ(tc.clock(Colour::kRed).main_s, 10);
}

TEST(TimeControlTest, AbsoluteTimeThatRunsOutStaysActive) {
  TimeControl tc;
  ASSERT_TRUE(tc.SetSettings(5, 0, 0).ok());
  tc.Spend(Colour::kBlue, 7);
  EXPECT_TRUE(tc.clock(Colour::kBlue).active());
  EXPECT_LT(tc.clock(Colour::kBlue).main_s, 0.1);
  EXPECT_FALSE(tc.SetSettings(-1, 0, 0).ok());
  EXPECT_DOUBLE_EQ(tc.clock(Colour::kRed).main_s, 5);  // unchanged
}

}  // namespace
}  // namespace wallgo::protocol
