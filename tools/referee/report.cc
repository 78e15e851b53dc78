#include "tools/referee/report.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace wallgo::referee {
namespace {

// Engine names in a stable order: `engine_order`, then any others in order
// of appearance.
std::vector<std::string> OrderedEngines(
    const std::vector<GameRecord>& records,
    const std::vector<std::string>& engine_order) {
  std::vector<std::string> order = engine_order;
  for (const GameRecord& r : records) {
    for (const auto& [colour, engine] : r.seats) {
      if (std::find(order.begin(), order.end(), engine) == order.end()) {
        order.push_back(engine);
      }
    }
  }
  return order;
}

int IndexOf(const std::vector<std::string>& order, const std::string& name) {
  return static_cast<int>(std::find(order.begin(), order.end(), name) -
                          order.begin());
}

// The points `engine` made in a two-player game: 1, 0.5 or 0.
double PointsOf(const GameRecord& r, const std::string& engine) {
  if (r.winner == "draw") return 0.5;
  return r.EngineAt(r.winner) == engine ? 1.0 : 0.0;
}

void Add(Trinomial& t, double points) {
  if (points == 1.0) {
    ++t.wins;
  } else if (points == 0.0) {
    ++t.losses;
  } else {
    ++t.draws;
  }
}

std::string Percent(double fraction) {
  return absl::StrFormat("%.1f %%", 100 * fraction);
}

// "58.5 +/- 82.8 [-21.0, 144.6]"; "n/a" without games, and an infinite
// margin where a bound is infinite (every game won or lost).
std::string EloText(const EloEstimate& e) {
  if (std::isnan(e.elo)) return "n/a";
  const auto number = [](double x) {
    return std::isinf(x) ? std::string(x > 0 ? "+inf" : "-inf")
                         : absl::StrFormat("%.1f", x);
  };
  const bool finite = std::isfinite(e.lower) && std::isfinite(e.upper);
  return absl::StrCat(number(e.elo), " +/- ",
                      finite ? number(e.margin()) : std::string("inf"), " [",
                      number(e.lower), ", ", number(e.upper), "]");
}

std::string HeadToHeadText(const HeadToHead& h) {
  const Trinomial& t = h.games;
  const EloEstimate elo = EloFromTrinomial(t);
  std::string text = absl::StrFormat(
      "Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", h.first, h.second, t.wins,
      t.losses, t.draws, elo.score, t.games());
  absl::StrAppendFormat(&text, "Elo difference: %s, LOS: %s, DrawRatio: %s\n",
                        EloText(elo), Percent(LikelihoodOfSuperiority(t)),
                        Percent(t.games() ? double(t.draws) / t.games() : 0));
  absl::StrAppendFormat(&text, "Ptnml(0-2): [%s], %d pairs, pair Elo: %s\n",
                        absl::StrJoin(h.pairs.counts, ", "), h.pairs.pairs(),
                        EloText(EloFromPentanomial(h.pairs)));
  return text;
}

std::string SprtText(const SprtParams& params, const SprtState& s) {
  return absl::StrFormat(
      "SPRT (%s): elo0 %g, elo1 %g, alpha %g, beta %g: LLR %.2f [%.2f, %.2f], "
      "%s\n",
      SprtModelName(params.model), params.elo0, params.elo1, params.alpha,
      params.beta, s.llr, s.lower_bound, s.upper_bound,
      DecisionName(s.decision));
}

std::string StandingsText(const std::vector<Standing>& standings) {
  std::string text =
      "Rank  Engine               Games  Wins Draws Losses  Points  "
      "Territory\n";
  for (size_t i = 0; i < standings.size(); ++i) {
    const Standing& s = standings[i];
    const Trinomial& t = s.results;
    absl::StrAppendFormat(&text, "%4d  %-20s %6d %5d %5d %6d  %6.1f  %9.1f\n",
                          i + 1, s.engine, t.games(), t.wins, t.draws, t.losses,
                          t.wins + t.draws / 2.0, s.mean_score);
  }
  return text;
}

}  // namespace

