// The GUI's web server on Boost.Beast: the page's files over HTTP and one
// WebSocket per page at /ws, all on one thread (one io_context). Messages
// from a page go to the bridge; a bad one gets {"type":"error"} back on
// that socket only. The bridge's messages go to every page.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "boost/asio/io_context.hpp"
#include "boost/asio/ip/tcp.hpp"
#include "tools/gui/bridge.h"

namespace wallgo::gui {

class WsSession;

class Server {
 public:
  // Listens on `address`:`port` (0 = any free port).
  static absl::StatusOr<std::unique_ptr<Server>> Listen(
      boost::asio::io_context& io, const std::string& address, int port);
  ~Server();
  int port() const { return port_; }
  // Set before Run; the bridge must outlive the io_context's run.
  void set_bridge(Bridge* bridge) { bridge_ = bridge; }
  // Sends `message` to every page; callable from any thread.
  void Broadcast(std::string message);

  // Used by the sessions, on the io thread.
  void Join(const std::shared_ptr<WsSession>& session);
  void Leave(WsSession* session);
  Bridge* bridge() const { return bridge_; }

 private:
  Server(boost::asio::io_context& io, boost::asio::ip::tcp::acceptor acceptor);
  void Accept();

  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  int port_ = 0;
  Bridge* bridge_ = nullptr;
  std::set<std::shared_ptr<WsSession>> sessions_;
};

}  // namespace wallgo::gui
