#include "tools/gui/server.h"

#include <algorithm>
#include <deque>
#include <vector>

#include "absl/strings/str_cat.h"
#include "boost/asio/post.hpp"
#include "boost/beast/core.hpp"
#include "boost/beast/http.hpp"
#include "boost/beast/websocket.hpp"
#include "common/json_text.h"
#include "engine/notation.h"
#include "nlohmann/json.hpp"
#include "tools/gui/message_fields.h"
#include "tools/gui/web_assets.h"

namespace wallgo::gui {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

// Big enough for a records file of a long match.
constexpr size_t kMaxMessage = 32 << 20;

namespace {

// The query parameter `key` of a request target ("/ws?game=x&seat=y").
std::string QueryParameter(std::string_view target, std::string_view key) {
  const size_t q = target.find('?');
  if (q == std::string_view::npos) return "";
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const size_t eq = pair.find('=');
    if (eq != std::string_view::npos && pair.substr(0, eq) == key) {
      return std::string(pair.substr(eq + 1));
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return "";
}

}  // namespace

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  // `game` is "" for the games list.
  WsSession(beast::tcp_stream stream, Server& server, std::string game,
            std::string key)
      : ws_(std::move(stream)),
        server_(server),
        game_(std::move(game)),
        key_(std::move(key)) {
    ws_.read_message_max(kMaxMessage);
    websocket::stream_base::timeout timeout;
    timeout.handshake_timeout = server_.limits().handshake;
    timeout.idle_timeout = server_.limits().idle;
    timeout.keep_alive_pings = true;
    ws_.set_option(timeout);
  }

  const std::string& game() const { return game_; }

  void Start(http::request<http::string_body> request) {
    // The handshake has its own timeout from here on.
    beast::get_lowest_layer(ws_).expires_never();
    ws_.async_accept(
        request, [self = shared_from_this()](beast::error_code ec) {
          if (ec) return;
          self->server_.Join(self);
          Lobby* lobby = self->server_.lobby();
          self->access_ = lobby->AccessFor(nullptr, self->key_);
          if (!self->game_.empty()) {
            absl::StatusOr<std::shared_ptr<Bridge>> bridge =
                lobby->Open(self->game_, self->access_.seat == Access::kAll);
            if (!bridge.ok()) {
              // The page says why (e.g. the --max-games limit) and stays.
              self->Send(PageError("refused", bridge.status().message()));
            } else {
              self->bridge_ = *bridge;
              self->access_ = lobby->AccessFor(bridge->get(), self->key_);
              self->Send(self->RoleJson());
              self->Send(self->bridge_->StateJson());
            }
          } else {
            self->Send(common::JsonText(self->server_.lobby()->List()));
          }
          self->Read();
        });
  }

  void Send(std::string message) {
    if (dropped_) return;
    // A closed game's pages stop driving it.
    if (message == kClosedMessage) bridge_.reset();
    if (!queue_.empty()) backlog_bytes_ += message.size();
    queue_.push_back(std::move(message));
    if (queue_.size() == 1) return Write();
    const ServerLimits& limits = server_.limits();
    if (queue_.size() - 1 > limits.max_backlog_messages ||
        backlog_bytes_ > limits.max_backlog_bytes) {
      Drop();
    }
  }