std::vector<HeadToHead> HeadToHeadStats(
    const std::vector<GameRecord>& records,
    const std::vector<std::string>& engine_order) {
  const std::vector<std::string> order = OrderedEngines(records, engine_order);
  std::map<std::pair<int, int>, HeadToHead> pairings;
  // Per pairing and set: games recorded and the first engine's points.
  std::map<std::pair<std::pair<int, int>, int>, std::pair<int, double>> sets;
  for (const GameRecord& r : records) {
    if (r.seats.size() != 2) continue;
    int a = IndexOf(order, r.seats[0].second);
    int b = IndexOf(order, r.seats[1].second);
    if (a > b) std::swap(a, b);
    HeadToHead& h = pairings[{a, b}];
    h.first = order[a];
    h.second = order[b];
    const double points = PointsOf(r, h.first);
    Add(h.games, points);
    auto& set = sets[{{a, b}, r.set}];
    ++set.first;
    set.second += points;
  }
  for (const auto& [key, set] : sets) {
    if (set.first == 2) {
      ++pairings[key.first].pairs.counts[static_cast<int>(set.second * 2)];
    }
  }
  std::vector<HeadToHead> result;
  for (auto& [key, h] : pairings) result.push_back(std::move(h));
  return result;
}

std::vector<Standing> Standings(const std::vector<GameRecord>& records,
                                const std::vector<std::string>& engine_order) {
  const std::vector<std::string> order = OrderedEngines(records, engine_order);
  std::vector<Standing> standings(order.size());
  std::vector<long> territory(order.size(), 0);
  for (size_t i = 0; i < order.size(); ++i) standings[i].engine = order[i];
  for (const GameRecord& r : records) {
    for (size_t c = 0; c < r.seats.size(); ++c) {
      const auto& [colour, engine] = r.seats[c];
      const int i = IndexOf(order, engine);
      const bool top = std::find(r.winners.begin(), r.winners.end(), colour) !=
                       r.winners.end();
      Add(standings[i].results, !top ? 0.0 : r.winners.size() == 1 ? 1.0 : 0.5);
      if (c < r.scores.size()) territory[i] += r.scores[c].second;
    }
  }
  for (size_t i = 0; i < order.size(); ++i) {
    const int games = standings[i].results.games();
    standings[i].mean_score = games ? double(territory[i]) / games : 0;
  }
  std::stable_sort(standings.begin(), standings.end(),
                   [](const Standing& x, const Standing& y) {
                     const auto points = [](const Standing& s) {
                       return s.results.wins + s.results.draws / 2.0;
                     };
                     return points(x) > points(y);
                   });
  return standings;
}

std::string GameLine(const GameRecord& r) {
  std::vector<std::string> engines, scores;
  for (const auto& [colour, engine] : r.seats) engines.push_back(engine);
  for (const auto& [colour, score] : r.scores) {
    scores.push_back(absl::StrCat(colour, " ", score));
  }
  std::string result;
  if (r.seats.size() == 2) {
    result = r.winner == "draw"             ? "1/2-1/2"
             : r.winner == r.seats[0].first ? "1-0"
                                            : "0-1";
  } else {
    result = r.winner == "draw"
                 ? absl::StrCat("draw ", absl::StrJoin(r.winners, "+"))
                 : absl::StrCat(r.winner, " wins");
  }
  std::string reason = r.reason;
  if (!r.loser.empty()) absl::StrAppend(&reason, " by ", r.loser);
  if (!r.detail.empty()) absl::StrAppend(&reason, " (", r.detail, ")");
  return absl::StrFormat("Finished game %d (%s): %s {%s: %s}", r.game,
                         absl::StrJoin(engines, " vs "), result, reason,
                         absl::StrJoin(scores, ", "));
}

std::optional<SprtState> SprtOf(const std::vector<GameRecord>& records,
                                const std::vector<std::string>& engine_order,
                                const SprtParams& sprt) {
  const std::vector<HeadToHead> pairings =
      HeadToHeadStats(records, engine_order);
  if (pairings.empty()) return std::nullopt;
  return RunSprt(pairings[0].games, pairings[0].pairs, sprt);
}

std::string Summary(const std::vector<GameRecord>& records,
                    const std::vector<std::string>& engine_order,
                    const std::optional<SprtParams>& sprt) {
  const std::vector<HeadToHead> pairings =
      HeadToHeadStats(records, engine_order);
  std::string text;
  for (const HeadToHead& h : pairings) text += HeadToHeadText(h);
  if (sprt && !pairings.empty()) {
    text +=
        SprtText(*sprt, RunSprt(pairings[0].games, pairings[0].pairs, *sprt));
  }
  const bool multiplayer =
      std::any_of(records.begin(), records.end(),
                  [](const GameRecord& r) { return r.seats.size() > 2; });
  if (multiplayer || pairings.size() > 1) {
    text += StandingsText(Standings(records, engine_order));
  }
  return text;
}

}  // namespace wallgo::referee
