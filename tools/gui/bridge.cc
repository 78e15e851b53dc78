#include "tools/gui/bridge.h"

#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/json_text.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/regions.h"
#include "tools/client/engine_pool.h"
#include "tools/records/opening.h"

namespace wallgo::gui {
namespace {

using nlohmann::json;

absl::Status Bad(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

// A field of a message, checked for its JSON type.
absl::StatusOr<std::string> StringField(const json& message,
                                        const std::string& key) {
  auto it = message.find(key);
  if (it == message.end() || !it->is_string()) {
    return Bad(absl::StrCat("'", key, "' must be a string"));
  }
  return it->get<std::string>();
}

absl::StatusOr<int64_t> IntField(const json& message, const std::string& key,
                                 int64_t min, int64_t max) {
  auto it = message.find(key);
  if (it == message.end() || !it->is_number_integer()) {
    return Bad(absl::StrCat("'", key, "' must be an integer"));
  }
  const int64_t value = it->get<int64_t>();
  if (value < min || value > max) {
    return Bad(absl::StrCat("'", key, "' must be in ", min, "..", max));
  }
  return value;
}

absl::StatusOr<double> NumberField(const json& message, const std::string& key,
                                   double min, double max) {
  auto it = message.find(key);
  if (it == message.end() || !it->is_number()) {
    return Bad(absl::StrCat("'", key, "' must be a number"));
  }
  const double value = it->get<double>();
  if (!(value >= min && value <= max)) {
    return Bad(absl::StrCat("'", key, "' must be in ", min, "..", max));
  }
  return value;
}

// The moves of a list like "d4 c3 c3c5n", each for the side to move.
absl::StatusOr<GuiGame> GameFromTokens(const Position& start,
                                       absl::string_view text) {
  GuiGame game(start);
  int number = 0;
  for (absl::string_view token : absl::StrSplit(text, absl::ByAnyChar(" \t\n,"),
                                                absl::SkipWhitespace())) {
    ++number;
    absl::StatusOr<Move> move = ParseMove(token);
    absl::Status played = move.ok() ? game.Play(*move) : move.status();
    if (!played.ok()) {
      return Bad(
          absl::StrCat("move ", number, " (", token, "): ", played.message()));
    }
  }
  return game;
}

// The recorded game as the GUI's game: the opening's moves (or its
// position) and then the recorded moves with their times.
absl::StatusOr<GuiGame> GameFromRecord(const records::GameRecord& record) {
  absl::StatusOr<Rules> rules = ParseRules(record.rules);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<records::Opening> opening =
      records::ResolveOpening(*rules, record.opening);
  if (!opening.ok()) return opening.status();
  absl::StatusOr<GuiGame> game =
      record.opening.find('=') != std::string::npos
          ? GuiGame(opening->start)
          : GameFromTokens(*Position::Start(*rules), record.opening);
  if (!game.ok()) return game.status();
  std::vector<PlayedMove> moves = game->moves();
  for (const records::MoveRecord& m : record.moves) {
    absl::StatusOr<Colour> colour = ParseColour(m.colour);
    absl::StatusOr<Move> move = ParseMove(m.move);
    if (!colour.ok()) return colour.status();
    if (!move.ok()) return move.status();
    moves.push_back({*colour, *move, m.ms});
  }
  return GuiGame::FromMoves(game->start(), moves);
}

json RecordSummary(const records::GameRecord& r) {
  json seats = json::object();
  for (const auto& [colour, engine] : r.seats) seats[colour] = engine;
  json scores = json::object();
  for (const auto& [colour, score] : r.scores) scores[colour] = score;
  return {{"game", r.game},     {"seats", seats},         {"winner", r.winner},
          {"reason", r.reason}, {"detail", r.detail},     {"loser", r.loser},
          {"scores", scores},   {"moves", r.moves.size()}};
}

// A join token per colour.
std::vector<std::string> NewTokens() {
  std::vector<std::string> tokens;
  for (int i = 0; i < kMaxPlayers; ++i) tokens.push_back(NewToken());
  return tokens;
}

json SettingsJson(const SeatSettings& s) {
  json out = json::object();
  if (s.level > 0) out["level"] = s.level;
  if (s.movetime >= 0) out["movetime"] = s.movetime;
  if (s.visits >= 0) out["visits"] = s.visits;
  if (s.clock > 0) {
    out["clock"] = s.clock;
    out["increment"] = s.increment;
  }
  return out;
}

}  // namespace

std::string NewToken() {
  std::random_device device;
  std::string token;
  for (int k = 0; k < 4; ++k) {
    absl::StrAppend(&token, absl::Hex(device(), absl::kZeroPad8));
  }
  return token;
}

absl::StatusOr<std::unique_ptr<Bridge>> Bridge::Create(
    std::vector<EngineSpec> engines, BridgeOptions options, Publish publish) {
  if (engines.empty()) return Bad("no engine");
  absl::StatusOr<std::unique_ptr<client::EngineLog>> log =
      client::EngineLog::Open(options.engine_log);
  if (!log.ok()) return log.status();
  return Create(std::move(engines), std::move(options), std::move(publish),
                std::shared_ptr<client::EngineLog>(std::move(*log)));
}

std::unique_ptr<Bridge> Bridge::Create(std::vector<EngineSpec> engines,
                                       BridgeOptions options, Publish publish,
                                       std::shared_ptr<client::EngineLog> log) {
  return std::unique_ptr<Bridge>(
      new Bridge(std::move(engines), std::move(options), std::move(publish),
                 std::move(log)));
}

Bridge::Bridge(std::vector<EngineSpec> engines, BridgeOptions options,
               Publish publish, std::shared_ptr<client::EngineLog> log)
    : specs_(std::move(engines)),
      seat_tokens_(NewTokens()),
      options_(std::move(options)),
      publish_(std::move(publish)),
      log_(std::move(log)),
      game_(*Position::Start(Rules::Default(2))),
      seats_{Seat{}, Seat{0, {}}} {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < specs_.size(); ++i) {
    EngineWorker::Callbacks callbacks;
    callbacks.on_move = [this](uint64_t token, absl::StatusOr<Move> move,
                               int64_t ms) {
      OnMove(token, std::move(move), ms);
    };
    callbacks.on_analysis = [this](uint64_t token,
                                   std::vector<Candidate> candidates) {
      OnAnalysis(token, std::move(candidates));
    };
    callbacks.on_status = [this] { OnStatus(); };
    workers_.push_back(std::make_unique<EngineWorker>(
        specs_[i].name, specs_[i].command, log_.get(), options_.timeouts,
        std::move(callbacks)));
  }
  timer_ = std::thread([this] { RunTimer(); });
}

Bridge::~Bridge() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
    timer_wake_.notify_all();
    review_.stop->request_stop();
  }
  timer_.join();
  for (ReviewThread& review : review_threads_) review.thread.join();
  workers_.clear();
}

