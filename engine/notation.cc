#include "engine/notation.h"

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace wallgo {
namespace {

constexpr absl::string_view kColourNames[] = {"red", "blue", "green", "yellow"};
constexpr char kSideLetters[] = {'n', 'e', 's', 'w'};

absl::Status Bad(absl::string_view what, absl::string_view text) {
  return absl::InvalidArgumentError(
      absl::StrCat("syntax error: bad ", what, " '", text, "'"));
}

}  // namespace

std::string ColourName(Colour c) { return std::string(kColourNames[Index(c)]); }

absl::StatusOr<Colour> ParseColour(absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(text);
  for (int i = 0; i < kMaxPlayers; ++i) {
    if (lower == kColourNames[i] || lower == kColourNames[i].substr(0, 1))
      return ColourAt(i);
  }
  return Bad("colour", text);
}

std::string CellName(int cell) {
  return {static_cast<char>('a' + ColOf(cell)),
          static_cast<char>('1' + RowOf(cell))};
}

absl::StatusOr<int> ParseCell(absl::string_view text) {
  if (text.size() != 2) return Bad("cell", text);
  const char col = absl::ascii_tolower(text[0]), row = text[1];
  if (col < 'a' || col > 'g' || row < '1' || row > '7')
    return Bad("cell", text);
  return CellOf(col - 'a', row - '1');
}

char SideLetter(Side side) { return kSideLetters[static_cast<int>(side)]; }

absl::StatusOr<Side> ParseSide(char letter) {
  const char lower = absl::ascii_tolower(letter);
  for (int i = 0; i < kNumSides; ++i)
    if (kSideLetters[i] == lower) return static_cast<Side>(i);
  return Bad("side", std::string(1, letter));
}

std::string EdgeName(Edge edge) {
  return CellName(edge.cell) + (edge.east ? "e" : "n");
}

absl::StatusOr<Edge> ParseEdge(absl::string_view text) {
  if (text.size() != 3) return Bad("edge", text);
  absl::StatusOr<int> cell = ParseCell(text.substr(0, 2));
  absl::StatusOr<Side> side = ParseSide(text[2]);
  if (!cell.ok() || !side.ok()) return Bad("edge", text);
  const EdgeOrRim edge = EdgeAt(*cell, *side);
  if (!edge.valid)
    return absl::InvalidArgumentError(
        absl::StrCat("syntax error: edge '", text, "' is on the rim"));
  return edge.edge;
}

std::string MoveName(Move move) {
  switch (move.kind) {
    case MoveKind::kPlace:
      return CellName(move.to);
    case MoveKind::kTurn:
      return absl::StrCat(CellName(move.from), CellName(move.to),
                          std::string(1, SideLetter(move.side)));
    case MoveKind::kBreak:
      return absl::StrCat(CellName(move.from), CellName(move.to), "x",
                          std::string(1, SideLetter(move.side)));
    case MoveKind::kPass:
      return "pass";
    case MoveKind::kResign:
      return "resign";
  }
  return "?";
}

absl::StatusOr<Move> ParseMove(absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "pass") return Move::Pass();
  if (lower == "resign") return Move::Resign();
  if (lower.size() == 2) {
    absl::StatusOr<int> cell = ParseCell(lower);
    if (cell.ok()) return Move::Place(*cell);
  }
  const bool is_break = lower.size() == 6 && lower[4] == 'x';
  if (lower.size() == 5 || is_break) {
    absl::StatusOr<int> from = ParseCell(absl::string_view(lower).substr(0, 2));
    absl::StatusOr<int> to = ParseCell(absl::string_view(lower).substr(2, 2));
    absl::StatusOr<Side> side = ParseSide(lower.back());
    if (from.ok() && to.ok() && side.ok())
      return is_break ? Move::Break(*from, *to, *side)
                      : Move::Turn(*from, *to, *side);
  }
  return Bad("move", text);
}

