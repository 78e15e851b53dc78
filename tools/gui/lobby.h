// The games of one wallgo-gui server, by name: /game/NAME opens the game
// NAME, creating it (with its own engine processes) the first time, up to
// --max-games at once; / opens a fresh one (OpenFresh). Each game is a
// Bridge; its messages go only to the pages of that game.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "tools/gui/bridge.h"

namespace wallgo::gui {

// What a closed game's pages get.
inline constexpr std::string_view kClosedMessage =
    R"({"message":"this game was closed","type":"closed"})";

struct LobbyOptions {
  int max_games = 8;
  // Pages need a key: the host's (printed at start) for everything, a
  // seat's join token to play that colour; without one a page watches.
  // On when wallgo-gui listens beyond loopback.
  bool tokens = false;
  BridgeOptions bridge;
};

class Lobby {
 public:
  // `publish` gets each message of game `game` for that game's pages.
  using Publish =
      std::function<void(const std::string& game, const std::string& json)>;
  static absl::StatusOr<std::unique_ptr<Lobby>> Create(
      std::vector<EngineSpec> engines, LobbyOptions options, Publish publish);
  // Ends every game's engines.
  ~Lobby();

  // 1 to 40 letters, digits, '-' and '_': safe in a URL and a file name.
  static bool ValidName(std::string_view name);

  // The game `name`, created if it is new (and `may_create`); an error for a
  // bad name or when the server already has its --max-games.
  absl::StatusOr<std::shared_ptr<Bridge>> Open(const std::string& name,
                                               bool may_create = true);
  // The name of a game ready to play, for the address wallgo-gui prints:
  // the game this last started, while nobody has played in it (so that
  // opening that address again and again does not pile up empty games),
  // else a new game named game-N. An error when the server already has its
  // --max-games.
  absl::StatusOr<std::string> OpenFresh();
  // What a page with `key` may do in `game` (null: the games list).
  Access AccessFor(const Bridge* game, const std::string& key) const;
  bool tokens() const { return options_.tokens; }
  // The host's key: 128 random bits in hex.
  const std::string& host_key() const { return host_key_; }
  // Ends the game `name` (its pages are told, its engines quit).
  absl::Status Close(const std::string& name);
  // The games list: name and summary of each game, and the limit.
  nlohmann::json List();

 private:
  Lobby(std::vector<EngineSpec> engines, LobbyOptions options, Publish publish,
        std::shared_ptr<client::EngineLog> log);
  // Creates the game `name` (not yet in games_) unless the server is full;
  // mutex_ held.
  absl::StatusOr<std::shared_ptr<Bridge>> CreateLocked(const std::string& name);

  const std::vector<EngineSpec> engines_;
  const LobbyOptions options_;
  const Publish publish_;
  std::shared_ptr<client::EngineLog> log_;
  const std::string host_key_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Bridge>> games_;
  std::string fresh_;    // the game OpenFresh started last
  int fresh_count_ = 0;  // the N of its name
};

}  // namespace wallgo::gui