absl::Status Bridge::Allowed(const std::string& type, Access access) const {
  if (access.seat == Access::kAll) return absl::OkStatus();
  if (access.seat == Access::kWatch) {
    return absl::PermissionDeniedError(
        "this page only watches: playing needs a seat's join link");
  }
  // A seat plays its own colour's turns and may look around; setting up
  // games, seats and engines is for the server's own user.
  static const std::set<std::string> kSeatMessages = {"move", "resign", "goto",
                                                      "hint", "review"};
  if (!kSeatMessages.count(type)) {
    return absl::PermissionDeniedError(absl::StrCat(
        "'", type.substr(0, 40), "' is for the host of this wallgo-gui"));
  }
  if ((type == "move" || type == "resign") &&
      (!game_.at_end() ||
       Index(game_.shown().position().to_move()) != access.seat)) {
    return absl::PermissionDeniedError(
        absl::StrCat("this page plays ", ColourName(ColourAt(access.seat)),
                     " only, on its own turn"));
  }
  return absl::OkStatus();
}

int Bridge::SeatOfToken(const std::string& token) const {
  for (size_t i = 0; i < seat_tokens_.size(); ++i) {
    if (!token.empty() && token == seat_tokens_[i]) return static_cast<int>(i);
  }
  return Access::kWatch;
}

absl::Status Bridge::Handle(const std::string& text, Access access) {
  const json message = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded() || !message.is_object()) {
    return Bad("a message must be a JSON object");
  }
  absl::StatusOr<std::string> type = StringField(message, "type");
  if (!type.ok()) return type.status();
  std::lock_guard<std::mutex> lock(mutex_);
  if (absl::Status allowed = Allowed(*type, access); !allowed.ok()) {
    return allowed;
  }
  using Handler = absl::Status (Bridge::*)(const json&);
  static const std::map<std::string, Handler> kHandlers = {
      {"new", &Bridge::NewGame},
      {"move", &Bridge::PlayMove},
      {"goto", &Bridge::Goto},
      {"analysis", &Bridge::SetAnalysis},
      {"restart", &Bridge::RestartEngine},
      {"seats", &Bridge::SetSeats},
      {"moves", &Bridge::ImportMoves},
      {"position", &Bridge::ImportPosition},
      {"records", &Bridge::LoadRecords},
      {"record", &Bridge::ShowRecord},
      {"review", &Bridge::StartReview},
      {"hint", &Bridge::AskHint},
  };
  absl::Status done;
  if (*type == "undo") {
    done = Undo();
  } else if (*type == "resign") {
    done = Resign();
  } else if (auto it = kHandlers.find(*type); it != kHandlers.end()) {
    done = (this->*(it->second))(message);
  } else {
    return Bad(
        absl::StrCat("unknown message type '", type->substr(0, 40), "'"));
  }
  if (done.ok()) Changed();
  return done;
}

