#include "protocol/engine.h"

#include <mutex>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/movegen.h"
#include "engine/notation.h"

namespace wallgo::protocol {
namespace {

// How often the searcher reports back, so that a stop request (new input,
// quit, end of input) is noticed promptly whatever the user's info interval.
constexpr double kPollIntervalS = 0.02;

// The first legal move of `pos`: what genmove plays when the searcher
// answers something illegal. `pos` must not be over.
Move FirstLegalMove(const Position& pos) {
  MoveList moves;
  GenerateMoves(pos, moves);
  return moves.empty() ? Move::Resign() : moves[0];
}

// Wraps the caller's SearchControl into the searcher's callback: polls
// should_stop (and stops the searcher once), and forwards info to the
// caller no more often than the caller's interval.
class InfoRelay {
 public:
  InfoRelay(search::Searcher& searcher, const SearchControl& control)
      : searcher_(searcher), control_(control), last_sent_(absl::Now()) {}

  void OnInfo(const search::SearchInfo& info) {
    std::lock_guard lock(mutex_);
    if (!stop_sent_ && control_.should_stop && control_.should_stop()) {
      stop_sent_ = true;
      searcher_.Stop();
    }
    const absl::Time now = absl::Now();
    if (control_.on_info &&
        now - last_sent_ >= absl::Seconds(control_.info_interval_s)) {
      Send(info, now);
    }
  }

  // The final report after the search returned, unless it was just sent.
  void Finish(const search::SearchInfo& info) {
    std::lock_guard lock(mutex_);
    if (control_.on_info && !(sent_any_ && sent_visits_ == info.total_visits)) {
      Send(info, absl::Now());
    }
  }

 private:
  // Called with mutex_ held.
  void Send(const search::SearchInfo& info, absl::Time now) {
    control_.on_info(info);
    last_sent_ = now;
    sent_any_ = true;
    sent_visits_ = info.total_visits;
  }

  search::Searcher& searcher_;
  const SearchControl& control_;
  // The searcher may report from several threads. std::mutex rather than
  // absl::Mutex: the system Abseil is not built for ThreadSanitizer, which
  // then cannot see its locking.
  std::mutex mutex_;
  bool stop_sent_ = false;  // the rest guarded by mutex_
  absl::Time last_sent_;
  bool sent_any_ = false;
  int64_t sent_visits_ = 0;
};

}  // namespace

Engine::Engine(SearcherFactory factory, const search::SearchOptions& options)
    : factory_(std::move(factory)),
      options_(options),
      game_(Game::New(Rules{}).value()) {}

Engine::~Engine() = default;

search::Searcher& Engine::searcher() {
  if (searcher_ == nullptr) searcher_ = factory_(options_);
  return *searcher_;
}

void Engine::SetOptions(const search::SearchOptions& options) {
  // The level picks which player MakeSearcher builds, so a new level gets a
  // new searcher; other options are changed in place.
  if (options.level != options_.level) searcher_.reset();
  options_ = options;
  if (searcher_ != nullptr) searcher_->SetOptions(options_);
}

absl::Status Engine::NewGame(const Rules& rules) {
  absl::StatusOr<Game> game = Game::New(rules);
  if (!game.ok()) return game.status();
  game_ = *std::move(game);
  time_control_.Reset();
  if (searcher_ != nullptr) searcher_->Clear();
  return absl::OkStatus();
}

void Engine::Setup(const Position& pos) {
  game_ = Game(pos);
  if (searcher_ != nullptr) searcher_->Clear();
}

absl::Status Engine::Play(Colour colour, Move move) {
  if (game_.is_over()) return absl::FailedPreconditionError("game over");
  return game_.Play(colour, move);
}

absl::Status Engine::Undo() { return game_.Undo(); }

absl::Status Engine::CheckGenMove(Colour colour) const {
  if (game_.is_over()) return absl::FailedPreconditionError("game over");
  const Colour to_move = game_.position().to_move();
  if (colour != to_move) {
    return absl::FailedPreconditionError(
        absl::StrCat("illegal move: it is ", ColourName(to_move),
                     "'s turn, not ", ColourName(colour), "'s"));
  }
  return absl::OkStatus();
}

search::SearchResult Engine::RunSearch(const search::Limits& limits,
                                       const SearchControl& control) {
  search::Searcher& s = searcher();
  InfoRelay relay(s, control);
  search::Limits wanted = limits;
  wanted.ownership = control.ownership;
  wanted.all_moves = control.all_moves;
  search::SearchResult result = s.Search(
      game_.position(), wanted,
      [&relay](const search::SearchInfo& info) { relay.OnInfo(info); },
      kPollIntervalS);
  relay.Finish(result.info);
  return result;
}

absl::StatusOr<GenMoveResult> Engine::GenMove(Colour colour,
                                              const SearchControl& control) {
  if (absl::Status status = CheckGenMove(colour); !status.ok()) return status;
  search::Limits limits;
  limits.clock = time_control_.clock(colour);
  const absl::Time start = absl::Now();
  search::SearchResult result = RunSearch(limits, control);
  GenMoveResult answer;
  answer.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  answer.move = result.best;
  if (!CheckMove(game_.position(), colour, answer.move).ok()) {
    answer.move = FirstLegalMove(game_.position());
  }
  answer.info = std::move(result.info);
  if (absl::Status played = game_.Play(colour, answer.move); !played.ok()) {
    return played;  // unreachable for a legal move; changes nothing
  }
  time_control_.Spend(colour, answer.seconds);
  return answer;
}

absl::Status Engine::Analyze(const SearchControl& control) {
  if (game_.is_over()) return absl::FailedPreconditionError("game over");
  // Input that is already waiting ends the analysis before it starts (a
  // script that sends `analyze` and its next command at once).
  if (control.should_stop && control.should_stop()) return absl::OkStatus();
  search::Limits limits;
  limits.infinite = true;
  RunSearch(limits, control);
  return absl::OkStatus();
}

absl::StatusOr<search::SearchResult> Engine::Think(
    const SearchControl& control) {
  if (game_.is_over()) return absl::FailedPreconditionError("game over");
  return RunSearch(search::Limits{}, control);
}

}  // namespace wallgo::protocol
