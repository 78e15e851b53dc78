#include "tools/gui/lobby.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace wallgo::gui {

absl::StatusOr<std::unique_ptr<Lobby>> Lobby::Create(
    std::vector<EngineSpec> engines, LobbyOptions options, Publish publish) {
  if (engines.empty()) return absl::InvalidArgumentError("no engine");
  if (options.max_games < 1) {
    return absl::InvalidArgumentError("--max-games must be at least 1");
  }
  absl::StatusOr<std::unique_ptr<client::EngineLog>> log =
      client::EngineLog::Open(options.bridge.engine_log);
  if (!log.ok()) return log.status();
  return std::unique_ptr<Lobby>(
      new Lobby(std::move(engines), std::move(options), std::move(publish),
                std::shared_ptr<client::EngineLog>(std::move(*log))));
}

Lobby::Lobby(std::vector<EngineSpec> engines, LobbyOptions options,
             Publish publish, std::shared_ptr<client::EngineLog> log)
    : engines_(std::move(engines)),
      options_(std::move(options)),
      publish_(std::move(publish)),
      log_(std::move(log)),
      host_key_(NewToken()) {}

Access Lobby::AccessFor(const Bridge* game, const std::string& key) const {
  if (!options_.tokens || (!key.empty() && key == host_key_)) return Access{};
  return Access{game == nullptr ? Access::kWatch : game->SeatOfToken(key)};
}

Lobby::~Lobby() {
  std::map<std::string, std::shared_ptr<Bridge>> games;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    games.swap(games_);
  }
  games.clear();  // outside the lock: each joins its engine threads
}

bool Lobby::ValidName(std::string_view name) {
  if (name.empty() || name.size() > 40) return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(c) && c != '-' && c != '_') return false;
  }
  return true;
}

absl::StatusOr<std::shared_ptr<Bridge>> Lobby::Open(const std::string& name,
                                                    bool may_create) {
  if (!ValidName(name)) {
    return absl::InvalidArgumentError(
        "a game's name is 1 to 40 letters, digits, '-' or '_'");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = games_.find(name); it != games_.end()) return it->second;
  if (!may_create) {
    return absl::PermissionDeniedError(
        "no such game: only the host of this wallgo-gui starts games");
  }
  return CreateLocked(name);
}

absl::StatusOr<std::shared_ptr<Bridge>> Lobby::CreateLocked(
    const std::string& name) {
  if (static_cast<int>(games_.size()) >= options_.max_games) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "this server already runs ", games_.size(),
        " games, its limit (wallgo-gui --max-games ", options_.max_games,
        "): close a game in the games list, or open one of them"));
  }
  Publish publish = publish_;
  std::shared_ptr<Bridge> bridge = Bridge::Create(
      engines_, options_.bridge,
      [publish, name](const std::string& message) { publish(name, message); },
      log_);
  games_[name] = bridge;
  return bridge;
}

absl::StatusOr<std::string> Lobby::OpenFresh() {
  std::shared_ptr<Bridge> last;
  std::string name;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = games_.find(fresh_); it != games_.end()) {
      last = it->second;
      name = fresh_;
    }
  }
  // Summary locks the game: outside the lobby's lock, as in List. Two
  // calls at once may each start a game; the server makes them one at a
  // time.
  if (last != nullptr) {
    const nlohmann::json summary = last->Summary();
    if (summary["moves"] == 0 && !summary["over"].get<bool>()) return name;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  int n = fresh_count_;
  do {
    name = absl::StrCat("game-", ++n);
  } while (games_.count(name) > 0);
  absl::StatusOr<std::shared_ptr<Bridge>> created = CreateLocked(name);
  if (!created.ok()) return created.status();
  fresh_ = name;
  fresh_count_ = n;
  return name;
}

absl::Status Lobby::Close(const std::string& name) {
  std::shared_ptr<Bridge> closed;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = games_.find(name);
    if (it == games_.end()) {
      return absl::NotFoundError(
          absl::StrCat("no game named '", name.substr(0, 40), "'"));
    }
    closed = std::move(it->second);
    games_.erase(it);
  }
  publish_(name, std::string(kClosedMessage));
  return absl::OkStatus();
}

nlohmann::json Lobby::List() {
  std::map<std::string, std::shared_ptr<Bridge>> games;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    games = games_;
  }
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [name, bridge] : games) {
    nlohmann::json entry = bridge->Summary();
    entry["name"] = name;
    list.push_back(entry);
  }
  return {{"type", "games"}, {"games", list}, {"maxGames", options_.max_games}};
}

}  // namespace wallgo::gui