absl::StatusOr<int> Bridge::EngineIndex(const json& name) const {
  if (!name.is_string()) return Bad("an engine is named by a string");
  for (size_t i = 0; i < specs_.size(); ++i) {
    if (specs_[i].name == name.get<std::string>()) return static_cast<int>(i);
  }
  return Bad(absl::StrCat("no engine named '",
                          name.get<std::string>().substr(0, 40),
                          "' (the engines are those on the command line)"));
}

absl::StatusOr<std::vector<Seat>> Bridge::ParseSeats(const json& seats,
                                                     int players) const {
  if (!seats.is_array() || static_cast<int>(seats.size()) != players) {
    return Bad(absl::StrCat("'seats' must list ", players, " seats"));
  }
  std::vector<Seat> out;
  for (const json& entry : seats) {
    if (!entry.is_object()) return Bad("a seat must be an object");
    absl::StatusOr<std::string> kind = StringField(entry, "kind");
    if (!kind.ok()) return kind.status();
    Seat seat;
    if (*kind == "engine") {
      auto name = entry.find("engine");
      absl::StatusOr<int> index =
          EngineIndex(name == entry.end() ? json() : *name);
      if (!index.ok()) return index.status();
      seat.engine = *index;
      if (entry.contains("level")) {
        absl::StatusOr<int64_t> level = IntField(entry, "level", 1, 10);
        if (!level.ok()) return level.status();
        seat.settings.level = static_cast<int>(*level);
      }
      if (entry.contains("movetime")) {
        absl::StatusOr<double> t = NumberField(entry, "movetime", 0, 3600);
        if (!t.ok()) return t.status();
        seat.settings.movetime = *t;
      }
      if (entry.contains("visits")) {
        absl::StatusOr<int64_t> v = IntField(entry, "visits", 0, 1'000'000'000);
        if (!v.ok()) return v.status();
        seat.settings.visits = *v;
      }
    } else if (*kind != "human") {
      return Bad("a seat's kind is 'human' or 'engine'");
    }
    // Time for people and engines alike: a clock and a turn limit.
    if (entry.contains("clock")) {
      absl::StatusOr<double> t = NumberField(entry, "clock", 1, 86400);
      if (!t.ok()) return t.status();
      seat.settings.clock = *t;
    }
    if (entry.contains("increment")) {
      absl::StatusOr<double> t = NumberField(entry, "increment", 0, 3600);
      if (!t.ok()) return t.status();
      seat.settings.increment = *t;
    }
    if (entry.contains("turn")) {
      absl::StatusOr<double> t = NumberField(entry, "turn", 1, 86400);
      if (!t.ok()) return t.status();
      seat.turn = *t;
    }
    if (entry.contains("timeout")) {
      absl::StatusOr<std::string> rule = StringField(entry, "timeout");
      if (!rule.ok()) return rule.status();
      if (*rule != "random" && *rule != "forfeit") {
        return Bad("a seat's 'timeout' is 'random' or 'forfeit'");
      }
      seat.timeout =
          *rule == "forfeit" ? TimeoutRule::kForfeit : TimeoutRule::kRandom;
    }
    out.push_back(seat);
  }
  return out;
}

void Bridge::Replace(GuiGame game, std::vector<Seat> seats) {
  game_ = std::move(game);
  turn_moves_ = -1;
  ResetReview();
  seats_ = std::move(seats);
  graph_.clear();
  candidates_.clear();
  record_shown_ = -1;
  event_.clear();
  event_key_.clear();
}

absl::Status Bridge::NewGame(const json& message) {
  std::optional<Position> start;
  if (message.contains("position")) {
    absl::StatusOr<std::string> text = StringField(message, "position");
    if (!text.ok()) return text.status();
    absl::StatusOr<Position> pos = ParsePosition(*text);
    if (!pos.ok()) return pos.status();
    start = *pos;
  } else {
    std::string rules_text;
    if (message.contains("rules")) {
      absl::StatusOr<std::string> text = StringField(message, "rules");
      if (!text.ok()) return text.status();
      rules_text = *text;
    }
    absl::StatusOr<Rules> rules = ParseRules(rules_text);
    if (!rules.ok()) return rules.status();
    absl::StatusOr<Position> pos = Position::Start(*rules);
    if (!pos.ok()) return pos.status();
    start = *pos;
  }
  std::vector<Seat> seats(start->num_players());
  if (message.contains("seats")) {
    absl::StatusOr<std::vector<Seat>> parsed =
        ParseSeats(message["seats"], start->num_players());
    if (!parsed.ok()) return parsed.status();
    seats = *parsed;
  }
  Replace(GuiGame(*start), seats);
  return absl::OkStatus();
}

double Bridge::ClockLeft(Colour colour) const {
  const SeatSettings& s = seats_[Index(colour)].settings;
  double left = s.clock;
  for (int i = 0; i < game_.cursor(); ++i) {
    const PlayedMove& m = game_.moves()[i];
    if (m.colour != colour) continue;
    left += s.increment - std::max<int64_t>(m.ms, 0) / 1000.0;
    if (m.random) left = std::max(left, s.increment);
  }
  return left;
}

bool Bridge::Live() const { return game_.at_end() && !game_.shown().is_over(); }

double Bridge::TurnElapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       turn_started_)
      .count();
}

