// Pipes over 100,000 random and hostile lines into the real `wallgo` and
// checks that it stays alive, answers every command line exactly once (with
// its id), and that its position always equals that of a model game which
// only follows the commands that must succeed: so no failing command may
// change anything. Seeded, so a failure reproduces.
#include <random>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "gtest/gtest.h"
#include "tests/protocol/run_binary.h"

namespace wallgo::protocol::testing {
namespace {

// What the test expects of one input line.
enum class Expect {
  kNothing,  // cleans to an empty line: no answer
  kAny,      // hostile garbage: one answer, most likely a failure
  kSuccess,
  kFailure,
  kPosition,  // `position`: success with the model's position string
};

struct Line {
  std::string text;
  Expect expect;
  std::string id;        // for kSuccess/kFailure/kPosition lines
  std::string position;  // kPosition: the model's position
};

// An independent reading of docs/protocol.md's clean-up, to know which lines
// get an answer at all.
bool CleansToNothing(const std::string& raw) {
  for (const char ch : raw) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '#') return true;
    const bool dropped = (c < 0x20 && c != '\t') || c == 0x7f;
    if (!dropped && c != ' ' && c != '\t') return false;
  }
  return true;
}

class Generator {
 public:
  explicit Generator(uint32_t seed)
      : random_(seed), game_(Game::New(Rules{}).value()) {}

  std::vector<Line> Generate(int count) {
    while (static_cast<int>(lines_.size()) < count) Step();
    return std::move(lines_);
  }

  // A real game by genmove at visits=1, to the end: the setup order is
  // red, blue, blue, red, then the turns alternate from red.
  void AppendGenMoveGame() {
    Add("set_option visits 1", Expect::kSuccess);
    Add("newgame", Expect::kSuccess);
    for (const char* colour : {"red", "blue", "blue", "red"}) {
      Add(absl::StrCat("genmove ", colour), Expect::kSuccess);
    }
    for (int ply = 0; ply < 100; ++ply) {
      Add(ply % 2 ? "genmove blue" : "genmove red", Expect::kAny);
    }
    Add("score", Expect::kSuccess);
  }