 private:
  void Read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec,
                                                        size_t) {
      if (ec) return self->server_.Leave(self.get());
      const std::string text = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      const absl::Status done = self->Handle(text);
      if (!done.ok()) self->Send(PageError("error", done.message()));
      self->Read();
    });
  }

  // What this page may do, and for the host of a server with keys, every
  // seat's join token (the page makes the links).
  std::string RoleJson() const {
    nlohmann::json role = {{"type", "role"},
                           {"tokens", server_.lobby()->tokens()},
                           {"seat", access_.seat == Access::kAll ? "all"
                                    : access_.seat == Access::kWatch
                                        ? "watch"
                                        : ColourName(ColourAt(access_.seat))}};
    if (access_.seat == Access::kAll && server_.lobby()->tokens()) {
      nlohmann::json links = nlohmann::json::array();
      for (size_t i = 0; i < bridge_->seat_tokens().size(); ++i) {
        links.push_back({{"colour", ColourName(ColourAt(static_cast<int>(i)))},
                         {"key", bridge_->seat_tokens()[i]}});
      }
      role["links"] = links;
    }
    return role.dump();
  }

  absl::Status Handle(const std::string& text) {
    if (bridge_ != nullptr) return bridge_->Handle(text, access_);
    if (!game_.empty()) {
      return absl::FailedPreconditionError("this page has no game: reload it");
    }
    // The games list: {"type":"games"} lists, {"type":"close","game":N}
    // ends a game.
    const nlohmann::json message =
        nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!message.is_object() || !message.contains("type")) {
      return absl::InvalidArgumentError("a message must be a JSON object");
    }
    if (message["type"] == "games") {
      Send(common::JsonText(server_.lobby()->List()));
      return absl::OkStatus();
    }
    if (message["type"] == "close" && access_.seat != Access::kAll) {
      return absl::PermissionDeniedError(
          "only the host of this wallgo-gui closes games");
    }
    if (message["type"] == "close" && message.contains("game") &&
        message["game"].is_string()) {
      absl::Status closed =
          server_.lobby()->Close(message["game"].get<std::string>());
      if (closed.ok()) Send(common::JsonText(server_.lobby()->List()));
      return closed;
    }
    return absl::InvalidArgumentError(
        "the games list takes {\"type\":\"games\"} and "
        "{\"type\":\"close\",\"game\":NAME}");
  }

  void Write() {
    ws_.text(true);
    ws_.async_write(asio::buffer(queue_.front()),
                    [self = shared_from_this()](beast::error_code ec, size_t) {
                      if (ec) return self->server_.Leave(self.get());
                      self->queue_.pop_front();
                      if (self->queue_.empty()) return;
                      self->backlog_bytes_ -= self->queue_.front().size();
                      self->Write();
                    });
  }

  // Lets the page go: no more messages, the backlog freed (all but the one
  // being written, whose buffer the write still holds), the socket closed,
  // so that the pending read and write end and the session is destroyed.
  void Drop() {
    dropped_ = true;
    server_.Leave(this);
    queue_.resize(1);
    backlog_bytes_ = 0;
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

  websocket::stream<beast::tcp_stream> ws_;
  Server& server_;
  const std::string game_;
  const std::string key_;  // the page's key: the host's or a seat's
  Access access_;
  std::shared_ptr<Bridge> bridge_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;  // its front is being written
  size_t backlog_bytes_ = 0;       // the rest's
  bool dropped_ = false;
};

