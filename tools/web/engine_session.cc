#include "tools/web/engine_session.h"

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "common/version/version.h"
#include "protocol/engine.h"
#include "protocol/gtp.h"
#include "protocol/log.h"
#include "protocol/options.h"
#include "search/net/builtin_weights.h"
#include "search/search.h"

namespace wallgo::web {
namespace {

constexpr int kWebHashMb = 64;
constexpr int kUsageError = 2;  // as `wallgo`

// Sets the options named by `--NAME VALUE` pairs; false (with a message)
// at the first bad one.
bool SetOptionsFromArguments(const std::vector<std::string>& args,
                             search::SearchOptions& options,
                             std::ostream& err) {
  for (size_t i = 0; i < args.size(); i += 2) {
    const absl::string_view flag = args[i];
    const protocol::OptionSpec* spec =
        absl::StartsWith(flag, "--") ? protocol::FindOption(flag.substr(2))
                                     : nullptr;
    if (spec == nullptr || i + 1 == args.size()) {
      err << "wallgo: " << flag
          << ": expected --OPTION VALUE, OPTION one of list_options\n";
      return false;
    }
    if (absl::Status s =
            protocol::SetOptionFromText(options, *spec, args[i + 1]);
        !s.ok()) {
      err << "wallgo: " << flag << ": " << s.message() << "\n";
      return false;
    }
  }
  return true;
}

}  // namespace

int RunEngineSession(const std::vector<std::string>& args, std::istream& in,
                     std::ostream& out, std::ostream& err) {
  search::SearchOptions options = protocol::DefaultOptions();
  options.hash_mb = kWebHashMb;
  if (!SetOptionsFromArguments(args, options, err)) return kUsageError;
  absl::StatusOr<std::shared_ptr<const search::Evaluator>> net =
      search::net::LoadNetEvaluator("");
  if (!net.ok()) {
    err << "wallgo: " << net.status().message() << "\n";
    return kUsageError;
  }
  options.net = *std::move(net);
  protocol::Engine engine(
      [](const search::SearchOptions& o) { return search::MakeSearcher(o); },
      options);
  protocol::Log log(&err, nullptr);
  protocol::GtpSession session(engine, out, log, std::string(Version()));
  session.Run(in);
  return 0;
}

}  // namespace wallgo::web
