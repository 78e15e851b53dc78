#include "tools/train/fixture.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "search/net/net_evaluator.h"
#include "tools/train_data/training_data.h"

namespace wallgo::train {

// The trainer speaks of the search's networks and the data's records.
using namespace search;
using namespace search::net;
using namespace train_data;
namespace {

// Compares `got` with the JSON array `want`; records the largest error.
absl::Status Compare(const std::string& what, const float* got, size_t n,
                     const nlohmann::json& want, double tolerance,
                     FixtureReport& report) {
  if (!want.is_array() || want.size() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": expected ", n, " values in the fixture"));
  }
  for (size_t i = 0; i < n; ++i) {
    const double error =
        std::abs(static_cast<double>(got[i]) - want[i].get<double>());
    report.max_error = std::max(report.max_error, error);
    if (!(error <= tolerance)) {
      return absl::OutOfRangeError(absl::StrCat(what, "[", i, "]: engine ",
                                                got[i], ", trainer ",
                                                want[i].get<double>()));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<FixtureReport> CheckSamples(const Network& net,
                                           const nlohmann::json& fixture,
                                           double tolerance) {
  FixtureReport report;
  for (const nlohmann::json& sample : fixture.at("samples")) {
    const std::string name = absl::StrCat("sample ", report.samples);
    const std::string hex = sample.at("record_hex").get<std::string>();
    if (hex.size() != 2 * sizeof(DataRecord) ||
        hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
      return absl::InvalidArgumentError(name + ": bad record_hex");
    }
    const std::string bytes = absl::HexStringToBytes(hex);
    DataRecord record;
    std::memcpy(&record, bytes.data(), sizeof record);
    absl::StatusOr<Position> pos = RecordPosition(record);
    if (!pos.ok()) return pos.status();

    Features features;
    ExtractFeatures(*pos, features);
    std::vector<int> mine(features.active.begin(),
                          features.active.begin() + features.count);
    std::vector<int> theirs = sample.at("features").get<std::vector<int>>();
    std::sort(mine.begin(), mine.end());
    std::sort(theirs.begin(), theirs.end());
    if (mine != theirs) {
      return absl::InvalidArgumentError(name + ": features differ");
    }
    const Hidden hidden = net.Forward(features);
    const int players = pos->num_players();
    const NetValue value = net.Value(hidden, players);
    absl::Status s = Compare(name + " win", value.win.data(), players,
                             sample.at("win"), tolerance, report);
    std::array<float, kMaxPlayers> score_units{};
    for (int p = 0; p < players; ++p)
      score_units[p] = value.score[p] / kScoreScale;
    if (s.ok()) {
      s = Compare(name + " score/49", score_units.data(), players,
                  sample.at("score_units"), tolerance, report);
    }
    std::vector<Move> moves;
    for (int i = 0; i < record.num_moves; ++i) {
      absl::StatusOr<Move> m = UnpackMove(record.moves[i]);
      if (!m.ok()) return m.status();
      moves.push_back(*m);
    }
    std::vector<float> priors(moves.size());
    std::array<float, kPolicySize + 1> logits;
    net.PolicyLogits(hidden, logits);
    PriorsFromLogits(logits, moves, priors);
    if (s.ok()) {
      s = Compare(name + " priors", priors.data(), priors.size(),
                  sample.at("priors"), tolerance, report);
    }
    const std::array<float, kOwnershipOutputs> owner =
        net.Ownership(hidden, players);
    if (s.ok()) {
      s = Compare(name + " ownership", owner.data(), owner.size(),
                  sample.at("ownership"), tolerance, report);
    }
    if (!s.ok()) return s;
    ++report.samples;
  }
  return report;
}

}  // namespace

absl::StatusOr<FixtureReport> CheckFixture(const Network& net,
                                           const std::string& fixture_path,
                                           double tolerance) {
  std::ifstream in(fixture_path);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("cannot open ", fixture_path));
  }
  nlohmann::json fixture = nlohmann::json::parse(in, nullptr, false);
  if (fixture.is_discarded()) {
    return absl::InvalidArgumentError(
        absl::StrCat(fixture_path, ": not valid JSON"));
  }
  try {
    absl::StatusOr<FixtureReport> report =
        CheckSamples(net, fixture, tolerance);
    if (!report.ok()) {
      return absl::Status(
          report.status().code(),
          absl::StrCat(fixture_path, ": ", report.status().message()));
    }
    return report;
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(fixture_path, ": malformed fixture: ", e.what()));
  }
}

}  // namespace wallgo::train
