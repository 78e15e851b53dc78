#include "tools/gui/cli.h"

#include <csignal>
#include <cstdlib>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "boost/asio/io_context.hpp"
#include "boost/asio/ip/address.hpp"
#include "boost/asio/signal_set.hpp"
#include "boost/program_options.hpp"
#include "common/program_options_error.h"
#include "common/version_option.h"
#include "tools/gui/server.h"

namespace wallgo::gui {
namespace po = boost::program_options;
namespace {

po::options_description Flags() {
  po::options_description d("wallgo-gui options");
  common::AddVersionOption(d);
  // clang-format off
  d.add_options()
      ("help,h", "this help")
      ("engine,e", po::value<std::vector<std::string>>()->composing(),
       "an engine: a shell command, or name=NAME:COMMAND; once per engine "
       "(default: the wallgo beside this program)")
      ("port,p", po::value<int>()->default_value(8600), "TCP port (0: any free one)")
      ("listen", po::value<std::string>()->default_value("127.0.0.1"),
       "address to listen on")
      ("open", "open the page in the desktop's browser (xdg-open)")
      ("engine-log", po::value<std::string>()->default_value(""),
       "file for the engines' standard error (default: discarded)")
      ("command-timeout", po::value<double>()->default_value(10),
       "seconds for any engine command but genmove before the engine hangs")
      ("max-think", po::value<double>()->default_value(30),
       "seconds a genmove may take when the seat has no move time")
      ("margin", po::value<double>()->default_value(5),
       "seconds a genmove may overrun its move time")
      ("analyze-interval", po::value<int>()->default_value(25),
       "centiseconds between analysis reports")
      ("max-games", po::value<int>()->default_value(8),
       "games at once (each has its own engine processes)")
      ("socket-timeout", po::value<double>()->default_value(30),
       "seconds for an HTTP request or a WebSocket (closing) handshake; a "
       "silent WebSocket is pinged, then dropped after 10 times this")
      ("max-backlog", po::value<int>()->default_value(256),
       "messages a page may fall behind (or 4 MB) before it is dropped; "
       "it reconnects to its game's newest state");
  // clang-format on
  return d;
}

}  // namespace

std::string GuiUsage() {
  std::ostringstream out;
  out << "Usage: wallgo-gui [--engine \"name=NAME:COMMAND\"]... [--port 8600] "
         "[--listen 127.0.0.1] [--open]\n"
      << Flags();
  return out.str();
}

absl::StatusOr<GuiOptions> ParseGuiOptions(const std::vector<std::string>& args,
                                           const std::string& self) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(Flags()).run(), vm);
    po::notify(vm);
  } catch (po::error& e) {
    return absl::InvalidArgumentError(common::ErrorMessage(e));
  }
  GuiOptions o;
  o.help = vm.count("help") > 0;
  std::vector<std::string> specs;
  if (vm.count("engine")) specs = vm["engine"].as<std::vector<std::string>>();
  if (specs.empty()) {
    const std::string dir = self.substr(0, self.rfind('/') + 1);
    specs.push_back("name=wallgo:'" + dir + "wallgo'");
  }
  o.engines = client::NameEngines(specs);
  for (const EngineSpec& e : o.engines) {
    if (e.name.empty() || e.command.empty()) {
      return absl::InvalidArgumentError(
          "an --engine needs a name and a command");
    }
  }
  o.port = vm["port"].as<int>();
  if (o.port < 0 || o.port > 65535) {
    return absl::InvalidArgumentError("--port must be in 0..65535");
  }
  o.listen = vm["listen"].as<std::string>();
  o.open = vm.count("open") > 0;
  o.bridge.engine_log = vm["engine-log"].as<std::string>();
  WorkerTimeouts& t = o.bridge.timeouts;
  t.command_s = vm["command-timeout"].as<double>();
  t.max_think_s = vm["max-think"].as<double>();
  t.margin_s = vm["margin"].as<double>();
  t.analyze_interval_cs = vm["analyze-interval"].as<int>();
  if (!(t.command_s > 0) || !(t.max_think_s > 0) || !(t.margin_s >= 0) ||
      t.analyze_interval_cs < 1 || t.analyze_interval_cs > 6000) {
    return absl::InvalidArgumentError(
        "timeouts must be positive and --analyze-interval in 1..6000");
  }
  o.max_games = vm["max-games"].as<int>();
  if (o.max_games < 1 || o.max_games > 1000) {
    return absl::InvalidArgumentError("--max-games must be in 1..1000");
  }
  const double socket_s = vm["socket-timeout"].as<double>();
  if (!(socket_s >= 0.1 && socket_s <= 3600)) {
    return absl::InvalidArgumentError("--socket-timeout must be in 0.1..3600");
  }
  o.socket_limits.handshake =
      std::chrono::milliseconds(static_cast<int64_t>(socket_s * 1000));
  o.socket_limits.idle = 10 * o.socket_limits.handshake;
  const int backlog = vm["max-backlog"].as<int>();
  if (backlog < 1 || backlog > 100000) {
    return absl::InvalidArgumentError("--max-backlog must be in 1..100000");
  }
  o.socket_limits.max_backlog_messages = static_cast<size_t>(backlog);
  return o;
}

