#include "protocol/solve_text.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/notation.h"
#include "nlohmann/json.hpp"

namespace wallgo::protocol {
namespace {

std::string MoveNames(const std::vector<Move>& moves) {
  std::vector<std::string> names;
  for (const Move& m : moves) names.push_back(MoveName(m));
  return absl::StrJoin(names, " ");
}

std::string RegionsLine(const search::RegionSplit& split) {
  return absl::StrCat(
      "regions settled ", split.settled_regions, " contested ",
      split.contested_regions, " cells ", split.contested_cells, " ",
      split.independent ? std::string("independent")
                        : absl::StrCat("dependent: ", split.reason),
      "\n");
}

// "win 12": a value as the answer's lines say it.
std::string ValueWords(const search::PlayerValue& v) {
  return absl::StrCat(search::ResultWord(v.share12), " ", v.margin);
}

nlohmann::ordered_json ValueJson(const search::PlayerValue& v) {
  return {{"result", search::ResultWord(v.share12)}, {"margin", v.margin}};
}

}  // namespace

std::string SolveInfoLine(const search::SolveResult& step) {
  return absl::StrFormat("info depth %d nodes %d time %.3f", step.depth,
                         step.nodes, step.seconds);
}

std::string SolveAnswer(const Position& pos, const search::SolveResult& r) {
  if (!r.proven) {
    std::string range;
    if (r.range) {
      range = absl::StrCat("range ", ValueWords(r.range->least), " ",
                           ValueWords(r.range->most), "\n");
    }
    return absl::StrCat("result unproven depth ", r.depth, " nodes ", r.nodes,
                        "\n", range, RegionsLine(r.regions));
  }
  const search::PlayerValue mover = r.mover_value(pos);
  std::string text = absl::StrCat("result ", search::ResultWord(mover.share12),
                                  " margin ", mover.margin, " proven depth ",
                                  r.depth, " nodes ", r.nodes, "\nvalues");
  for (int p = 0; p < pos.num_players(); ++p) {
    const auto v = search::PlayerValue::FromUtility(r.utility[p]);
    absl::StrAppend(&text, " ", ColourName(ColourAt(p)), " ", ValueWords(v));
  }
  absl::StrAppend(&text, "\n",
                  r.all_optimal_known ? "optimal" : "optimal-known", " ",
                  MoveNames(r.optimal), "\npv ", MoveNames(r.pv), "\n",
                  RegionsLine(r.regions));
  return text;
}

std::string SolveJson(const Position& pos, const search::SolveResult& r) {
  using Json = nlohmann::ordered_json;
  auto names = [](const std::vector<Move>& moves) {
    Json list = Json::array();
    for (const Move& m : moves) list.push_back(MoveName(m));
    return list;
  };
  Json j;
  j["proven"] = r.proven;
  if (r.proven) {
    const search::PlayerValue mover = r.mover_value(pos);
    j["result"] = search::ResultWord(mover.share12);
    j["margin"] = mover.margin;
    Json values = Json::object();
    for (int p = 0; p < pos.num_players(); ++p) {
      const auto v = search::PlayerValue::FromUtility(r.utility[p]);
      values[ColourName(ColourAt(p))] = ValueJson(v);
    }
    j["values"] = std::move(values);
    j["optimal"] = names(r.optimal);
    j["allOptimal"] = r.all_optimal_known;
    j["pv"] = names(r.pv);
  } else if (r.range) {
    j["range"] = {{"least", ValueJson(r.range->least)},
                  {"most", ValueJson(r.range->most)}};
  }
  j["depth"] = r.depth;
  j["nodes"] = r.nodes;
  j["regions"] = {{"settled", r.regions.settled_regions},
                  {"contested", r.regions.contested_regions},
                  {"contestedCells", r.regions.contested_cells},
                  {"independent", r.regions.independent},
                  {"reason", r.regions.reason}};
  return j.dump();
}

}  // namespace wallgo::protocol