std::optional<std::chrono::steady_clock::time_point> Bridge::Deadline() const {
  if (!Live() || turn_moves_ < 0) return std::nullopt;
  const Colour mover = game_.shown().position().to_move();
  const Seat& seat = seats_[Index(mover)];
  std::optional<double> limit;
  if (seat.turn > 0) limit = seat.turn;
  if (seat.settings.clock > 0) {
    const double left = std::max(ClockLeft(mover), 0.0);
    limit = limit ? std::min(*limit, left) : left;
  }
  if (!limit) return std::nullopt;
  return turn_started_ +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(*limit));
}

void Bridge::RunTimer() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!closing_) {
    const auto now = std::chrono::steady_clock::now();
    std::optional<std::chrono::steady_clock::time_point> wake = Deadline();
    if (wake && now >= *wake) {
      PlayTimeout();
      continue;
    }
    // A hint is the best move of the analysis a second after it was asked
    // (an engine that stops searching sooner reports nothing more).
    if (hint_.pending) {
      const auto due = hint_.asked + std::chrono::seconds(1);
      if (now >= due && !candidates_.empty()) {
        TakeHint();
        continue;
      }
      if (now < due && (!wake || due < *wake)) wake = due;
    }
    if (wake) {
      timer_wake_.wait_until(lock, *wake);
    } else {
      timer_wake_.wait(lock);
    }
  }
}

void Bridge::TakeHint() {
  hint_.pending = false;
  hint_.move = candidates_.front().move;
  Schedule();  // its analysis stops, unless analysis is on
  publish_(common::JsonText(StateLocked()));
}

void Bridge::PlayTimeout() {
  const Colour late = game_.shown().position().to_move();
  const Seat& seat = seats_[Index(late)];
  PlayedMove played;
  played.ms = static_cast<int64_t>(TurnElapsed() * 1000);
  if (seat.timeout == TimeoutRule::kForfeit) {
    played.move = Move::Resign();
    played.timeout = true;
  } else {
    MoveList moves;
    GenerateMoves(game_.shown().position(), moves);
    played.move = moves[std::uniform_int_distribution<size_t>(
        0, moves.size() - 1)(random_)];
    played.random = true;
  }
  const int ply = game_.cursor();
  if (game_.Play(played).ok()) {
    graph_.erase(graph_.upper_bound(ply), graph_.end());
  }
  event_ = absl::StrCat(
      ColourName(late), " ran out of time: ",
      played.timeout ? "the game is lost" : "a random turn was played");
  Changed();
}

bool Bridge::EngineToMove() const {
  const Colour c = game_.shown().position().to_move();
  return seats_[Index(c)].engine >= 0;
}

absl::Status Bridge::PlayMove(const json& message) {
  absl::StatusOr<std::string> token = StringField(message, "move");
  if (!token.ok()) return token.status();
  absl::StatusOr<Move> move = ParseMove(*token);
  if (!move.ok()) return move.status();
  if (move->kind == MoveKind::kResign) return Bad("resign with 'resign'");
  // At the end of the game an engine's seat is the engine's to play;
  // earlier plies may be continued with any move.
  if (game_.at_end() && !game_.shown().is_over() && EngineToMove()) {
    return absl::FailedPreconditionError(
        absl::StrCat("it is ", ColourName(game_.shown().position().to_move()),
                     "'s turn, played by the engine"));
  }
  const int ply = game_.cursor();
  // A person's move at the end of a live game took the turn's time.
  const int64_t ms = Live() && turn_moves_ >= 0
                         ? static_cast<int64_t>(TurnElapsed() * 1000)
                         : -1;
  absl::Status played = game_.Play(*move, ms);
  if (!played.ok()) return played;
  graph_.erase(graph_.upper_bound(ply), graph_.end());
  record_shown_ = -1;
  return absl::OkStatus();
}

absl::Status Bridge::Undo() {
  bool any_human = false;
  for (const Seat& s : seats_) any_human |= s.engine < 0;
  absl::Status undone = game_.Undo();
  if (!undone.ok()) return undone;
  // Back to a position where a person is to move, as players expect.
  while (any_human && !game_.moves().empty() && EngineToMove()) {
    game_.Undo().IgnoreError();
  }
  graph_.erase(graph_.upper_bound(static_cast<int>(game_.moves().size())),
               graph_.end());
  return absl::OkStatus();
}