int GuiMain(const std::vector<std::string>& args, const std::string& self,
            std::ostream& out, std::ostream& err) {
  absl::StatusOr<GuiOptions> options = ParseGuiOptions(args, self);
  if (!options.ok()) {
    err << "wallgo-gui: " << options.status().message() << "\n" << GuiUsage();
    return 2;
  }
  if (options->help) {
    out << GuiUsage();
    return 0;
  }
  boost::asio::io_context io;
  absl::StatusOr<std::unique_ptr<Server>> server = Server::Listen(
      io, options->listen, options->port, options->socket_limits);
  if (!server.ok()) {
    err << "wallgo-gui: " << server.status().message() << "\n";
    return 1;
  }
  Server* raw = server->get();
  LobbyOptions lobby_options;
  lobby_options.max_games = options->max_games;
  lobby_options.bridge = options->bridge;
  // Beyond loopback, pages need a key: the host's, or a seat's join link.
  boost::system::error_code ec;
  lobby_options.tokens =
      !boost::asio::ip::make_address(options->listen, ec).is_loopback();
  absl::StatusOr<std::unique_ptr<Lobby>> lobby =
      Lobby::Create(options->engines, lobby_options,
                    [raw](const std::string& game, const std::string& message) {
                      raw->Broadcast(game, message);
                    });
  if (!lobby.ok()) {
    err << "wallgo-gui: " << lobby.status().message() << "\n";
    return 1;
  }
  (*server)->set_lobby(lobby->get());
  // Ctrl-C or a kill ends the engines too: the lobby quits them below.
  boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
  signals.async_wait(
      [&io](const boost::system::error_code&, int) { io.stop(); });
  const std::string url = absl::StrCat(
      "http://", options->listen == "0.0.0.0" ? "127.0.0.1" : options->listen,
      ":", (*server)->port(), "/",
      (*lobby)->tokens() ? absl::StrCat("?key=", (*lobby)->host_key()) : "");
  out << "wallgo-gui: open " << url
      << " (a board ready to play; every game at /games)" << std::endl;
  if ((*lobby)->tokens()) {
    out << "wallgo-gui: listening beyond loopback: the address above (with "
           "its key) is the host's; other machines join by the seat links "
           "each game's page shows, and without one a page only watches"
        << std::endl;
  }
  if (options->open) {
    const std::string command = "xdg-open '" + url + "' >/dev/null 2>&1 &";
    if (std::system(command.c_str()) != 0)
      err << "wallgo-gui: xdg-open failed\n";
  }
  io.run();
  lobby->reset();
  out << "wallgo-gui: stopped" << std::endl;
  return 0;
}

}  // namespace wallgo::gui
