#include "tools/referee/stats.h"

#include <cmath>
#include <limits>

namespace wallgo::referee {
namespace {

// The 97.5% quantile of the standard normal distribution: a two-sided 95%
// interval is the mean +/- 1.959964 standard errors.
constexpr double kZ95 = 1.959963984540054;

// An interval from a sample of `n` values in 0..1 with the given mean and
// (population) variance per value.
EloEstimate EstimateFromMoments(double mean, double variance, int n) {
  EloEstimate e;
  if (n == 0) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan, nan, nan};
  }
  const double stderr_of_mean = std::sqrt(variance / n);
  e.score = mean;
  e.elo = EloFromScore(mean);
  e.lower = EloFromScore(mean - kZ95 * stderr_of_mean);
  e.upper = EloFromScore(mean + kZ95 * stderr_of_mean);
  return e;
}

// Outcome probabilities of the BayesElo model (Remi Coulom), as cutechess's
// sprt.cpp uses them.
struct Probabilities {
  double win = 0, draw = 0, loss = 0;
};

Probabilities BayesEloProbabilities(double bayes_elo, double draw_elo) {
  Probabilities p;
  p.win = 1.0 / (1.0 + std::pow(10.0, (draw_elo - bayes_elo) / 400.0));
  p.loss = 1.0 / (1.0 + std::pow(10.0, (draw_elo + bayes_elo) / 400.0));
  p.draw = 1.0 - p.win - p.loss;
  return p;
}

SprtState Bounds(const SprtParams& params) {
  SprtState s;
  s.lower_bound = std::log(params.beta / (1.0 - params.alpha));
  s.upper_bound = std::log((1.0 - params.beta) / params.alpha);
  return s;
}

SprtState Decide(SprtState s) {
  if (s.llr >= s.upper_bound) {
    s.decision = SprtDecision::kAcceptH1;
  } else if (s.llr <= s.lower_bound) {
    s.decision = SprtDecision::kAcceptH0;
  }
  return s;
}

// Mean and population variance of the pair score (points / 2, so 0..1)
// over `n` pairs with the given counts.
struct Moments {
  double mean = 0, variance = 0, n = 0;
};
Moments PairMoments(const std::array<double, 5>& counts) {
  Moments m;
  for (double c : counts) m.n += c;
  if (m.n == 0) return m;
  for (int k = 0; k < 5; ++k) m.mean += counts[k] / m.n * (k / 4.0);
  for (int k = 0; k < 5; ++k) {
    const double dev = k / 4.0 - m.mean;
    m.variance += counts[k] / m.n * dev * dev;
  }
  return m;
}

Moments PairMoments(const Pentanomial& p) {
  std::array<double, 5> counts;
  for (int k = 0; k < 5; ++k) counts[k] = p.counts[k];
  return PairMoments(counts);
}

// The pair scores, in count order.
constexpr std::array<double, 5> kPairScores = {0, 0.25, 0.5, 0.75, 1};

}  // namespace

int Pentanomial::pairs() const {
  int n = 0;
  for (int c : counts) n += c;
  return n;
}

double EloFromScore(double score) {
  if (score <= 0) return -std::numeric_limits<double>::infinity();
  if (score >= 1) return std::numeric_limits<double>::infinity();
  // Adding 0.0 turns the -0 of an even score into 0.
  return -400.0 * std::log10(1.0 / score - 1.0) + 0.0;
}

