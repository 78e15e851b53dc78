#include "tools/referee/referee_game.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/outcome.h"
#include "engine/zobrist.h"

namespace wallgo::referee {
namespace {

// Why a game ended early: the player at fault loses.
struct Forfeit {
  Colour colour;
  std::string reason;
  std::string detail;
};

std::string ReasonFor(Fault fault, bool genmove) {
  switch (fault) {
    case Fault::kCrash:
      return "crash";
    case Fault::kTimeout:
      return genmove ? "timeout" : "hang";
    case Fault::kFraming:
      return "framing error";
    case Fault::kNone:
      break;
  }
  return "command failed";
}

// Seconds as the protocol's time commands take them: "0.25", "10".
std::string Seconds(double seconds) {
  std::string text = absl::StrFormat("%.3f", seconds < 0 ? 0.0 : seconds);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

class Referee {
 public:
  Referee(const MatchOptions& options, const GameSpec& spec,
          const Opening& opening, EnginePool& pool)
      : options_(options),
        spec_(spec),
        opening_(opening),
        pool_(pool),
        game_(opening.start),
        random_(zobrist::SplitMix64(options.seed) ^ uint64_t(spec.game)) {
    clock_s_.fill(options.time.base_s);
  }

  GameRecord Play() {
    StartRecord();
    std::optional<Forfeit> forfeit;
    for (int c = 0; c < players() && !forfeit; ++c) {
      forfeit = Prepare(ColourAt(c));
    }
    while (!forfeit && !IsGameOver(game_.position())) forfeit = Turn();
    Finish(forfeit);
    return std::move(record_);
  }

 private:
  int players() const { return game_.position().num_players(); }
  int EngineOf(Colour c) const { return spec_.seats[Index(c)]; }
  SteadyClock::time_point CommandDeadline() const {
    return SteadyClock::now() + std::chrono::milliseconds(static_cast<int64_t>(
                                    options_.command_timeout_s * 1000));
  }

  void StartRecord() {
    record_.game = spec_.game;
    record_.set = spec_.set;
    for (int c = 0; c < players(); ++c) {
      record_.seats.emplace_back(ColourName(ColourAt(c)),
                                 pool_.spec(EngineOf(ColourAt(c))).name);
    }
    record_.rules = RulesString(options_.rules);
    record_.opening = opening_.text;
  }

  // Sends `command` to the engine playing `colour`. A fault, or a failure
  // answer when `required`, forfeits the game for that player.
  std::optional<Forfeit> Command(Colour colour, const std::string& command,
                                 bool required) {
    std::string error;
    EngineProcess* engine = pool_.Running(EngineOf(colour), error);
    if (engine == nullptr) {
      return Forfeit{colour, "crash", absl::StrCat("cannot start: ", error)};
    }
    const Reply reply = engine->Ask(command, CommandDeadline());
    if (reply.fault != Fault::kNone) {
      pool_.Kill(EngineOf(colour));
      return Forfeit{colour, ReasonFor(reply.fault, false),
                     absl::StrCat(command, ": ", reply.detail)};
    }
    if (!reply.success && required) {
      pool_.Kill(EngineOf(colour));
      return Forfeit{colour, "command failed",
                     absl::StrCat(command, ": ? ", reply.text)};
    }
    return std::nullopt;
  }

  // Brings the engine of `colour` to the current position: newgame, the
  // opening, the clock, and every move played so far.
  std::optional<Forfeit> Prepare(Colour colour) {
    std::vector<std::pair<std::string, bool>> commands;
    commands.emplace_back("newgame " + record_.rules, true);
    for (const std::string& c : opening_.commands)
      commands.emplace_back(c, true);
    const TimeControl& time = options_.time;
    commands.emplace_back(
        time.has_clock()
            ? absl::StrCat("time_settings ", Seconds(time.base_s), " 0 0")
            : absl::StrCat("time_settings 0 ", Seconds(time.movetime_s), " 1"),
        false);
    for (const MoveRecord& m : record_.moves) {
      commands.emplace_back(absl::StrCat("play ", m.colour, " ", m.move), true);
    }
    for (const auto& [command, required] : commands) {
      if (auto forfeit = Command(colour, command, required)) return forfeit;
    }
    return std::nullopt;
  }

  // Tells every engine but the mover's about a move.
  std::optional<Forfeit> Tell(Colour mover, Move move) {
    const std::string command =
        absl::StrCat("play ", ColourName(mover), " ", MoveName(move));
    for (int c = 0; c < players(); ++c) {
      if (ColourAt(c) == mover) continue;
      if (auto forfeit = Command(ColourAt(c), command, true)) return forfeit;
    }
    return std::nullopt;
  }

  void Record(Colour colour, Move move, int64_t ms, bool random) {
    record_.moves.push_back(
        {ColourName(colour), MoveName(move), ms, random, std::nullopt});
  }

  // One move of the side to move, asked of its engine with `genmove`.
  std::optional<Forfeit> Turn() {
    const Colour colour = game_.position().to_move();
    const TimeControl& time = options_.time;
    const double allowed_s =
        time.has_clock() ? clock_s_[Index(colour)] : time.movetime_s;
    const std::string time_left =
        time.has_clock() ? absl::StrCat("time_left ", ColourName(colour), " ",
                                        Seconds(allowed_s), " 0")
                         : absl::StrCat("time_left ", ColourName(colour), " ",
                                        Seconds(allowed_s), " 1");
    if (auto forfeit = Command(colour, time_left, false)) return forfeit;

    std::string error;
    EngineProcess* engine = pool_.Running(EngineOf(colour), error);
    if (engine == nullptr) return Forfeit{colour, "crash", error};
    const auto start = SteadyClock::now();
    const auto limit = std::chrono::milliseconds(
        static_cast<int64_t>((allowed_s + options_.margin_s) * 1000));
    const Reply reply =
        engine->Ask("genmove " + ColourName(colour), start + limit);
    const auto elapsed = SteadyClock::now() - start;
    const int64_t ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
    if (reply.fault == Fault::kTimeout || elapsed > limit) {
      return Timeout(colour, ms);
    }
    if (auto forfeit = CheckAnswer(colour, reply, ms)) return forfeit;
    if (time.has_clock()) {
      clock_s_[Index(colour)] += time.increment_s - ms / 1000.0;
    }
    return std::nullopt;
  }

  // Plays the genmove answer if it is a legal move; the engine loses if not.
  std::optional<Forfeit> CheckAnswer(Colour colour, const Reply& reply,
                                     int64_t ms) {
    const auto lose = [&](std::string reason, std::string detail) {
      pool_.Kill(EngineOf(colour));
      return Forfeit{colour, std::move(reason), std::move(detail)};
    };
    if (reply.fault != Fault::kNone) {
      return lose(ReasonFor(reply.fault, true), "genmove: " + reply.detail);
    }
    if (!reply.success)
      return lose("command failed", "genmove: ? " + reply.text);
    absl::StatusOr<Move> move = ParseMove(reply.text);
    if (!move.ok()) {
      return lose("garbled move", absl::StrCat("genmove answered '",
                                               reply.text.substr(0, 80), "'"));
    }
    if (move->kind == MoveKind::kResign) {
      Record(colour, *move, ms, false);
      return Forfeit{colour, "resign", ""};
    }
    const absl::Status legal = CheckMove(game_.position(), colour, *move);
    if (!legal.ok()) {
      return lose("illegal move",
                  absl::StrCat(MoveName(*move), ": ", legal.message()));
    }
    game_.Play(colour, *move).IgnoreError();  // checked just above
    Record(colour, *move, ms, false);
    return Tell(colour, *move);
  }

  // The engine of `colour` overran its time: it forfeits, or under the
  // random rule gets a random legal turn and is restarted (it may still be
  // thinking) and brought up to date.
  std::optional<Forfeit> Timeout(Colour colour, int64_t ms) {
    pool_.Kill(EngineOf(colour));
    if (options_.timeout_rule == TimeoutRule::kForfeit) {
      return Forfeit{colour, "timeout",
                     absl::StrCat("no move after ", ms, " ms")};
    }
    MoveList moves;
    GenerateMoves(game_.position(), moves);
    const Move move = moves[random_.Below(moves.size())];
    game_.Play(colour, move).IgnoreError();  // generated, so legal
    Record(colour, move, ms, true);
    clock_s_[Index(colour)] = options_.time.increment_s;
    if (auto forfeit = Prepare(colour)) return forfeit;
    return Tell(colour, move);
  }

  void Finish(const std::optional<Forfeit>& forfeit) {
    const Position& pos = game_.position();
    // A forfeiting player never wins: the others are ranked among themselves.
    const Result result = ComputeResult(
        pos, forfeit ? std::optional(forfeit->colour) : std::nullopt);
    if (forfeit) {
      record_.reason = forfeit->reason;
      record_.loser = ColourName(forfeit->colour);
      record_.detail = forfeit->detail;
    } else {
      record_.reason = "finished";
    }
    for (int c = 0; c < players(); ++c) {
      const std::string name = ColourName(ColourAt(c));
      record_.scores.emplace_back(name, result.sheet.score[c]);
      if (result.won(c)) record_.winners.push_back(name);
    }
    record_.winner =
        record_.winners.size() == 1 ? record_.winners[0] : std::string("draw");
    record_.final_position = PositionString(pos);
  }

  const MatchOptions& options_;
  const GameSpec& spec_;
  const Opening& opening_;
  EnginePool& pool_;
  Game game_;
  Random random_;
  std::array<double, kMaxPlayers> clock_s_{};
  GameRecord record_;
};

}  // namespace

GameRecord PlayGame(const MatchOptions& options, const GameSpec& spec,
                    const Opening& opening, EnginePool& pool) {
  return Referee(options, spec, opening, pool).Play();
}

}  // namespace wallgo::referee
