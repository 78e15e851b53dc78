#include "tools/gui/bridge.h"

#include "absl/strings/str_cat.h"
#include "common/json_text.h"
#include "engine/notation.h"
#include "tools/gui/message_fields.h"
#include "tools/gui/record_game.h"

namespace wallgo::gui {

using nlohmann::json;

namespace {

// A message's "position": a position string (engine/notation.h), checked.
absl::StatusOr<Position> PositionField(const json& message) {
  absl::StatusOr<std::string> text = StringField(message, "position");
  if (!text.ok()) return text.status();
  return ParsePosition(*text);
}

}  // namespace

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
      options_(std::move(options)),
      publish_(std::move(publish)),
      log_(std::move(log)),
      game_(*Position::Start(Rules::Default(2))),
      seating_({Seat{}, Seat{0, {}}}),
      events_({}),
      review_(mutex_, log_.get(), [this] {
        if (!closing_) PublishState();
      }) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<EngineStatus> status;
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
    status.push_back(workers_.back()->status());
  }
  events_ = EngineEvents(std::move(status));
  timer_ = std::thread([this] { RunTimer(); });
}

Bridge::~Bridge() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
    timer_wake_.notify_all();
  }
  review_.Close();
  timer_.join();
  workers_.clear();
}

absl::Status Bridge::Handle(const std::string& text, Access access) {
  const json message = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded() || !message.is_object()) {
    return Bad("a message must be a JSON object");
  }
  absl::StatusOr<std::string> type = StringField(message, "type");
  if (!type.ok()) return type.status();
  std::lock_guard<std::mutex> lock(mutex_);
  if (absl::Status allowed = seating_.Check(*type, access, game_);
      !allowed.ok()) {
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

void Bridge::Replace(GuiGame game, std::vector<Seat> seats) {
  game_ = std::move(game);
  clock_.Stop();
  review_.Reset();
  seating_.Set(std::move(seats));
  analysis_.Clear();
  record_shown_ = -1;
  events_.Clear();
}

absl::Status Bridge::NewGame(const json& message) {
  std::optional<Position> start;
  if (message.contains("position")) {
    absl::StatusOr<Position> pos = PositionField(message);
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
        ParseSeats(message["seats"], start->num_players(), specs_);
    if (!parsed.ok()) return parsed.status();
    seats = *parsed;
  }
  Replace(GuiGame(*start), seats);
  return absl::OkStatus();
}

absl::Status Bridge::PlayMove(const json& message) {
  absl::StatusOr<std::string> token = StringField(message, "move");
  if (!token.ok()) return token.status();
  absl::StatusOr<Move> move = ParseMove(*token);
  if (!move.ok()) return move.status();
  if (move->kind == MoveKind::kResign) return Bad("resign with 'resign'");
  // At the end of the game an engine's seat is the engine's to play;
  // earlier plies may be continued with any move.
  if (game_.at_end() && !game_.shown().is_over() &&
      seating_.EngineToMove(game_)) {
    return absl::FailedPreconditionError(
        absl::StrCat("it is ", ColourName(game_.shown().position().to_move()),
                     "'s turn, played by the engine"));
  }
  const int ply = game_.cursor();
  // A person's move at the end of a live game took the turn's time.
  absl::Status played = game_.Play(*move, clock_.MoveMs(game_));
  if (!played.ok()) return played;
  analysis_.ForgetAfter(ply);
  record_shown_ = -1;
  return absl::OkStatus();
}

absl::Status Bridge::Undo() {
  const bool any_human = seating_.AnyPerson();
  absl::Status undone = game_.Undo();
  if (!undone.ok()) return undone;
  // Back to a position where a person is to move, as players expect.
  while (any_human && !game_.moves().empty() && seating_.EngineToMove(game_)) {
    game_.Undo().IgnoreError();
  }
  analysis_.ForgetAfter(static_cast<int>(game_.moves().size()));
  return absl::OkStatus();
}

absl::Status Bridge::Resign() {
  if (game_.shown().is_over())
    return absl::FailedPreconditionError("game over");
  if (game_.at_end() && seating_.EngineToMove(game_)) {
    return absl::FailedPreconditionError(
        "the engine's turn: only a person resigns");
  }
  const int ply = game_.cursor();
  absl::Status played = game_.Play(Move::Resign());
  if (played.ok()) analysis_.ForgetAfter(ply);
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
  absl::StatusOr<int> chosen = ChosenEngine(message);
  if (!chosen.ok()) return chosen.status();
  const int engine = *chosen;
  analysis_.Set(on->get<bool>(), engine);
  return absl::OkStatus();
}

absl::Status Bridge::RestartEngine(const json& message) {
  absl::StatusOr<int> index =
      EngineIndex(message.value("engine", json()), specs_);
  if (!index.ok()) return index.status();
  workers_[*index]->Restart();
  events_.Clear();
  return absl::OkStatus();
}

absl::Status Bridge::SetSeats(const json& message) {
  absl::StatusOr<std::vector<Seat>> seats = ParseSeats(
      message.value("seats", json()), game_.start().num_players(), specs_);
  if (!seats.ok()) return seats.status();
  // The new seats' time starts now, or "turnElapsed" seconds ago: the
  // static site restores a turn that was running when the page reloaded.
  double elapsed = 0;
  if (message.contains("turnElapsed")) {
    absl::StatusOr<double> s = NumberField(message, "turnElapsed", 0, 86'400);
    if (!s.ok()) return s.status();
    elapsed = *s;
  }
  seating_.Set(*seats);
  clock_.Resume(game_, elapsed);
  return absl::OkStatus();
}

absl::Status Bridge::ImportMoves(const json& message) {
  // From the rules' start, or from "position"; the moves as tokens
  // ("moves") or as a state's list with their times ("played"): the static
  // site restores its saved game so.
  absl::StatusOr<Position> start = message.contains("position")
                                       ? PositionField(message)
                                       : Position::Start(game_.start().rules());
  if (!start.ok()) return start.status();
  absl::StatusOr<GuiGame> game = [&]() -> absl::StatusOr<GuiGame> {
    if (message.contains("played")) {
      return GameFromPlayed(*start, message["played"]);
    }
    absl::StatusOr<std::string> text = StringField(message, "moves");
    if (!text.ok()) return text.status();
    return GameFromTokens(*start, *text);
  }();
  if (!game.ok()) return game.status();
  Replace(*game, std::vector<Seat>(start->num_players()));
  return absl::OkStatus();
}

absl::Status Bridge::ImportPosition(const json& message) {
  absl::StatusOr<Position> pos = PositionField(message);
  if (!pos.ok()) return pos.status();
  Replace(GuiGame(*pos), std::vector<Seat>(pos->num_players()));
  return absl::OkStatus();
}

void Bridge::Changed() {
  ++version_;
  clock_.Changed(game_);  // a new turn at the end: its time starts now
  timer_wake_.notify_all();
  analysis_.KeepHintOnlyAt(game_.cursor());  // or another position's
  analysis_.ClearCandidates();
  Schedule();
  PublishState();
}

BridgeView Bridge::View() const {
  return {version_,  specs_,  game_,          seating_, clock_,
          analysis_, events_, review_.Json(), records_, record_shown_};
}

void Bridge::PublishState() {
  publish_(common::JsonText(gui::StateJson(View())));
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
  const Colour mover = game_.shown().position().to_move();
  if (game_.at_end() && !over && seating_.EngineToMove(game_)) {
    const Seat& seat = seating_.of(mover);
    EngineJob j = job();
    j.settings = seat.settings;
    // An engine under a turn limit is asked to answer well within it.
    if (seat.turn > 0 && (j.settings.movetime > 0.8 * seat.turn ||
                          (j.settings.movetime < 0 && seat.turn < 2))) {
      j.settings.movetime = 0.8 * seat.turn;
    }
    j.clock_left = ClockLeft(game_, seat.settings, mover);
    moves[seat.engine] = std::move(j);
  }
  if (analysis_.on() && !over) analyses[analysis_.engine()] = job();
  if (analysis_.hint_pending() && !over) {
    analyses[analysis_.hint_engine()] = job();
  }
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
  if (game_.Play(*move, ms).ok()) analysis_.ForgetAfter(ply);
  Changed();
}

void Bridge::OnAnalysis(uint64_t token, std::vector<Candidate> candidates) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closing_ || token != version_ || candidates.empty()) return;
  analysis_.Take(std::move(candidates));
  if (analysis_.HintReady(std::chrono::steady_clock::now())) TakeHint();
  analysis_.Graph(game_.cursor(),
                  ColourName(game_.shown().position().to_move()));
  json message =
      analysis_.Json(specs_[analysis_.engine()].name, game_.cursor());
  message["type"] = "analysis";
  message["version"] = version_;
  publish_(common::JsonText(message));
}