std::string RulesString(const Rules& rules) {
  return absl::StrCat(
      "players=", rules.players,
      " setup=", rules.setup == SetupRule::kFourStone ? "fourstone" : "empty",
      " stay=", rules.stay == StayRule::kAlways ? "always" : "mobile",
      " wall-limit=",
      rules.wall_limit == kUnlimitedWalls ? "unlimited"
                                          : absl::StrCat(rules.wall_limit),
      " breakers=", rules.breakers);
}

namespace {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

absl::StatusOr<KeyValues> SplitKeyValues(absl::string_view text) {
  KeyValues out;
  for (absl::string_view token : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    const size_t eq = token.find('=');
    if (eq == absl::string_view::npos || eq == 0)
      return absl::InvalidArgumentError(
          absl::StrCat("syntax error: expected key=value, got '", token, "'"));
    std::string key = absl::AsciiStrToLower(token.substr(0, eq));
    for (const auto& [seen, unused] : out)
      if (seen == key)
        return absl::InvalidArgumentError(
            absl::StrCat("syntax error: key '", key, "' given twice"));
    out.emplace_back(std::move(key), std::string(token.substr(eq + 1)));
  }
  return out;
}

absl::Status ApplyRuleKey(absl::string_view key, absl::string_view value,
                          Rules& rules) {
  const std::string v = absl::AsciiStrToLower(value);
  auto bad = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("syntax error: bad value '", value, "' for ", key));
  };
  int number = 0;
  if (key == "setup") {
    if (v != "fourstone" && v != "empty") return bad();
    rules.setup = v == "fourstone" ? SetupRule::kFourStone : SetupRule::kEmpty;
  } else if (key == "stay") {
    if (v != "always" && v != "mobile") return bad();
    rules.stay = v == "always" ? StayRule::kAlways : StayRule::kMobile;
  } else if (key == "wall-limit") {
    if (v == "unlimited") {
      rules.wall_limit = kUnlimitedWalls;
    } else if (absl::SimpleAtoi(v, &number) && number >= 0) {
      rules.wall_limit = number;
    } else {
      return bad();
    }
  } else if (key == "breakers") {
    if (!absl::SimpleAtoi(v, &number)) return bad();
    rules.breakers = number;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("syntax error: unknown rule '", key, "'"));
  }
  return absl::OkStatus();
}

bool IsRuleKey(absl::string_view key) {
  return key == "players" || key == "setup" || key == "stay" ||
         key == "wall-limit" || key == "breakers";
}

// Rules from the rule keys among `kv`; other keys are left to the caller.
absl::StatusOr<Rules> RulesFrom(const KeyValues& kv) {
  int players = 2;
  for (const auto& [key, value] : kv) {
    if (key != "players") continue;
    if (!absl::SimpleAtoi(value, &players) || players < 2 || players > 4)
      return absl::InvalidArgumentError(
          absl::StrCat("syntax error: bad value '", value, "' for players"));
  }
  Rules rules = Rules::Default(players);
  for (const auto& [key, value] : kv) {
    if (key == "players" || !IsRuleKey(key)) continue;
    if (absl::Status s = ApplyRuleKey(key, value, rules); !s.ok()) return s;
  }
  if (absl::Status s = ValidateRules(rules); !s.ok()) return s;
  return rules;
}

// Names of the cells of `bits`, in cell order.
std::string CellList(Bitboard bits) {
  std::vector<std::string> names;
  for (; bits; bits = PopLowest(bits))
    names.push_back(CellName(LowestCell(bits)));
  return absl::StrJoin(names, ",");
}

// Canonical edge names in cell order, a cell's north edge before its east.
std::string WallList(const WallMasks& walls) {
  std::vector<std::string> names;
  for (Bitboard b = walls.north | walls.east; b; b = PopLowest(b)) {
    const int cell = LowestCell(b);
    for (const bool east : {false, true})
      if ((east ? walls.east : walls.north) & CellBit(cell))
        names.push_back(EdgeName({static_cast<uint8_t>(cell), east}));
  }
  return absl::StrJoin(names, ",");
}