double ScoreFromElo(double elo) {
  return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

EloEstimate EloFromTrinomial(const Trinomial& t) {
  const int n = t.games();
  if (n == 0) return EstimateFromMoments(0, 0, 0);
  const double w = double(t.wins) / n, d = double(t.draws) / n,
               l = double(t.losses) / n;
  const double mean = w + d / 2;
  const double variance = w * (1 - mean) * (1 - mean) +
                          d * (0.5 - mean) * (0.5 - mean) + l * mean * mean;
  return EstimateFromMoments(mean, variance, n);
}

EloEstimate EloFromPentanomial(const Pentanomial& p) {
  const Moments m = PairMoments(p);
  return EstimateFromMoments(m.mean, m.variance, p.pairs());
}

double LikelihoodOfSuperiority(const Trinomial& t) {
  const int decisive = t.wins + t.losses;
  if (decisive == 0) return 0.5;
  return 0.5 *
         (1.0 + std::erf((t.wins - t.losses) / std::sqrt(2.0 * decisive)));
}

SprtState TrinomialSprt(const Trinomial& t, const SprtParams& params) {
  SprtState s = Bounds(params);
  if (t.wins == 0 || t.draws == 0 || t.losses == 0) return s;
  const int n = t.games();
  const double pw = double(t.wins) / n, pl = double(t.losses) / n;
  // The draw Elo of the sample, then the scale that turns logistic Elo into
  // BayesElo at that draw rate.
  const double draw_elo = 200.0 * std::log10((1.0 - pl) / pl * (1.0 - pw) / pw);
  const double x = std::pow(10.0, -draw_elo / 400.0);
  const double scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
  const Probabilities p0 = BayesEloProbabilities(params.elo0 / scale, draw_elo);
  const Probabilities p1 = BayesEloProbabilities(params.elo1 / scale, draw_elo);
  s.llr = t.wins * std::log(p1.win / p0.win) +
          t.draws * std::log(p1.draw / p0.draw) +
          t.losses * std::log(p1.loss / p0.loss);
  return Decide(s);
}

std::array<double, 5> PentanomialMle(const std::array<double, 5>& observed,
                                     double s) {
  const auto& a = kPairScores;
  // f(theta) = sum_i p_i (a_i - s) / (1 + theta (a_i - s)) falls from +inf
  // to -inf on (-1 / (a_max - s), -1 / (a_min - s)); its root is theta.
  const auto f = [&](double theta) {
    double sum = 0;
    for (int i = 0; i < 5; ++i) {
      sum += observed[i] * (a[i] - s) / (1 + theta * (a[i] - s));
    }
    return sum;
  };
  double lo = -1 / (a[4] - s), hi = -1 / (a[0] - s);
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (f(mid) > 0 ? lo : hi) = mid;
  }
  const double theta = (lo + hi) / 2;
  std::array<double, 5> p;
  for (int i = 0; i < 5; ++i) p[i] = observed[i] / (1 + theta * (a[i] - s));
  return p;
}

SprtState PentanomialSprt(const Pentanomial& p, const SprtParams& params) {
  SprtState s = Bounds(params);
  if (p.pairs() == 0) return s;
  // fastchess/fishtest regularisation: an empty count becomes 1e-3.
  std::array<double, 5> counts;
  double total = 0;
  for (int k = 0; k < 5; ++k) {
    counts[k] = p.counts[k] == 0 ? 1e-3 : p.counts[k];
    total += counts[k];
  }
  std::array<double, 5> observed;
  for (int k = 0; k < 5; ++k) observed[k] = counts[k] / total;
  const std::array<double, 5> p0 =
      PentanomialMle(observed, ScoreFromElo(params.elo0));
  const std::array<double, 5> p1 =
      PentanomialMle(observed, ScoreFromElo(params.elo1));
  for (int k = 0; k < 5; ++k) {
    s.llr += total * observed[k] * (std::log(p1[k]) - std::log(p0[k]));
  }
  return Decide(s);
}

SprtState RunSprt(const Trinomial& t, const Pentanomial& p,
                  const SprtParams& params) {
  return params.model == SprtModel::kTrinomial ? TrinomialSprt(t, params)
                                               : PentanomialSprt(p, params);
}

std::string SprtModelName(SprtModel model) {
  return model == SprtModel::kTrinomial
             ? "trinomial BayesElo SPRT (cutechess)"
             : "pentanomial GSPRT, logistic Elo (fastchess)";
}

std::string DecisionName(SprtDecision decision) {
  switch (decision) {
    case SprtDecision::kAcceptH0:
      return "H0 accepted";
    case SprtDecision::kAcceptH1:
      return "H1 accepted";
    case SprtDecision::kContinue:
      break;
  }
  return "continue";
}

}  // namespace wallgo::referee
