// The GUI's web server on Boost.Beast: / redirects to a game ready to play
// (Lobby::OpenFresh), the games list at /games, a game's page at
// /game/NAME, the page's files, and one WebSocket per page at /ws (the games
// list) or /ws?game=NAME (a game), all on one thread (one io_context).
// Messages from a game's page go to that game's bridge; a bad one gets
// {"type":"error"} back on that socket only. A game's messages go to its
// pages only. Every socket has timeouts: a client that stops answering, or
// sends a close frame and never closes its socket, is dropped; so is a page
// that falls too far behind the messages sent to it (its backlog), which
// would otherwise hold them all in the server's memory. A page that is
// dropped reconnects and gets its game's newest state.
#pragma once

#include <chrono>
#include <memory>
#include <set>
#include <string>

#include "boost/asio/io_context.hpp"
#include "boost/asio/ip/tcp.hpp"
#include "tools/gui/lobby.h"

namespace wallgo::gui {

class WsSession;

struct ServerLimits {
  // An HTTP request, a WebSocket handshake or a closing handshake.
  std::chrono::milliseconds handshake{std::chrono::seconds(30)};
  // A WebSocket with no traffic (the server pings it halfway).
  std::chrono::milliseconds idle{std::chrono::seconds(300)};
  // Messages queued for one page and not yet sent (the one being written
  // not counted): over either limit, the page is dropped. A page that reads
  // falls behind only for a moment; one that stopped reading (a stalled or
  // half-open socket) keeps growing until a timeout.
  size_t max_backlog_messages = 256;
  size_t max_backlog_bytes = 4 << 20;
};

class Server {
 public:
  // Listens on `address`:`port` (0 = any free port).
  static absl::StatusOr<std::unique_ptr<Server>> Listen(
      boost::asio::io_context& io, const std::string& address, int port,
      ServerLimits limits = {});
  ~Server();
  int port() const { return port_; }
  // Set before Run; the lobby must outlive the io_context's run.
  void set_lobby(Lobby* lobby) { lobby_ = lobby; }
  // Sends `message` to every page of game `game`; callable from any thread.
  void Broadcast(std::string game, std::string message);

  // Used by the sessions, on the io thread.
  void Join(const std::shared_ptr<WsSession>& session);
  void Leave(WsSession* session);
  Lobby* lobby() const { return lobby_; }
  const ServerLimits& limits() const { return limits_; }

 private:
  Server(boost::asio::io_context& io, boost::asio::ip::tcp::acceptor acceptor,
         ServerLimits limits);
  void Accept();

  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  const ServerLimits limits_;
  int port_ = 0;
  Lobby* lobby_ = nullptr;
  std::set<std::shared_ptr<WsSession>> sessions_;
};

}  // namespace wallgo::gui