absl::Status Bridge::Resign() {
  if (game_.shown().is_over())
    return absl::FailedPreconditionError("game over");
  if (game_.at_end() && EngineToMove()) {
    return absl::FailedPreconditionError(
        "the engine's turn: only a person resigns");
  }
  const int ply = game_.cursor();
  absl::Status played = game_.Play(Move::Resign());
  if (played.ok()) graph_.erase(graph_.upper_bound(ply), graph_.end());
  return played;
}

absl::Status Bridge::Goto(const json& message) {
  absl::StatusOr<int64_t> ply =
      IntField(message, "ply", 0, static_cast<int64_t>(game_.moves().size()));
  if (!ply.ok()) return ply.status();
  return game_.Goto(static_cast<int>(*ply));
}

absl::Status Bridge::SetAnalysis(const json& message) {
  auto on = message.find("on");
  if (on == message.end() || !on->is_boolean())
    return Bad("'on' must be true or false");
  int engine = analysis_engine_;
  if (message.contains("engine")) {
    absl::StatusOr<int> index = EngineIndex(message["engine"]);
    if (!index.ok()) return index.status();
    engine = *index;
  }
  analysis_on_ = on->get<bool>();
  analysis_engine_ = engine;
  candidates_.clear();
  return absl::OkStatus();
}

absl::Status Bridge::RestartEngine(const json& message) {
  absl::StatusOr<int> index = EngineIndex(message.value("engine", json()));
  if (!index.ok()) return index.status();
  workers_[*index]->Restart();
  event_.clear();
  event_key_.clear();
  return absl::OkStatus();
}

absl::Status Bridge::SetSeats(const json& message) {
  absl::StatusOr<std::vector<Seat>> seats =
      ParseSeats(message.value("seats", json()), game_.start().num_players());
  if (!seats.ok()) return seats.status();
  seats_ = *seats;
  turn_moves_ = -1;  // the new seats' time starts now
  return absl::OkStatus();
}

absl::Status Bridge::ImportMoves(const json& message) {
  absl::StatusOr<std::string> text = StringField(message, "moves");
  if (!text.ok()) return text.status();
  absl::StatusOr<Position> start = Position::Start(game_.start().rules());
  absl::StatusOr<GuiGame> game = GameFromTokens(*start, *text);
  if (!game.ok()) return game.status();
  Replace(*game, std::vector<Seat>(start->num_players()));
  return absl::OkStatus();
}

absl::Status Bridge::ImportPosition(const json& message) {
  absl::StatusOr<std::string> text = StringField(message, "position");
  if (!text.ok()) return text.status();
  absl::StatusOr<Position> pos = ParsePosition(*text);
  if (!pos.ok()) return pos.status();
  Replace(GuiGame(*pos), std::vector<Seat>(pos->num_players()));
  return absl::OkStatus();
}

absl::Status Bridge::LoadRecords(const json& message) {
  absl::StatusOr<std::string> text = StringField(message, "text");
  if (!text.ok()) return text.status();
  std::vector<records::GameRecord> records;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    ++line_number;
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    absl::StatusOr<records::GameRecord> record =
        records::RecordFromJson(std::string(line));
    if (!record.ok()) {
      return Bad(absl::StrCat("records line ", line_number, ": ",
                              record.status().message()));
    }
    absl::StatusOr<GuiGame> game = GameFromRecord(*record);
    if (!game.ok()) {
      return Bad(absl::StrCat("records line ", line_number, " (game ",
                              record->game, "): ", game.status().message()));
    }
    records.push_back(std::move(*record));
  }
  if (records.empty()) return Bad("no game records in the file");
  Replace(*GameFromRecord(records[0]),
          std::vector<Seat>(ParseRules(records[0].rules)->players));
  records_ = std::move(records);
  record_shown_ = 0;
  ReviewFromRecord(records_[0]);
  game_.Goto(0).IgnoreError();
  return absl::OkStatus();
}

absl::Status Bridge::ShowRecord(const json& message) {
  if (records_.empty())
    return absl::FailedPreconditionError("no records loaded");
  absl::StatusOr<int64_t> index =
      IntField(message, "index", 0, static_cast<int64_t>(records_.size()) - 1);
  if (!index.ok()) return index.status();
  GuiGame game = *GameFromRecord(records_[*index]);  // checked when loaded
  const int players = game.start().num_players();
  Replace(std::move(game), std::vector<Seat>(players));
  record_shown_ = static_cast<int>(*index);
  ReviewFromRecord(records_[*index]);
  game_.Goto(0).IgnoreError();
  return absl::OkStatus();
}

void Bridge::Changed() {
  ++version_;
  // A new turn at the end of the game: its time starts now.
  const int moves = static_cast<int>(game_.moves().size());
  if (moves != turn_moves_ && game_.at_end()) {
    turn_moves_ = moves;
    turn_started_ = std::chrono::steady_clock::now();
  }
  timer_wake_.notify_all();
  if (hint_.ply != game_.cursor()) hint_ = Hint{};  // another position
  candidates_.clear();
  Schedule();
  publish_(common::JsonText(StateLocked()));
}