 private:
  int Below(int n) { return static_cast<int>(random_() % n); }
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[Below(static_cast<int>(items.size()))];
  }

  // Noise that the clean-up removes: tabs for spaces, CR, a comment.
  std::string Noisy(std::string text) {
    if (Below(4) == 0) absl::StrReplaceAll({{" ", "\t"}}, &text);
    if (Below(4) == 0) text += "\r";
    if (Below(6) == 0) text += " # a comment";
    return text;
  }

  void Add(const std::string& command, Expect expect) {
    Line line;
    line.expect = expect;
    if (Below(2) == 0) line.id = absl::StrCat(next_id_++);
    line.text = Noisy(line.id.empty() ? command : line.id + " " + command);
    if (expect == Expect::kPosition)
      line.position = PositionString(game_.position());
    lines_.push_back(std::move(line));
  }

  void AskPosition() { Add("position", Expect::kPosition); }

  std::string RandomBytes(int max_size) {
    std::string text(Below(max_size + 1), ' ');
    for (char& c : text) {
      do c = static_cast<char>(Below(256));
      while (c == '\n');
    }
    return text;
  }

  std::string ColourText() {
    return Pick<std::string>(
        {"red", "blue", "green", "yellow", "r", "B", "purple", "", "7"});
  }

  void Step() {
    const int kind = Below(100);
    if (kind < 30) return PlayLegal();
    if (kind < 40) return PlayIllegal();
    if (kind < 50) return Garbage();
    if (kind < 58) return BrokenSetup();
    if (kind < 62) return ValidSetup();
    if (kind < 66) return Undo();
    if (kind < 68) return NewGame();
    if (kind < 80) return Query();
    if (kind < 93) return BadArguments();
    if (Below(20) == 0) return Analyze();  // real search: keep it rare
    return AskPosition();
  }

  void PlayLegal() {
    MoveList moves;
    if (!game_.is_over()) GenerateMoves(game_.position(), moves);
    if (moves.empty()) return NewGame();
    const Move move = moves[Below(moves.size())];
    const Colour mover = game_.position().to_move();
    ASSERT_TRUE(game_.Play(mover, move).ok());
    std::string name = MoveName(move);
    if (Below(3) == 0) absl::AsciiStrToUpper(&name);  // case-insensitive in
    Add(absl::StrCat("play ", ColourName(mover), " ", name), Expect::kSuccess);
    if (Below(2) == 0) AskPosition();
  }

  // A well-formed move that the model says is illegal (or a wrong colour).
  void PlayIllegal() {
    const Colour colour = ColourAt(Below(4));
    const int from = Below(kNumCells), to = Below(kNumCells);
    const Side side = static_cast<Side>(Below(4));
    const std::vector<Move> candidates = {
        Move::Place(to), Move::Turn(from, to, side),
        Move::Break(from, to, side), Move::Pass()};
    const Move move = Pick(candidates);
    if (!game_.is_over() && CheckMove(game_.position(), colour, move).ok()) {
      return;  // legal after all: not this kind of line
    }
    Add(absl::StrCat("play ", ColourName(colour), " ", MoveName(move)),
        Expect::kFailure);
    AskPosition();
  }

  void Garbage() {
    std::string text;
    switch (Below(4)) {
      case 0:
        text = RandomBytes(80);
        break;
      case 1:
        text = absl::StrCat(Below(1000), " ", RandomBytes(20));
        break;
      case 2:
        text = absl::StrCat(
            Pick<std::string>({"pla y", "Play", "genmove-x", "showboard2",
                               "\xff\xfe", "=", "?", "-1 name"}),
            " ", RandomBytes(10));
        break;
      default:
        if (big_lines_++ < 3) {
          text = std::string(1 << 20, "xq9"[big_lines_ % 3]);
        } else {
          text = RandomBytes(300);
        }
    }
    if (text.find('\n') != std::string::npos) return;
    Line line;
    line.text = text;
    line.expect = CleansToNothing(text) ? Expect::kNothing : Expect::kAny;
    lines_.push_back(std::move(line));
    AskPosition();
  }

  void BrokenSetup() {
    std::string text = PositionString(game_.position());
    switch (Below(6)) {
      case 0:
        text += " bogus=1";
        break;
      case 1:
        absl::StrReplaceAll({{"turn=", "turn=purple x="}}, &text);
        break;
      case 2:
        text += " red=a1,a1";  // a key given twice
        break;
      case 3:
        absl::StrReplaceAll({{"players=", "players=7"}}, &text);
        break;
      case 4:
        absl::StrReplaceAll({{"red-walls=", "red-walls=g7n,"}}, &text);
        break;
      default:
        text = "=" + RandomBytes(40);  // a first token with no key
    }
    Add("setup " + text, Expect::kFailure);
    AskPosition();
  }

  // A position from a random game of a random variant.
  void ValidSetup() {
    Rules rules = Rules::Default(2 + Below(3));
    if (Below(2)) rules.stay = StayRule::kMobile;
    if (Below(2)) rules.wall_limit = 1 + Below(25);
    Game other = Game::New(rules).value();
    for (int plies = Below(40); plies > 0 && !other.is_over(); --plies) {
      MoveList moves;
      GenerateMoves(other.position(), moves);
      ASSERT_TRUE(
          other.Play(other.position().to_move(), moves[Below(moves.size())])
              .ok());
    }
    game_ = Game(other.position());
    Add("setup " + PositionString(other.position()), Expect::kSuccess);
    AskPosition();
  }

  void Undo() {
    const bool ok = game_.Undo().ok();
    Add("undo", ok ? Expect::kSuccess : Expect::kFailure);
    AskPosition();
  }

  void NewGame() {
    const std::vector<std::string> keys = {
        "players=3",     "players=4", "stay=mobile",          "setup=empty",
        "wall-limit=12", "",          "players=2 setup=empty"};
    const std::string args = Pick(keys);
    game_ = Game::New(ParseRules(args).value()).value();
    Add(absl::StrCat("newgame ", args), Expect::kSuccess);
    AskPosition();
  }

  void Query() {
    Add(Pick<std::string>(
            {"name", "version", "protocol_version", "list_commands",
             "known_command play", "rules", "legal_moves", "score", "showboard",
             "get_option seed", "list_options", "perft 1", "perft 2",
             "wallgo-divide 1", "time_settings 0 0 0", "time_left red 30 0"}),
        Expect::kSuccess);
  }

  // Mutating commands with arguments that must fail.
  void BadArguments() {
    const Colour mover = game_.position().to_move();
    const std::string not_mover = ColourName(
        ColourAt((Index(mover) + 1) % game_.position().num_players()));
    Add(Pick<std::string>({"play",
                           "play red",
                           "play " + ColourText() + " " + RandomWord(),
                           "play purple d4",
                           "newgame players=" + RandomWord(),
                           "newgame bogus=1",
                           "newgame players=2 breakers=1",
                           "set_option level 0",
                           "set_option threads -3",
                           "set_option visits x",
                           "set_option nothing 1",
                           "set_option hash",
                           "time_settings -1 0 0",
                           "time_left purple 1 0",
                           "time_left red",
                           "undo 1",
                           "clear_board now",
                           "genmove " + not_mover,
                           "genmove_analyze " + not_mover,
                           "genmove purple",
                           "analyze x",
                           "perft 99",
                           "perft",
                           "wallgo-divide 0",
                           "get_option nothing",
                           "known_command"}),
        Expect::kFailure);
    AskPosition();
  }

  // Real analysis, stopped by the next line.
  void Analyze() {
    if (game_.is_over()) return;
    Add("analyze 1", Expect::kSuccess);
    AskPosition();
  }

  // Never a move or a value: it starts with 'z'.
  std::string RandomWord() {
    std::string word(1 + Below(8), 'z');
    for (size_t i = 1; i < word.size(); ++i) {
      word[i] = "abcdefgxyz0123456789!,="[Below(23)];
    }
    return word;
  }

  std::mt19937 random_;
  Game game_;
  std::vector<Line> lines_;
  int next_id_ = 1;
  int big_lines_ = 0;
};

