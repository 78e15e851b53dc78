#include "tools/python/engine_binding.h"

#include <pybind11/stl.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "engine/game.h"
#include "protocol/analysis_json.h"
#include "protocol/engine.h"
#include "protocol/options.h"
#include "search/net/builtin_weights.h"
#include "search/net/net_evaluator.h"
#include "tools/python/game_object.h"

namespace py = pybind11;

namespace wallgo::python {

namespace {

std::shared_ptr<const search::Evaluator> LoadNet(const std::string& file) {
  absl::StatusOr<search::net::Network> network = search::net::LoadWeights(file);
  if (!network.ok())
    throw py::value_error(std::string(network.status().message()));
  return std::make_shared<const search::net::NetEvaluator>(
      std::make_shared<const search::net::Network>(*std::move(network)));
}

// One engine: a searcher that keeps its options between analyses. One
// analysis at a time; stop() from any thread ends the running one.
class PyEngine {
 public:
  PyEngine(const std::string& weights, const std::string& weights_multi,
           const py::kwargs& options)
      : options_(protocol::DefaultOptions()) {
    for (const auto& [key, value] : options) {
      const std::string name = py::str(key);
      const protocol::OptionSpec* spec = protocol::FindOption(name);
      if (spec == nullptr) {
        throw py::type_error(absl::StrCat("Engine() has no option '", name,
                                          "' (see list_options())"));
      }
      const std::string text = py::str(value);
      absl::Status s = protocol::SetOptionFromText(options_, *spec, text);
      if (!s.ok()) throw py::value_error(std::string(s.message()));
    }
    options_.net = LoadNet(weights);
    if (!weights_multi.empty()) options_.net_multi = LoadNet(weights_multi);
    engine_ =
        std::make_unique<protocol::Engine>(&search::MakeSearcher, options_);
  }

  py::dict Options() const {
    py::dict out;
    for (const protocol::OptionSpec& spec : protocol::AllOptions()) {
      if (spec.hidden) continue;
      out[py::str(std::string(spec.name))] =
          protocol::OptionValueText(options_, spec);
    }
    return out;
  }

  // The analysis JSON answer's text for `pos`, searched as the protocol's
  // analysis query {"maxVisits": visits, "maxTime": seconds} would be.
  std::string Analyze(const Position& pos, std::optional<int64_t> visits,
                      std::optional<double> seconds, std::optional<int> threads,
                      bool ownership, bool policy, const std::string& id) {
    std::unique_lock lock(busy_, std::try_to_lock);
    if (!lock.owns_lock()) {
      throw std::runtime_error("this Engine is already analysing");
    }
    protocol::AnalysisQuery query;
    query.id = id;
    query.max_visits = visits;
    query.max_time_s = seconds;
    query.include_ownership = ownership;
    query.include_policy = policy;
    search::SearchOptions options = protocol::QueryOptions(query, options_);
    if (threads) {
      const protocol::OptionSpec* spec = protocol::FindOption("threads");
      absl::Status s =
          protocol::SetOptionFromText(options, *spec, std::to_string(*threads));
      if (!s.ok()) throw py::value_error(std::string(s.message()));
    }
    if (visits && *visits < 1) throw py::value_error("visits must be >= 1");
    if (seconds && !(*seconds > 0))
      throw py::value_error("seconds must be > 0");
    protocol::TurnAnswer answer;
    answer.id = id;
    answer.turn = 0;
    answer.position = pos;
    answer.include_ownership = ownership;
    answer.include_policy = policy;
    stop_ = false;
    py::gil_scoped_release release;
    engine_->Setup(pos);  // forgets the last analysis, as the protocol's
    if (engine_->game().is_over()) {
      answer.game_over = true;
      answer.info = protocol::FinishedGameInfo(pos, ownership);
      return protocol::AnswerJson(answer);
    }
    engine_->SetOptions(options);
    protocol::SearchControl control;
    control.ownership = ownership;
    control.all_moves = policy;
    control.should_stop = [this] { return stop_.load(); };
    absl::StatusOr<search::SearchResult> result = engine_->Think(control);
    if (result.ok()) answer.info = std::move(result->info);
    answer.terminated = stop_.load();
    return protocol::AnswerJson(answer);
  }

  void Stop() { stop_ = true; }

 private:
  search::SearchOptions options_;
  std::unique_ptr<protocol::Engine> engine_;
  std::mutex busy_;
  std::atomic<bool> stop_{false};
};

}  // namespace

void BindEngine(py::module_& m) {
  m.def(
      "list_options",
      [] {
        py::dict out;
        const search::SearchOptions defaults = protocol::DefaultOptions();
        for (const protocol::OptionSpec& spec : protocol::AllOptions()) {
          if (spec.hidden) continue;
          out[py::str(std::string(spec.name))] =
              protocol::DescribeOption(defaults, spec);
        }
        return out;
      },
      "The engine's options as the protocol's list_options describes them.");
  py::class_<PyEngine>(m, "_Engine")
      .def(
          py::init<const std::string&, const std::string&, const py::kwargs&>(),
          py::arg("weights") = "", py::arg("weights_multi") = "")
      .def_property_readonly("options", &PyEngine::Options)
      .def(
          "analyze_json",
          [](PyEngine& engine, const py::handle& game,
             std::optional<int64_t> visits, std::optional<double> seconds,
             std::optional<int> threads, bool ownership, bool policy,
             const std::string& id) {
            return engine.Analyze(GamePosition(game), visits, seconds, threads,
                                  ownership, policy, id);
          },
          py::arg("game"), py::kw_only(), py::arg("visits") = py::none(),
          py::arg("seconds") = py::none(), py::arg("threads") = py::none(),
          py::arg("ownership") = false, py::arg("policy") = false,
          py::arg("id") = "")
      .def("stop", &PyEngine::Stop);
}

}  // namespace wallgo::python
