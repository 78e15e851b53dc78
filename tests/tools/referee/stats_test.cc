// The match statistics against values worked out by hand from the formulas
// in docs/referee.md (the arithmetic is in the comments).
#include "tools/referee/stats.h"

#include <cmath>

#include "gtest/gtest.h"

namespace wallgo::referee {
namespace {

// 30 wins, 10 draws, 20 losses (60 games).
constexpr Trinomial kGames{30, 10, 20};

TEST(EloTest, ScoreAndEloAreInverse) {
  // s = 0.75: 400 log10(0.75 / 0.25) = 400 log10(3) = 190.8485.
  EXPECT_NEAR(EloFromScore(0.75), 190.8485, 1e-4);
  EXPECT_NEAR(ScoreFromElo(190.8485), 0.75, 1e-6);
  EXPECT_EQ(EloFromScore(0.5), 0.0);
  EXPECT_TRUE(std::isinf(EloFromScore(1.0)) && EloFromScore(1.0) > 0);
  EXPECT_TRUE(std::isinf(EloFromScore(0.0)) && EloFromScore(0.0) < 0);
}

TEST(EloTest, TrinomialInterval) {
  // s = (30 + 10/2) / 60 = 0.583333
  // Elo = -400 log10(1/0.583333 - 1) = -400 log10(0.714286) = 58.4512
  // per-game variance = 0.5 (1 - s)^2 + (1/6) (0.5 - s)^2 + (1/3) s^2
  //                   = 0.5 * 0.173611 + 0.166667 * 0.006944 + 0.333333 *
  //                   0.340278 = 0.201389
  // standard error = sqrt(0.201389 / 60) = 0.0579351
  // s -/+ 1.959964 * 0.0579351 = 0.469783 / 0.696884
  // Elo(0.469783) = -21.0229, Elo(0.696884) = 144.6208
  const EloEstimate e = EloFromTrinomial(kGames);
  EXPECT_NEAR(e.score, 0.583333, 1e-6);
  EXPECT_NEAR(e.elo, 58.4512, 1e-3);
  EXPECT_NEAR(e.lower, -21.0229, 1e-3);
  EXPECT_NEAR(e.upper, 144.6208, 1e-3);
  EXPECT_NEAR(e.margin(), (144.6208 + 21.0229) / 2, 1e-3);
}

TEST(EloTest, NoGamesIsNotANumber) {
  EXPECT_TRUE(std::isnan(EloFromTrinomial({}).elo));
  EXPECT_TRUE(std::isnan(EloFromPentanomial({}).elo));
}

TEST(EloTest, PentanomialInterval) {
  // Pairs [LL, LD, WL+DD, WD, WW] = [1, 4, 10, 8, 2], 25 pairs, pair scores
  // 0, 0.25, 0.5, 0.75, 1.
  // mean = (0*1 + 0.25*4 + 0.5*10 + 0.75*8 + 1*2) / 25 = 14 / 25 = 0.56
  // variance = (1*0.56^2 + 4*0.31^2 + 10*0.06^2 + 8*0.19^2 + 2*0.44^2) / 25
  //          = (0.3136 + 0.3844 + 0.036 + 0.2888 + 0.3872) / 25 = 0.0564
  // standard error = sqrt(0.0564 / 25) = 0.0474974
  // 0.56 -/+ 1.959964 * 0.0474974 = 0.466907 / 0.653093
  // Elo(0.56) = 41.8941, Elo(0.466907) = -23.0291, Elo(0.653093) = 109.9049
  const EloEstimate e = EloFromPentanomial({{1, 4, 10, 8, 2}});
  EXPECT_NEAR(e.score, 0.56, 1e-9);
  EXPECT_NEAR(e.elo, 41.8941, 1e-3);
  EXPECT_NEAR(e.lower, -23.0291, 1e-3);
  EXPECT_NEAR(e.upper, 109.9049, 1e-3);
}

TEST(LosTest, FromWinsAndLosses) {
  // 0.5 (1 + erf((30 - 20) / sqrt(2 * 50))) = 0.5 (1 + erf(1))
  //   = 0.5 (1 + 0.842701) = 0.921350; draws do not count.
  EXPECT_NEAR(LikelihoodOfSuperiority(kGames), 0.921350, 1e-6);
  EXPECT_NEAR(LikelihoodOfSuperiority({20, 0, 30}), 1 - 0.921350, 1e-6);
  EXPECT_EQ(LikelihoodOfSuperiority({0, 7, 0}), 0.5);
}

TEST(SprtTest, BoundsFromErrorRates) {
  // log(0.05 / 0.95) = -2.944439, log(0.95 / 0.05) = +2.944439
  const SprtState s = PentanomialSprt({}, {0, 10, 0.05, 0.05});
  EXPECT_NEAR(s.lower_bound, -2.944439, 1e-6);
  EXPECT_NEAR(s.upper_bound, 2.944439, 1e-6);
  EXPECT_EQ(s.llr, 0);
  EXPECT_EQ(s.decision, SprtDecision::kContinue);
}

TEST(SprtTest, PentanomialMleHasTheRequiredMean) {
  // P_i = p_i / (1 + theta (a_i - s)) with theta the root of
  // sum_i p_i (a_i - s) / (1 + theta (a_i - s)): for p = [0.04, 0.16, 0.4,
  // 0.32, 0.08] and s = 0.5, theta = 0.965872 and
  // P = [0.04 / (1 - 0.482936), 0.16 / (1 - 0.241468), 0.4,
  //      0.32 / (1 + 0.241468), 0.08 / (1 + 0.482936)]
  //   = [0.077360, 0.210934, 0.4, 0.257759, 0.053947]: sums to 1, mean 0.5.
  const std::array<double, 5> p =
      PentanomialMle({0.04, 0.16, 0.4, 0.32, 0.08}, 0.5);
  const std::array<double, 5> expected = {0.077360, 0.210934, 0.4, 0.257759,
                                          0.053947};
  double sum = 0, mean = 0;
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(p[i], expected[i], 1e-6);
    sum += p[i];
    mean += p[i] * i / 4.0;
  }
  EXPECT_NEAR(sum, 1, 1e-9);
  EXPECT_NEAR(mean, 0.5, 1e-9);
}

TEST(SprtTest, PentanomialGsprt) {
  // Same pairs as above: N = 25, observed p = [0.04, 0.16, 0.4, 0.32, 0.08].
  // s0 = score at 0 Elo = 0.5, s1 = 1 / (1 + 10^(-10/400)) = 0.514387.
  // P0 (theta 0.965872) = [0.077360, 0.210934, 0.4, 0.257759, 0.053947]
  // P1 (theta 0.756838) = [0.065499, 0.200025, 0.404403, 0.271573, 0.058500]
  // LLR = N sum_i p_i ln(P1_i / P0_i)
  //     = 25 (0.04 ln 0.846682 + 0.16 ln 0.948299 + 0.4 ln 1.011009
  //           + 0.32 ln 1.053593 + 0.08 ln 1.084391) = 0.310312
  const SprtState s = PentanomialSprt({{1, 4, 10, 8, 2}}, {0, 10, 0.05, 0.05});
  EXPECT_NEAR(s.llr, 0.310312, 1e-5);
  EXPECT_EQ(s.decision, SprtDecision::kContinue);
}

TEST(SprtTest, PentanomialRegularizesEmptyCounts) {
  // One win-win pair: counts [0, 0, 0, 0, 1] become [1e-3, 1e-3, 1e-3,
  // 1e-3, 1], N = 1.004, p = [0.000996, 0.000996, 0.000996, 0.000996,
  // 0.996016]. P0 = [0.497845, 0.001988, 0.000996, 0.000664, 0.498507],
  // P1 = [0.483396, 0.002045, 0.001025, 0.000684, 0.512851].
  // LLR = 1.004 * (0.996016 ln(0.512851 / 0.498507) + small terms)
  //     = 0.028424: one pair proves nothing.
  const SprtState s = PentanomialSprt({{0, 0, 0, 0, 1}}, {0, 10, 0.05, 0.05});
  EXPECT_NEAR(s.llr, 0.028424, 1e-5);
  EXPECT_EQ(s.decision, SprtDecision::kContinue);
}

TEST(SprtTest, TrinomialBayesElo) {
  // 30 W, 10 D, 20 L: pW = 1/2, pL = 1/3.
  // drawElo = 200 log10((1 - pL)/pL * (1 - pW)/pW) = 200 log10(2 * 1)
  //         = 60.206; x = 10^(-drawElo/400) = 2^(-1/2) = 0.707107
  // scale = 4x / (1 + x)^2 = 0.970563; BayesElo bounds 0 and 10/scale.
  // H0 (bayesElo 0): win = loss = 1/(1 + 10^(60.206/400)) = 1/(1 + 2^0.5)
  //   = 0.414214, draw = 0.171573
  // H1 (bayesElo 10.30331): win = 1/(1 + 10^((60.206 - 10.303)/400))
  //   = 0.428674, loss = 1/(1 + 10^((60.206 + 10.303)/400)) = 0.399899,
  //   draw = 0.171427
  // LLR = 30 ln(0.428674/0.414214) + 10 ln(0.171427/0.171573)
  //     + 20 ln(0.399899/0.414214) = 1.029299 - 0.008535 - 0.703352
  //     = 0.317549
  const SprtState s = TrinomialSprt(kGames, {0, 10, 0.05, 0.05});
  EXPECT_NEAR(s.llr, 0.317549, 1e-4);
  // Without draws the BayesElo model has no draw Elo: no decision.
  EXPECT_EQ(TrinomialSprt({30, 0, 20}, {0, 10, 0.05, 0.05}).llr, 0);
}

TEST(SprtTest, AcceptsAHypothesisWhenTheEvidenceIsStrong) {
  // 16 times the pairs above (same p, N = 400): LLR = 16 * 0.310312
  // = 4.96499 > 2.944: H1. Mirrored counts (mean 0.44) give -6.11938
  // < -2.944: H0.
  const SprtParams p{0, 10, 0.05, 0.05};
  const SprtState h1 = PentanomialSprt({{16, 64, 160, 128, 32}}, p);
  EXPECT_NEAR(h1.llr, 16 * 0.310312, 1e-3);
  EXPECT_EQ(h1.decision, SprtDecision::kAcceptH1);
  const SprtState h0 = PentanomialSprt({{32, 128, 160, 64, 16}}, p);
  EXPECT_NEAR(h0.llr, -6.11938, 1e-3);
  EXPECT_EQ(h0.decision, SprtDecision::kAcceptH0);
  EXPECT_EQ(RunSprt({}, {{32, 128, 160, 64, 16}}, p).decision,
            SprtDecision::kAcceptH0);
}

}  // namespace
}  // namespace wallgo::referee