// The answer starts with `marker` ("=12", "?") followed by the end, a
// space or a newline: "=12" does not answer as "=1".
bool AnswersAs(const std::string& answer, const std::string& marker) {
  return answer.rfind(marker, 0) == 0 &&
         (answer.size() == marker.size() || answer[marker.size()] == ' ' ||
          answer[marker.size()] == '\n');
}

TEST(FuzzTest, HostileInputNeitherKillsNorChangesTheEngine) {
  Generator generator(20261121);
  std::vector<Line> lines = generator.Generate(100000);
  // Garbage (kAny) is random bytes after at most a number and a misspelt
  // name, so the chance that it spells a state-changing command is nil.
  std::string input;
  for (const Line& line : lines) absl::StrAppend(&input, line.text, "\n");
  const RunResult run =
      RunWallgo("--threads 1 --visits 1 --seed 3 --hash 16", input);
  ASSERT_EQ(run.exit_code, 0) << run.err.substr(0, 2000);
  std::vector<std::string> answers = absl::StrSplit(run.out, "\n\n");
  ASSERT_EQ(answers.back(), "");
  answers.pop_back();
  size_t next = 0;
  int checked_positions = 0, failures = 0;
  for (const Line& line : lines) {
    if (line.expect == Expect::kNothing) continue;
    ASSERT_LT(next, answers.size())
        << "no answer to: " << line.text.substr(0, 80);
    const std::string& answer = answers[next++];
    ASSERT_FALSE(answer.empty());
    switch (line.expect) {
      case Expect::kSuccess:
        ASSERT_TRUE(AnswersAs(answer, "=" + line.id))
            << line.text.substr(0, 200) << "\n-> " << answer.substr(0, 200);
        break;
      case Expect::kFailure:
        ASSERT_TRUE(AnswersAs(answer, "?" + line.id))
            << line.text.substr(0, 200) << "\n-> " << answer.substr(0, 200);
        ++failures;
        break;
      case Expect::kPosition:
        ASSERT_EQ(answer, absl::StrCat("=", line.id, " ", line.position))
            << "after the lines before it";
        ++checked_positions;
        break;
      default:
        ASSERT_TRUE(answer[0] == '=' || answer[0] == '?')
            << answer.substr(0, 80);
        ASSERT_LT(answer.size(), 400u) << "a message is one short line";
    }
  }
  EXPECT_EQ(next, answers.size()) << "more answers than command lines";
  EXPECT_GT(checked_positions, 30000);
  EXPECT_GT(failures, 15000);
}

TEST(FuzzTest, GenMoveAtOneVisitPlaysAWholeGame) {
  Generator generator(7);
  std::vector<Line> lines;
  generator.AppendGenMoveGame();
  lines = generator.Generate(0);
  std::string input;
  for (const Line& line : lines) absl::StrAppend(&input, line.text, "\n");
  const RunResult run = RunWallgo("--threads 1 --seed 3 --hash 16", input);
  ASSERT_EQ(run.exit_code, 0);
  std::vector<std::string> answers = absl::StrSplit(run.out, "\n\n");
  answers.pop_back();
  ASSERT_EQ(answers.size(), lines.size());
  int moves = 0;
  for (size_t i = 2; i + 1 < answers.size(); ++i) {
    const std::string& answer = answers[i];
    if (AnswersAs(answer, "=" + lines[i].id)) {
      ++moves;
    } else {
      EXPECT_EQ(answer, "?" + lines[i].id + " game over");
    }
  }
  EXPECT_GT(moves, 10);
  EXPECT_NE(answers.back().find("status=final"), std::string::npos)
      << answers.back();
}

}  // namespace
}  // namespace wallgo::protocol::testing