void Bridge::OnStatus() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closing_) return;
  for (size_t i = 0; i < workers_.size(); ++i) {
    events_.Update(i, workers_[i]->name(), workers_[i]->status());
  }
  // A restarted engine picks up the move it owes.
  Schedule();
  PublishState();
}

absl::StatusOr<int> Bridge::ChosenEngine(const json& message) const {
  if (!message.contains("engine")) return analysis_.engine();
  return EngineIndex(message["engine"], specs_);
}

absl::Status Bridge::AskHint(const json& message) {
  absl::StatusOr<int> chosen = ChosenEngine(message);
  if (!chosen.ok()) return chosen.status();
  const int engine = *chosen;
  if (game_.shown().is_over())
    return absl::FailedPreconditionError("game over");
  analysis_.AskHint(engine, game_.cursor(), std::chrono::steady_clock::now());
  return absl::OkStatus();
}

std::string Bridge::StateJson() {
  std::lock_guard<std::mutex> lock(mutex_);
  return common::JsonText(gui::StateJson(View()));
}

json Bridge::Summary() {
  std::lock_guard<std::mutex> lock(mutex_);
  return SummaryJson(View());
}

std::string Bridge::RecordLine() {
  std::lock_guard<std::mutex> lock(mutex_);
  return gui::RecordLine(View());
}

}  // namespace wallgo::gui
