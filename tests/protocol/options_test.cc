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