void Bridge::Schedule() {
  std::vector<std::optional<EngineJob>> moves(workers_.size()),
      analyses(workers_.size());
  const bool over = game_.shown().is_over();
  auto job = [&] {
    EngineJob j(game_.start());
    j.token = version_;
    j.moves.assign(game_.moves().begin(),
                   game_.moves().begin() + game_.cursor());
    return j;
  };
  if (game_.at_end() && !over && EngineToMove()) {
    const Seat& seat = seats_[Index(game_.shown().position().to_move())];
    EngineJob j = job();
    j.settings = seat.settings;
    // An engine under a turn limit is asked to answer well within it.
    if (seat.turn > 0 && (j.settings.movetime > 0.8 * seat.turn ||
                          (j.settings.movetime < 0 && seat.turn < 2))) {
      j.settings.movetime = 0.8 * seat.turn;
    }
    j.clock_left = ClockLeft(game_.shown().position().to_move());
    moves[seat.engine] = std::move(j);
  }
  if (analysis_on_ && !over) analyses[analysis_engine_] = job();
  if (hint_.pending && !over) analyses[hint_.engine] = job();
  for (size_t i = 0; i < workers_.size(); ++i) {
    workers_[i]->Want(std::move(moves[i]), std::move(analyses[i]));
  }
}

void Bridge::OnMove(uint64_t token, absl::StatusOr<Move> move, int64_t ms) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closing_ || token != version_) return;  // stale: the game changed
  // A failed engine has said so through OnStatus already.
  if (!move.ok()) return;
  const int ply = game_.cursor();
  if (game_.Play(*move, ms).ok()) {
    graph_.erase(graph_.upper_bound(ply), graph_.end());
  }
  Changed();
}

void Bridge::OnAnalysis(uint64_t token, std::vector<Candidate> candidates) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closing_ || token != version_ || candidates.empty()) return;
  candidates_ = std::move(candidates);
  if (hint_.pending && std::chrono::steady_clock::now() - hint_.asked >=
                           std::chrono::seconds(1)) {
    TakeHint();
  }
  const Candidate& best = candidates_.front();
  graph_[game_.cursor()] = {ColourName(game_.shown().position().to_move()),
                            best.winrate, best.score, best.visits};
  json message = AnalysisLocked();
  message["type"] = "analysis";
  message["version"] = version_;
  publish_(common::JsonText(message));
}

void Bridge::OnStatus() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closing_) return;
  for (const auto& worker : workers_) {
    const EngineStatus status = worker->status();
    if (status.state == EngineState::kFailed) {
      event_key_.clear();
      event_ = absl::StrCat(worker->name(), " ", status.detail,
                            "; the game is kept: restart the engine to go on");
    }
  }
  // A restarted engine picks up the move it owes.
  Schedule();
  publish_(common::JsonText(StateLocked()));
}

json Bridge::AnalysisLocked() const {
  json candidates = json::array();
  for (const Candidate& c : candidates_) {
    candidates.push_back({{"move", c.move},
                          {"visits", c.visits},
                          {"winrate", c.winrate},
                          {"score", c.score},
                          {"pv", c.pv}});
  }
  json graph = json::array();
  for (const auto& [ply, point] : graph_) {
    graph.push_back({{"ply", ply},
                     {"turn", point.turn},
                     {"winrate", point.winrate},
                     {"score", point.score},
                     {"visits", point.visits}});
  }
  return {{"analysis",
           {{"on", analysis_on_},
            {"engine", specs_[analysis_engine_].name},
            {"ply", game_.cursor()},
            {"candidates", candidates}}},
          {"graph", graph}};
}

