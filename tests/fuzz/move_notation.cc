// Fuzz target: the notation's parsers (moves, cells, edges, colours, rules).
// Whatever parses prints back to text that parses to the same value.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/notation.h"
#include "tests/fuzz/fuzz_check.h"

namespace wallgo {
namespace {

void CheckMove(const std::string& text) {
  absl::StatusOr<Move> move = ParseMove(text);
  if (!move.ok()) {
    FUZZ_CHECK(!move.status().message().empty(), text);
    return;
  }
  const std::string name = MoveName(*move);
  absl::StatusOr<Move> again = ParseMove(name);
  FUZZ_CHECK(again.ok() && *again == *move, text + " -> " + name);
}

void CheckOthers(const std::string& text) {
  if (absl::StatusOr<int> cell = ParseCell(text); cell.ok()) {
    FUZZ_CHECK(*cell >= 0 && *cell < kNumCells, text);
    FUZZ_CHECK(ParseCell(CellName(*cell)).value_or(-1) == *cell, text);
  }
  if (absl::StatusOr<Edge> edge = ParseEdge(text); edge.ok()) {
    FUZZ_CHECK(edge->cell < kNumCells, text);
    absl::StatusOr<Edge> again = ParseEdge(EdgeName(*edge));
    FUZZ_CHECK(again.ok() && *again == *edge, text + " -> " + EdgeName(*edge));
  }
  if (absl::StatusOr<Colour> colour = ParseColour(text); colour.ok()) {
    FUZZ_CHECK(Index(*colour) < kMaxPlayers, text);
    FUZZ_CHECK(ParseColour(ColourName(*colour)).ok(), text);
  }
  if (!text.empty()) {
    if (absl::StatusOr<Side> side = ParseSide(text[0]); side.ok()) {
      FUZZ_CHECK(ParseSide(SideLetter(*side)).value_or(Side::kNorth) == *side,
                 text);
    }
  }
  if (absl::StatusOr<Rules> rules = ParseRules(text); rules.ok()) {
    FUZZ_CHECK(ValidateRules(*rules).ok(), text);
    const std::string printed = RulesString(*rules);
    absl::StatusOr<Rules> again = ParseRules(printed);
    FUZZ_CHECK(again.ok() && *again == *rules, text + " -> " + printed);
  }
}

}  // namespace
}  // namespace wallgo

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  wallgo::CheckMove(text);
  wallgo::CheckOthers(text);
  return 0;
}
