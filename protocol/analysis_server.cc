#include "protocol/analysis_server.h"

#include <algorithm>
#include <atomic>
#include <utility>

#include "absl/strings/ascii.h"

namespace wallgo::protocol {

struct AnalysisServer::Query {
  explicit Query(AnalysisQuery q) : query(std::move(q)) {}
  const AnalysisQuery query;
  std::atomic<bool> terminated{false};
};

bool AnalysisServer::Task::operator<(const Task& other) const {
  if (priority != other.priority) return priority > other.priority;
  return order < other.order;
}

AnalysisServer::AnalysisServer(const AnalysisConfig& config,
                               SearcherFactory factory,
                               std::function<void(const std::string&)> write,
                               std::stop_token stop)
    : config_(config),
      factory_(std::move(factory)),
      write_(std::move(write)),
      running_(std::max(1, config.analysis_threads)),
      stop_(stop),
      on_stop_(stop, [this] {
        std::lock_guard lock(mutex_);
        changed_.notify_all();
      }) {
  for (int i = 0; i < std::max(1, config_.analysis_threads); ++i) {
    workers_.emplace_back(&AnalysisServer::Work, this, i);
  }
}

AnalysisServer::~AnalysisServer() { Finish(); }

void AnalysisServer::Write(const std::string& line) {
  std::lock_guard lock(write_mutex_);
  write_(line);
}

void AnalysisServer::HandleLine(absl::string_view line) {
  if (absl::StripAsciiWhitespace(line).empty()) return;
  ParsedLine parsed = ParseQueryLine(line);
  for (const QueryWarning& w : parsed.warnings) Write(WarningJson(w));
  if (auto* error = std::get_if<QueryError>(&parsed.request)) {
    Write(ErrorJson(*error));
  } else if (auto* version = std::get_if<VersionAction>(&parsed.request)) {
    Write(VersionJson(*version, config_.version));
  } else if (auto* terminate = std::get_if<TerminateAction>(&parsed.request)) {
    Terminate(*terminate);
  } else {
    Submit(std::get<AnalysisQuery>(std::move(parsed.request)));
  }
}

void AnalysisServer::Submit(AnalysisQuery query) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] {
    return queue_.size() < config_.max_queued_turns || stop_.stop_requested();
  });
  if (stop_.stop_requested()) return;
  const int priority = query.priority;
  auto shared = std::make_shared<Query>(std::move(query));
  for (int turn : shared->query.analyze_turns) {
    queue_.insert(Task{shared, turn, priority, arrivals_++});
  }
  changed_.notify_all();
}

// Queued turns of the query are answered as terminated at once; running
// ones stop and answer what they found.
void AnalysisServer::Terminate(const TerminateAction& action) {
  std::vector<Task> dropped;
  {
    std::lock_guard lock(mutex_);
    for (auto it = queue_.begin(); it != queue_.end();) {
      if (it->query->query.id == action.terminate_id) {
        dropped.push_back(*it);
        it = queue_.erase(it);
      } else {
        ++it;
      }
    }
    for (const std::shared_ptr<Query>& q : running_) {
      if (q != nullptr && q->query.id == action.terminate_id) {
        q->terminated.store(true);
      }
    }
    changed_.notify_all();
  }
  std::sort(dropped.begin(), dropped.end(),
            [](const Task& a, const Task& b) { return a.order < b.order; });
  for (const Task& task : dropped) {
    TurnAnswer answer;
    answer.id = task.query->query.id;
    answer.turn = task.turn;
    answer.terminated = answer.no_results = true;
    Write(AnswerJson(answer));
  }
  Write(TerminateJson(action));
}

void AnalysisServer::Finish() {
  {
    std::lock_guard lock(mutex_);
    if (closing_) return;
    closing_ = true;
    changed_.notify_all();
  }
  for (std::thread& w : workers_) w.join();
}

void AnalysisServer::Work(int worker) {
  search::SearchOptions options = config_.defaults;
  options.threads = std::max(1, config_.search_threads);
  options.hash_mb = std::max(
      1, config_.defaults.hash_mb / std::max(1, config_.analysis_threads));
  Engine engine(factory_, options);
  for (;;) {
    Task task;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] {
        return closing_ || !queue_.empty() || stop_.stop_requested();
      });
      if (queue_.empty() || stop_.stop_requested()) return;
      task = *queue_.begin();
      queue_.erase(queue_.begin());
      running_[worker] = task.query;
      changed_.notify_all();  // room in the queue
    }
    const std::string answer = Analyse(engine, task);
    {
      std::lock_guard lock(mutex_);
      running_[worker] = nullptr;
    }
    if (stop_.stop_requested()) return;  // cut short: not a real answer
    Write(answer);
  }
}

std::string AnalysisServer::Analyse(Engine& engine, const Task& task) {
  const AnalysisQuery& q = task.query->query;
  TurnAnswer answer;
  answer.id = q.id;
  answer.turn = task.turn;
  answer.position = q.PositionAt(task.turn);
  answer.include_ownership = q.include_ownership;
  answer.include_policy = q.include_policy;
  engine.Setup(answer.position);  // also forgets the last query's graph
  if (engine.game().is_over()) {
    answer.game_over = true;
    answer.info = FinishedGameInfo(answer.position, q.include_ownership);
    return AnswerJson(answer);
  }
  search::SearchOptions options = QueryOptions(q, config_.defaults);
  options.threads = engine.options().threads;
  options.hash_mb = engine.options().hash_mb;
  engine.SetOptions(options);
  SearchControl control;
  control.ownership = q.include_ownership;
  control.all_moves = q.include_policy;
  Query* query = task.query.get();
  control.should_stop = [query, this] {
    return query->terminated.load() || stop_.stop_requested();
  };
  if (q.solve_s) {
    search::SolverLimits limits;
    limits.seconds = *q.solve_s;
    limits.hash_mb = options.hash_mb;
    limits.should_stop = control.should_stop;
    answer.solve = search::Solve(answer.position, limits);
  }
  absl::StatusOr<search::SearchResult> result = engine.Think(control);
  if (result.ok()) answer.info = std::move(result->info);
  answer.terminated = query->terminated.load();
  return AnswerJson(answer);
}

}  // namespace wallgo::protocol