json Bridge::StateLocked() const {
  json state = AnalysisLocked();
  state["type"] = "state";
  state["version"] = version_;
  json engines = json::array();
  for (const auto& worker : workers_) {
    const EngineStatus status = worker->status();
    engines.push_back({{"name", worker->name()},
                       {"state", StateName(status.state)},
                       {"detail", status.detail},
                       {"pid", status.pid}});
  }
  state["engines"] = engines;
  json seats = json::array();
  for (size_t i = 0; i < seats_.size(); ++i) {
    const Seat& s = seats_[i];
    json seat = {{"colour", ColourName(ColourAt(static_cast<int>(i)))},
                 {"kind", s.engine >= 0 ? "engine" : "human"}};
    const Colour colour = ColourAt(static_cast<int>(i));
    const bool moving = Live() && turn_moves_ >= 0 &&
                        colour == game_.shown().position().to_move();
    if (s.engine >= 0) {
      seat["engine"] = specs_[s.engine].name;
      seat.update(SettingsJson(s.settings));
    } else if (s.settings.clock > 0) {
      seat["clock"] = s.settings.clock;
      seat["increment"] = s.settings.increment;
    }
    // Time left as the message leaves; the page counts down from there.
    if (s.settings.clock > 0) {
      seat["clockLeft"] = ClockLeft(colour) - (moving ? TurnElapsed() : 0);
    }
    if (s.turn > 0) {
      seat["turn"] = s.turn;
      seat["timeout"] =
          s.timeout == TimeoutRule::kForfeit ? "forfeit" : "random";
      seat["turnLeft"] = s.turn - (moving ? TurnElapsed() : 0);
    }
    seat["running"] = moving;
    seats.push_back(seat);
  }
  state["seats"] = seats;
  state["rules"] = RulesString(game_.start().rules());
  state["start"] = PositionString(game_.start());
  state["moves"] = MovesJson(game_.moves());
  state["cursor"] = game_.cursor();
  state["board"] = BoardJson(game_);
  state["event"] = event_;
  state["eventCode"] =
      event_key_.empty() ? json()
                         : json{{"key", event_key_}, {"colour", event_colour_}};
  state["review"] = ReviewJson();
  state["hint"] = {
      {"pending", hint_.pending}, {"ply", hint_.ply}, {"move", hint_.move}};
  const std::string record_line = RecordLineLocked();
  state["recordLine"] = record_line.empty() ? json() : json(record_line);
  state["records"] = nullptr;
  if (!records_.empty()) {
    json games = json::array();
    for (const records::GameRecord& r : records_)
      games.push_back(RecordSummary(r));
    state["records"] = {{"games", games}, {"shown", record_shown_}};
  }
  return state;
}

std::string Bridge::RecordLineLocked() const {
  if (!game_.Whole().is_over()) return "";
  return records::RecordToJson(GameRecordLocked());
}

records::GameRecord Bridge::GameRecordLocked() const {
  const Game whole = game_.Whole();
  const Position& start = game_.start();
  records::GameRecord r;
  r.game = 1;
  for (size_t i = 0; i < seats_.size(); ++i) {
    r.seats.emplace_back(
        ColourName(ColourAt(static_cast<int>(i))),
        seats_[i].engine >= 0 ? specs_[seats_[i].engine].name : "human");
  }
  r.rules = RulesString(start.rules());
  // A game from the rules' own start needs no opening; any other start is
  // written as its position, as the referee writes a position opening.
  absl::StatusOr<Position> standard = Position::Start(start.rules());
  if (!standard.ok() || PositionString(*standard) != PositionString(start)) {
    r.opening = PositionString(start);
  }
  for (const PlayedMove& m : game_.moves()) {
    r.moves.push_back({ColourName(m.colour), MoveName(m.move),
                       std::max<int64_t>(m.ms, 0), m.random, std::nullopt});
  }
  const Result result = whole.result();
  const ScoreSheet sheet = ComputeScores(whole.position());
  for (int p = 0; p < start.num_players(); ++p) {
    const std::string name = ColourName(ColourAt(p));
    r.scores.emplace_back(name, sheet.score[p]);
    if (result.winners >> p & 1) r.winners.push_back(name);
  }
  r.winner = r.winners.size() == 1 ? r.winners[0] : std::string("draw");
  r.reason = "finished";
  if (whole.resigned()) {
    r.loser = ColourName(*whole.resigned());
    r.reason = game_.moves().back().timeout ? "timeout" : "resign";
  } else if (!whole.is_over()) {
    r.reason = "unfinished";
  }
  r.final_position = PositionString(whole.position());
  return r;
}

absl::Status Bridge::StartReview(const json& message) {
  int engine = analysis_engine_;
  if (message.contains("engine")) {
    absl::StatusOr<int> index = EngineIndex(message["engine"]);
    if (!index.ok()) return index.status();
    engine = *index;
  }
  records::AnnotateOptions options;
  options.engine = specs_[engine];
  options.command_timeout_s = options_.timeouts.command_s;
  if (message.contains("visits")) {
    absl::StatusOr<int64_t> visits = IntField(message, "visits", 1, 10'000'000);
    if (!visits.ok()) return visits.status();
    options.visits = *visits;
  } else {
    options.movetime_s = 0.5;
    if (message.contains("movetime")) {
      absl::StatusOr<double> t = NumberField(message, "movetime", 0.01, 60);
      if (!t.ok()) return t.status();
      options.movetime_s = *t;
    }
  }
  if (game_.moves().empty()) {
    return absl::FailedPreconditionError("no moves to review");
  }
  records::GameRecord record = GameRecordLocked();
  ResetReview();
  review_.state = "running";
  review_.engine = specs_[engine].name;
  review_.total = static_cast<int>(game_.moves().size()) + 1;
  for (const PlayedMove& m : game_.moves()) {
    review_.moves.push_back(MoveName(m.move));
  }
  // Threads of earlier reviews that have ended are joined now.
  std::erase_if(review_threads_, [](ReviewThread& r) {
    if (!r.ended->load()) return false;
    r.thread.join();
    return true;
  });
  auto ended = std::make_shared<std::atomic<bool>>(false);
  std::thread thread([this, id = review_.id, record = std::move(record),
                      options, stop = review_.stop->get_token(), ended] {
    RunReview(id, record, options, stop);
    ended->store(true);
  });
  review_threads_.push_back({ended, std::move(thread)});
  return absl::OkStatus();
}