namespace {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket socket, Server& server)
      : stream_(std::move(socket)), server_(server) {}

  void Read() {
    request_ = {};
    stream_.expires_after(server_.limits().handshake);
    http::async_read(stream_, buffer_, request_,
                     [self = shared_from_this()](beast::error_code ec, size_t) {
                       if (!ec) self->Serve();
                     });
  }

 private:
  void Serve() {
    // Browsers let any site open a WebSocket to 127.0.0.1: only this
    // server's own page (same host and port as the request) may connect.
    if (websocket::is_upgrade(request_) && !SameOrigin()) {
      return Respond(http::status::forbidden,
                     "cross-origin WebSocket refused\n");
    }
    std::string_view target(request_.target().data(), request_.target().size());
    if (websocket::is_upgrade(request_) &&
        target.substr(0, target.find('?')) == "/ws") {
      std::string game = QueryParameter(target, "game");
      if (!game.empty() && !Lobby::ValidName(game)) {
        return Respond(http::status::not_found, "no such game\n");
      }
      std::make_shared<WsSession>(std::move(stream_), server_, std::move(game),
                                  QueryParameter(target, "key"))
          ->Start(std::move(request_));
      return;
    }
    const std::string_view query =
        target.substr(std::min(target.find('?'), target.size()));
    target = target.substr(0, target.find('?'));
    if (target == "/" && (request_.method() == http::verb::get ||
                          request_.method() == http::verb::head)) {
      return Redirect(RootLocation(query) + std::string(query));
    }
    ServeFile(target);
  }

  // A page or one of its files: `target` without the query.
  void ServeFile(std::string_view target) {
    auto response = NewResponse();
    // The games list at /games, every game's page at /game/NAME.
    if (target == "/games") target = "/lobby.html";
    constexpr std::string_view kGame = "/game/";
    if (target.substr(0, kGame.size()) == kGame) {
      target = Lobby::ValidName(target.substr(kGame.size())) ? "/index.html"
                                                             : "/no-such-page";
    }
    const WebAsset* asset = FindAsset(target);
    if (request_.method() != http::verb::get &&
        request_.method() != http::verb::head) {
      response->result(http::status::method_not_allowed);
      response->body() = "only GET\n";
    } else if (asset == nullptr) {
      response->result(http::status::not_found);
      response->set(http::field::content_type, "text/plain");
      response->body() = "not found\n";
    } else {
      response->result(http::status::ok);
      response->set(http::field::content_type,
                    std::string(asset->content_type));
      response->set(http::field::cache_control, "no-cache");
      if (request_.method() == http::verb::get) {
        response->body() = std::string(asset->body);
      }
    }
    Send(response);
  }

  // Where / sends a page: the host (any page on loopback) to a board ready
  // to play, anyone else, or the host when the server already has its
  // --max-games, to the games list (which shows the limit).
  std::string RootLocation(std::string_view query) const {
    Lobby* lobby = server_.lobby();
    if (lobby->AccessFor(nullptr, QueryParameter(query, "key")).seat !=
        Access::kAll) {
      return "/games";
    }
    const absl::StatusOr<std::string> game = lobby->OpenFresh();
    return game.ok() ? "/game/" + *game : "/games";
  }

  // A redirect that the browser does not keep: / opens another game once
  // this one is played. The query (the key, ?lang=) goes along.
  void Redirect(const std::string& location) {
    auto response = NewResponse();
    response->result(http::status::see_other);
    response->set(http::field::location, location);
    response->set(http::field::cache_control, "no-store");
    response->set(http::field::content_type, "text/plain");
    if (request_.method() == http::verb::get) {
      response->body() = "see " + location + "\n";
    }
    Send(response);
  }

  bool SameOrigin() const {
    const auto origin = request_.find(http::field::origin);
    if (origin == request_.end()) return true;  // not a browser
    const std::string host(request_[http::field::host]);
    const std::string value(origin->value());
    return value == "http://" + host || value == "https://" + host;
  }

  // A response to this request, kept alive if the request asks.
  std::shared_ptr<http::response<http::string_body>> NewResponse() const {
    auto response = std::make_shared<http::response<http::string_body>>();
    response->version(request_.version());
    response->keep_alive(request_.keep_alive());
    response->set(http::field::server, "wallgo-gui");
    return response;
  }

  void Respond(http::status status, const std::string& body) {
    auto response = NewResponse();
    response->keep_alive(false);
    response->result(status);
    response->set(http::field::content_type, "text/plain");
    response->body() = body;
    Send(response);
  }

  void Send(std::shared_ptr<http::response<http::string_body>> response) {
    response->prepare_payload();
    http::async_write(
        stream_, *response,
        [self = shared_from_this(), response](beast::error_code ec, size_t) {
          if (ec || !response->keep_alive()) {
            beast::error_code ignored;
            self->stream_.socket().shutdown(tcp::socket::shutdown_send,
                                            ignored);
            return;
          }
          self->Read();
        });
  }

  beast::tcp_stream stream_;
  Server& server_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> request_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Server>> Server::Listen(
    asio::io_context& io, const std::string& address, int port,
    ServerLimits limits) {
  beast::error_code ec;
  const asio::ip::address ip = asio::ip::make_address(address, ec);
  if (ec)
    return absl::InvalidArgumentError("bad --listen address '" + address + "'");
  tcp::acceptor acceptor(io);
  const tcp::endpoint endpoint(ip, static_cast<unsigned short>(port));
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", address,
                                               ":", port, ": ", ec.message()));
  }
  std::unique_ptr<Server> server(new Server(io, std::move(acceptor), limits));
  server->Accept();
  return server;
}

Server::Server(asio::io_context& io, tcp::acceptor acceptor,
               ServerLimits limits)
    : io_(io), acceptor_(std::move(acceptor)), limits_(limits) {
  port_ = acceptor_.local_endpoint().port();
}

Server::~Server() = default;

void Server::Accept() {
  acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (!ec) std::make_shared<HttpSession>(std::move(socket), *this)->Read();
    if (acceptor_.is_open()) Accept();
  });
}

void Server::Broadcast(std::string game, std::string message) {
  asio::post(io_, [this, game = std::move(game), message = std::move(message)] {
    // Send may drop a page, which leaves sessions_: not while walking it.
    std::vector<std::shared_ptr<WsSession>> pages;
    for (const auto& session : sessions_) {
      if (session->game() == game) pages.push_back(session);
    }
    for (const auto& page : pages) page->Send(message);
  });
}

void Server::Join(const std::shared_ptr<WsSession>& session) {
  sessions_.insert(session);
}

void Server::Leave(WsSession* session) {
  for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
    if (it->get() == session) {
      sessions_.erase(it);
      return;
    }
  }
}

}  // namespace wallgo::gui
