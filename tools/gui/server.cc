#include "tools/gui/server.h"

#include <deque>

#include "absl/strings/str_cat.h"
#include "boost/asio/post.hpp"
#include "boost/beast/core.hpp"
#include "boost/beast/http.hpp"
#include "boost/beast/websocket.hpp"
#include "nlohmann/json.hpp"
#include "tools/gui/web_assets.h"

namespace wallgo::gui {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

// Big enough for a records file of a long match.
constexpr size_t kMaxMessage = 32 << 20;

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket socket, Server& server)
      : ws_(std::move(socket)), server_(server) {
    ws_.read_message_max(kMaxMessage);
  }

  void Start(http::request<http::string_body> request) {
    ws_.async_accept(request,
                     [self = shared_from_this()](beast::error_code ec) {
                       if (ec) return;
                       self->server_.Join(self);
                       if (self->server_.bridge() != nullptr) {
                         self->Send(self->server_.bridge()->StateJson());
                       }
                       self->Read();
                     });
  }

  void Send(std::string message) {
    queue_.push_back(std::move(message));
    if (queue_.size() == 1) Write();
  }

 private:
  void Read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec,
                                                        size_t) {
      if (ec) return self->server_.Leave(self.get());
      const std::string text = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      const absl::Status done = self->server_.bridge()->Handle(text);
      if (!done.ok()) {
        self->Send(nlohmann::json{{"type", "error"},
                                  {"message", std::string(done.message())}}
                       .dump());
      }
      self->Read();
    });
  }

  void Write() {
    ws_.text(true);
    ws_.async_write(asio::buffer(queue_.front()),
                    [self = shared_from_this()](beast::error_code ec, size_t) {
                      if (ec) return self->server_.Leave(self.get());
                      self->queue_.pop_front();
                      if (!self->queue_.empty()) self->Write();
                    });
  }

  websocket::stream<tcp::socket> ws_;
  Server& server_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
};

namespace {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket socket, Server& server)
      : socket_(std::move(socket)), server_(server) {}

  void Read() {
    request_ = {};
    http::async_read(socket_, buffer_, request_,
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
    if (websocket::is_upgrade(request_) && request_.target() == "/ws") {
      std::make_shared<WsSession>(std::move(socket_), server_)
          ->Start(std::move(request_));
      return;
    }
    auto response = std::make_shared<http::response<http::string_body>>();
    response->version(request_.version());
    response->keep_alive(request_.keep_alive());
    response->set(http::field::server, "wallgo-gui");
    std::string_view target(request_.target().data(), request_.target().size());
    target = target.substr(0, target.find('?'));
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

  bool SameOrigin() const {
    const auto origin = request_.find(http::field::origin);
    if (origin == request_.end()) return true;  // not a browser
    const std::string host(request_[http::field::host]);
    const std::string value(origin->value());
    return value == "http://" + host || value == "https://" + host;
  }

  void Respond(http::status status, const std::string& body) {
    auto response = std::make_shared<http::response<http::string_body>>();
    response->version(request_.version());
    response->keep_alive(false);
    response->result(status);
    response->set(http::field::content_type, "text/plain");
    response->body() = body;
    Send(response);
  }

  void Send(std::shared_ptr<http::response<http::string_body>> response) {
    response->prepare_payload();
    http::async_write(
        socket_, *response,
        [self = shared_from_this(), response](beast::error_code ec, size_t) {
          if (ec || !response->keep_alive()) {
            beast::error_code ignored;
            self->socket_.shutdown(tcp::socket::shutdown_send, ignored);
            return;
          }
          self->Read();
        });
  }

  tcp::socket socket_;
  Server& server_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> request_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Server>> Server::Listen(
    asio::io_context& io, const std::string& address, int port) {
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
  std::unique_ptr<Server> server(new Server(io, std::move(acceptor)));
  server->Accept();
  return server;
}

Server::Server(asio::io_context& io, tcp::acceptor acceptor)
    : io_(io), acceptor_(std::move(acceptor)) {
  port_ = acceptor_.local_endpoint().port();
}

Server::~Server() = default;

void Server::Accept() {
  acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (!ec) std::make_shared<HttpSession>(std::move(socket), *this)->Read();
    if (acceptor_.is_open()) Accept();
  });
}

void Server::Broadcast(std::string message) {
  asio::post(io_, [this, message = std::move(message)] {
    for (const auto& session : sessions_) session->Send(message);
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