absl::Status Bridge::AskHint(const json& message) {
  int engine = analysis_engine_;
  if (message.contains("engine")) {
    absl::StatusOr<int> index = EngineIndex(message["engine"]);
    if (!index.ok()) return index.status();
    engine = *index;
  }
  if (game_.shown().is_over())
    return absl::FailedPreconditionError("game over");
  hint_ =
      Hint{true, engine, game_.cursor(), std::chrono::steady_clock::now(), ""};
  return absl::OkStatus();
}

void Bridge::ResetReview() {
  review_.stop->request_stop();
  const uint64_t id = review_.id;
  review_ = Review{};
  review_.id = id + 1;  // the old thread sees it is not wanted
}

void Bridge::RunReview(uint64_t id, records::GameRecord record,
                       records::AnnotateOptions options, std::stop_token stop) {
  const std::vector<EngineSpec> engines = {options.engine};
  client::EnginePool pool(engines, log_.get(), stop);
  const auto progress = [&](int done, int total) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closing_ || id != review_.id) return false;
    review_.done = done;
    review_.total = total;
    publish_(common::JsonText(StateLocked()));
    return true;
  };
  absl::StatusOr<records::GameRecord> annotated =
      records::AnnotateGame(std::move(record), options, pool, progress);
  std::lock_guard<std::mutex> lock(mutex_);
  if (closing_ || id != review_.id) return;
  if (annotated.ok()) {
    review_.state = "done";
    review_.record = std::move(*annotated);
  } else {
    review_.state = "failed";
    review_.error = std::string(annotated.status().message());
  }
  publish_(common::JsonText(StateLocked()));
}

void Bridge::ReviewFromRecord(const records::GameRecord& record) {
  ResetReview();
  if (!record.annotation) return;
  review_.state = "done";
  review_.engine = record.annotation->engine;
  for (const PlayedMove& m : game_.moves()) {
    review_.moves.push_back(MoveName(m.move));
  }
  review_.record = record;
}

json Bridge::ReviewJson() const {
  json review = {{"state", review_.state}, {"engine", review_.engine},
                 {"error", review_.error}, {"done", review_.done},
                 {"total", review_.total}, {"moves", review_.moves}};
  json notes = json::array();
  json accuracy = json::object();
  if (review_.record) {
    const records::GameRecord& r = *review_.record;
    // The record's moves are the last of the game's (after an opening).
    const size_t offset = review_.moves.size() - r.moves.size();
    for (size_t i = 0; i < offset; ++i) notes.push_back(nullptr);
    for (const records::MoveRecord& m : r.moves) {
      if (!m.note) {
        notes.push_back(nullptr);
        continue;
      }
      notes.push_back({{"judgement", m.note->judgement},
                       {"best", m.note->best},
                       {"loss", m.note->loss},
                       {"before", m.note->before},
                       {"after", m.note->after}});
    }
    if (r.annotation) {
      for (const auto& [colour, value] : r.annotation->accuracy) {
        accuracy[colour] = value;
      }
      review["turningPoint"] = r.annotation->turning_point == 0
                                   ? json()
                                   : json(r.annotation->turning_point + offset);
    }
  }
  review["notes"] = notes;
  review["accuracy"] = accuracy;
  return review;
}

std::string Bridge::RecordLine() {
  std::lock_guard<std::mutex> lock(mutex_);
  return RecordLineLocked();
}

json Bridge::Summary() {
  std::lock_guard<std::mutex> lock(mutex_);
  const Game whole = game_.Whole();
  json seats = json::array();
  for (size_t i = 0; i < seats_.size(); ++i) {
    json seat = {{"colour", ColourName(ColourAt(static_cast<int>(i)))},
                 {"kind", seats_[i].engine >= 0 ? "engine" : "human"}};
    if (seats_[i].engine >= 0) {
      seat["engine"] = specs_[seats_[i].engine].name;
      seat.update(SettingsJson(seats_[i].settings));
    }
    seats.push_back(seat);
  }
  json winners = json::array();
  if (whole.is_over()) {
    const Result result = whole.result();
    for (int p = 0; p < whole.position().num_players(); ++p) {
      if (result.winners >> p & 1) winners.push_back(ColourName(ColourAt(p)));
    }
  }
  return {{"seats", seats},
          {"moves", game_.moves().size()},
          {"turn", ColourName(whole.position().to_move())},
          {"over", whole.is_over()},
          {"winners", winners},
          {"version", version_}};
}

std::string Bridge::StateJson() {
  std::lock_guard<std::mutex> lock(mutex_);
  return common::JsonText(StateLocked());
}

}  // namespace wallgo::gui
