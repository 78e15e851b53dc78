// Match statistics as engine authors read them (cutechess-cli, fastchess):
// Elo difference with a 95% interval from the trinomial (win/draw/loss) or
// the pentanomial (game pair) counts, likelihood of superiority, and the
// sequential probability ratio test. docs/referee.md
// gives the formulas and their sources.
#pragma once

#include <array>
#include <string>

namespace wallgo::referee {

// Game results from one engine's point of view.
struct Trinomial {
  int wins = 0;
  int draws = 0;
  int losses = 0;
  int games() const { return wins + draws + losses; }
};

// Game pairs (same opening, seats swapped) by the points the engine scored
// in the pair: counts[k] holds the pairs worth k/2 points, so counts[0] is
// loss-loss, counts[2] win-loss or draw-draw, counts[4] win-win.
struct Pentanomial {
  std::array<int, 5> counts{};
  int pairs() const;
};

// 400 * log10(s / (1 - s)): the logistic Elo difference for a mean score s.
double EloFromScore(double score);
// The inverse: the expected score at an Elo difference.
double ScoreFromElo(double elo);

// An Elo difference with its 95% interval; infinite where the score is 0 or
// 1, NaN without games.
struct EloEstimate {
  double score = 0;  // mean score per game, 0..1
  double elo = 0;    // EloFromScore(score)
  double lower = 0;  // Elo at score - 1.96 standard errors
  double upper = 0;  // Elo at score + 1.96 standard errors
  double margin() const { return (upper - lower) / 2; }  // cutechess's "+/-"
};
EloEstimate EloFromTrinomial(const Trinomial& t);
EloEstimate EloFromPentanomial(const Pentanomial& p);

// Likelihood of superiority (cutechess): 0.5 * (1 + erf((W - L) /
// sqrt(2 (W + L)))), draws ignored; 0.5 without decisive games.
double LikelihoodOfSuperiority(const Trinomial& t);

enum class SprtModel { kTrinomial, kPentanomial };
enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };

struct SprtParams {
  double elo0 = 0;
  double elo1 = 5;
  double alpha = 0.05;
  double beta = 0.05;
  SprtModel model = SprtModel::kPentanomial;
};

struct SprtState {
  double llr = 0;
  double lower_bound = 0;  // log(beta / (1 - alpha))
  double upper_bound = 0;  // log((1 - beta) / alpha)
  SprtDecision decision = SprtDecision::kContinue;
};

// cutechess-cli's SPRT: the BayesElo trinomial model with the draw Elo
// estimated from the games; LLR stays 0 until there are wins, draws and
// losses.
SprtState TrinomialSprt(const Trinomial& t, const SprtParams& params);
// fastchess's GSPRT on game pairs with logistic Elo bounds (its default
// "logistic" model): LLR = N sum_i p_i ln(P1_i / P0_i), with p the observed
// pair-score frequencies (empty counts taken as 1e-3, N their regularised
// total) and Pj the distribution closest to p (maximum likelihood) whose
// mean is the score at elo_j (PentanomialMle). Michel Van den Bergh,
// "Comments on Normalized Elo", proposition 1.1.
SprtState PentanomialSprt(const Pentanomial& p, const SprtParams& params);
// The maximum-likelihood distribution over the pair scores 0, 1/4, 1/2,
// 3/4, 1 with mean `s`, given observed frequencies: P_i = p_i / (1 + theta
// (a_i - s)), theta the root of sum_i p_i (a_i - s) / (1 + theta (a_i - s)).
std::array<double, 5> PentanomialMle(const std::array<double, 5>& observed,
                                     double s);
SprtState RunSprt(const Trinomial& t, const Pentanomial& p,
                  const SprtParams& params);

std::string SprtModelName(SprtModel model);
std::string DecisionName(SprtDecision decision);

}  // namespace wallgo::referee