absl::Status InvalidField(absl::string_view key, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("invalid position: ", key, ": ", why));
}

// Applies one non-rule field of the position string to `parts`.
absl::Status ApplyPositionField(const std::string& key, absl::string_view value,
                                Position::Parts& parts) {
  if (key == "turn") {
    absl::StatusOr<Colour> c = ParseColour(value);
    if (!c.ok()) return InvalidField(key, c.status().message());
    parts.to_move = *c;
    return absl::OkStatus();
  }
  const size_t dash = key.find('-');
  absl::StatusOr<Colour> colour = ParseColour(key.substr(0, dash));
  if (!colour.ok() || key.substr(0, dash).size() == 1)
    return InvalidField(key, "unknown field");
  const absl::string_view field =
      dash == std::string::npos ? "" : absl::string_view(key).substr(dash + 1);
  const int p = Index(*colour);
  if (field == "breakers") {
    if (!absl::SimpleAtoi(value, &parts.breakers_left[p]))
      return InvalidField(key, "not a number");
    return absl::OkStatus();
  }
  if (field != "" && field != "walls")
    return InvalidField(key, "unknown field");
  for (absl::string_view item : absl::StrSplit(value, ',', absl::SkipEmpty())) {
    if (field.empty()) {
      absl::StatusOr<int> cell = ParseCell(item);
      if (!cell.ok()) return InvalidField(key, cell.status().message());
      if (parts.stones[p] & CellBit(*cell))
        return InvalidField(key, "two stones on one cell");
      parts.stones[p] |= CellBit(*cell);
    } else {
      absl::StatusOr<Edge> edge = ParseEdge(item);
      if (!edge.ok()) return InvalidField(key, edge.status().message());
      Bitboard& mask = edge->east ? parts.walls[p].east : parts.walls[p].north;
      if (mask & CellBit(edge->cell))
        return InvalidField(key, "two walls on one edge");
      mask |= CellBit(edge->cell);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Rules> ParseRules(absl::string_view text) {
  absl::StatusOr<KeyValues> kv = SplitKeyValues(text);
  if (!kv.ok()) return kv.status();
  for (const auto& [key, value] : *kv)
    if (!IsRuleKey(key))
      return absl::InvalidArgumentError(
          absl::StrCat("syntax error: unknown rule '", key, "'"));
  return RulesFrom(*kv);
}

std::string PositionString(const Position& pos) {
  std::vector<std::string> fields = {RulesString(pos.rules()),
                                     "turn=" + ColourName(pos.to_move())};
  const int n = pos.num_players();
  for (int p = 0; p < n; ++p)
    fields.push_back(ColourName(ColourAt(p)) + "=" +
                     CellList(pos.stones(ColourAt(p))));
  for (int p = 0; p < n; ++p)
    fields.push_back(ColourName(ColourAt(p)) +
                     "-walls=" + WallList(pos.walls_of(ColourAt(p))));
  if (pos.rules().breakers > 0)
    for (int p = 0; p < n; ++p)
      fields.push_back(absl::StrCat(ColourName(ColourAt(p)), "-breakers=",
                                    pos.breakers_left(ColourAt(p))));
  return absl::StrJoin(fields, " ");
}

absl::StatusOr<Position> ParsePosition(absl::string_view text) {
  absl::StatusOr<KeyValues> kv = SplitKeyValues(text);
  if (!kv.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("invalid position: ", kv.status().message()));
  absl::StatusOr<Rules> rules = RulesFrom(*kv);
  if (!rules.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("invalid position: ", rules.status().message()));
  Position::Parts parts;
  parts.rules = *rules;
  parts.breakers_left.fill(rules->breakers);
  for (const auto& [key, value] : *kv) {
    if (IsRuleKey(key)) continue;
    if (absl::Status s = ApplyPositionField(key, value, parts); !s.ok())
      return s;
  }
  return Position::FromParts(parts);
}

}  // namespace wallgo
