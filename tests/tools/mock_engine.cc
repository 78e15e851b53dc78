// A small engine for the referee's tests: it speaks the text protocol,
// plays a legal move chosen by a hash of (seed, position) so that games are
// reproducible, and misbehaves on purpose when told to: crash, hang, answer
// garbage or an illegal move, print extra lines, answer the wrong id, be
// slow, resign, hang on or refuse a `play`, die at start, or flood its standard
// error. Counters ("the N-th genmove") run over the life of the process.
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "boost/program_options.hpp"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/zobrist.h"

namespace po = boost::program_options;
using wallgo::Colour;
using wallgo::Game;
using wallgo::Move;

namespace {

struct Faults {
  uint64_t seed = 0;
  int crash_at = 0, hang_at = 0, garbage_at = 0, illegal_at = 0;
  int extra_line_at = 0, wrong_id_at = 0, slow_at = 0, resign_at = 0;
  int hang_on_play = 0, refuse_play = 0;
  int slow_ms = 0, delay_ms = 0;
  bool die_at_start = false, stderr_lines = false;
  int stderr_flood_kb = 0;
};

// A move the referee must refuse: the first candidate CheckMove rejects.
Move IllegalMove(const Game& game) {
  const wallgo::Position& pos = game.position();
  for (int cell = 0; cell < wallgo::kNumCells; ++cell) {
    for (Move m :
         {Move::Place(cell), Move::Turn(cell, cell, wallgo::Side::kNorth)}) {
      if (!wallgo::CheckMove(pos, pos.to_move(), m).ok()) return m;
    }
  }
  return Move::Pass();
}

Move ChosenMove(const Game& game, uint64_t seed) {
  wallgo::MoveList moves;
  wallgo::GenerateMoves(game.position(), moves);
  const uint64_t h = wallgo::zobrist::SplitMix64(seed ^ game.position().hash());
  return moves[h % moves.size()];
}

class MockEngine {
 public:
  explicit MockEngine(const Faults& faults) : faults_(faults) {}

  void Run() {
    std::string line;
    while (std::getline(std::cin, line)) {
      if (faults_.stderr_lines) std::cerr << "mock got: " << line << std::endl;
      std::vector<std::string> words =
          absl::StrSplit(line, ' ', absl::SkipWhitespace());
      if (words.empty()) continue;
      std::string id;
      if (absl::ascii_isdigit(words[0][0])) {
        id = words[0];
        words.erase(words.begin());
      }
      if (words.empty()) continue;
      const std::string name = words[0];
      words.erase(words.begin());
      Handle(id, name, words);
      if (name == "quit") return;
    }
  }

 private:
  void Answer(const std::string& id, bool ok, const std::string& text) {
    std::cout << (ok ? "=" : "?") << id << (text.empty() ? "" : " ") << text
              << "\n\n"
              << std::flush;
  }

  void Handle(const std::string& id, const std::string& name,
              const std::vector<std::string>& args) {
    if (name == "newgame") {
      auto rules = wallgo::ParseRules(absl::StrJoin(args, " "));
      if (!rules.ok()) return Answer(id, false, "syntax error");
      game_.emplace(*Game::New(*rules));
      return Answer(id, true, "");
    }
    if (name == "setup") {
      auto pos = wallgo::ParsePosition(absl::StrJoin(args, " "));
      if (!pos.ok()) return Answer(id, false, "invalid position");
      game_.emplace(*pos);
      return Answer(id, true, "");
    }
    if (name == "play") return Play(id, args);
    if (name == "genmove") return Genmove(id);
    if (name == "analyze") return Analyze(id, args);
    if (name == "set_option") return Answer(id, true, "");
    if (name == "name") return Answer(id, true, "mock");
    if (name == "protocol_version") return Answer(id, true, "2");
    if (name == "time_settings" || name == "time_left" || name == "quit") {
      return Answer(id, true, "");
    }
    Answer(id, false, "unknown command");
  }

  void Play(const std::string& id, const std::vector<std::string>& args) {
    if (++plays_ == faults_.hang_on_play) HangForever();
    if (plays_ == faults_.refuse_play) return Answer(id, false, "illegal move");
    if (!game_ || args.size() != 2) return Answer(id, false, "syntax error");
    auto colour = wallgo::ParseColour(args[0]);
    auto move = wallgo::ParseMove(args[1]);
    if (!colour.ok() || !move.ok()) return Answer(id, false, "syntax error");
    const absl::Status played = game_->Play(*colour, *move);
    Answer(id, played.ok(), played.ok() ? "" : "illegal move");
  }

  void Genmove(const std::string& id) {
    const int n = ++genmoves_;
    if (n == faults_.crash_at) std::abort();
    if (n == faults_.hang_at) HangForever();
    if (faults_.delay_ms > 0) Sleep(faults_.delay_ms);
    if (n == faults_.slow_at) Sleep(faults_.slow_ms);
    // Not even UTF-8: the referee's records and the GUI's JSON must cope.
    if (n == faults_.garbage_at) return Answer(id, true, "@@ garbage \xff ##");
    if (n == faults_.resign_at) return Answer(id, true, "resign");
    if (!game_ || game_->is_over()) return Answer(id, false, "game over");
    if (n == faults_.extra_line_at) std::cout << "info thinking hard\n";
    const std::string answer_id =
        n == faults_.wrong_id_at ? absl::StrCat(std::atoi(id.c_str()) + 1000)
                                 : id;
    const Move move = n == faults_.illegal_at
                          ? IllegalMove(*game_)
                          : ChosenMove(*game_, faults_.seed);
    if (n != faults_.illegal_at) {
      game_->Play(game_->position().to_move(), move).IgnoreError();
    }
    Answer(answer_id, true, wallgo::MoveName(move));
  }

  // Streams `info` lines for the first three legal moves every INTERVAL
  // centiseconds until an input line is waiting, as docs/protocol.md's analyze.
  void Analyze(const std::string& id, const std::vector<std::string>& args) {
    const int interval_cs = args.empty() ? 100 : std::atoi(args[0].c_str());
    if (!game_ || interval_cs <= 0) return Answer(id, false, "syntax error");
    std::cout << "=" << id << "\n" << std::flush;
    wallgo::MoveList moves;
    if (!game_->is_over()) wallgo::GenerateMoves(game_->position(), moves);
    for (int round = 1;; ++round) {
      for (int i = 0; i < static_cast<int>(moves.size()) && i < 3; ++i) {
        const std::string name = wallgo::MoveName(moves[i]);
        std::cout << "info move " << name << " visits " << round * (30 - i)
                  << " winrate 0." << (6 - i) << " score " << (3 - i) << " pv "
                  << name << "\n";
      }
      std::cout << std::flush;
      pollfd input{STDIN_FILENO, POLLIN, 0};
      if (poll(&input, 1, interval_cs * 10) != 0) break;
    }
    std::cout << "\n" << std::flush;
  }

  static void Sleep(int ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  }
  [[noreturn]] static void HangForever() {
    for (;;) Sleep(1000);
  }

  Faults faults_;
  std::optional<Game> game_;
  int genmoves_ = 0;
  int plays_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  Faults f;
  po::options_description d("mock engine");
  // clang-format off
  d.add_options()
      ("seed", po::value(&f.seed))
      ("crash-at", po::value(&f.crash_at))
      ("hang-at", po::value(&f.hang_at))
      ("garbage-at", po::value(&f.garbage_at))
      ("illegal-at", po::value(&f.illegal_at))
      ("extra-line-at", po::value(&f.extra_line_at))
      ("wrong-id-at", po::value(&f.wrong_id_at))
      ("slow-at", po::value(&f.slow_at))
      ("slow-ms", po::value(&f.slow_ms))
      ("resign-at", po::value(&f.resign_at))
      ("hang-on-play", po::value(&f.hang_on_play))
      ("refuse-play", po::value(&f.refuse_play))
      ("delay-ms", po::value(&f.delay_ms))
      ("die-at-start", po::bool_switch(&f.die_at_start))
      ("stderr-lines", po::bool_switch(&f.stderr_lines))
      ("stderr-flood-kb", po::value(&f.stderr_flood_kb));
  // clang-format on
  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, d), vm);
  po::notify(vm);
  if (f.die_at_start) return 3;
  // Much more than a pipe holds: the engine blocks here unless the referee
  // drains its standard error.
  const std::string filler(1023, 'x');
  for (int kb = 0; kb < f.stderr_flood_kb; ++kb) std::cerr << filler << '\n';
  std::cerr << std::flush;
  MockEngine(f).Run();
  return 0;
}
