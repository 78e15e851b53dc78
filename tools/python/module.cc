// The Python module wallgo's compiled part, wallgo._wallgo (docs/python.md):
// thin bindings over the engine (rules), the search and the protocol's
// option table and JSON analysis. Nothing here re-implements a rule.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/version/version.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "engine/regions.h"
#include "engine/symmetry.h"
#include "protocol/solve_text.h"
#include "search/net/features.h"
#include "tools/python/action_space.h"
#include "tools/python/data_binding.h"
#include "tools/python/engine_binding.h"
#include "tools/python/game_object.h"
#include "tools/python/vector_env.h"

namespace py = pybind11;

namespace wallgo::python {
namespace {

// A failed status as Python's ValueError (bad input, never a crash).
void ThrowIfError(const absl::Status& status, absl::string_view context = "") {
  if (status.ok()) return;
  throw py::value_error(context.empty()
                            ? std::string(status.message())
                            : absl::StrCat(context, ": ", status.message()));
}
template <typename T>
T ValueOrThrow(absl::StatusOr<T> value, absl::string_view context = "") {
  ThrowIfError(value.status(), context);
  return *std::move(value);
}

Rules RulesFromText(const std::string& text) {
  return ValueOrThrow(ParseRules(text), "bad rules");
}

template <typename T>
py::array_t<T> NewArray(std::vector<py::ssize_t> shape) {
  return py::array_t<T>(shape);
}

// The move a Python value names: notation text or an integer action.
Move MoveFromPython(const py::handle& value) {
  if (py::isinstance<py::str>(value)) {
    return ValueOrThrow(ParseMove(value.cast<std::string>()));
  }
  if (PyIndex_Check(value.ptr()) && !PyBool_Check(value.ptr())) {
    const auto index =
        py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
    if (!index) throw py::error_already_set();
    int overflow = 0;
    const long long action =
        PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    const std::optional<Move> move =
        overflow ? std::nullopt : ActionToMove(action);
    if (!move) {
      throw py::value_error(absl::StrCat("action ", std::string(py::str(index)),
                                         " is not a move on the board (0..",
                                         kActionSize - 1, ")"));
    }
    return *move;
  }
  throw py::type_error(
      absl::StrCat("a move is notation (str) or an action (int), not ",
                   std::string(py::str(py::type::of(value).attr("__name__")))));
}

// Every action's notation as a Python string, made once: legal_moves()
// hands out references instead of making a string per move. Never freed
// (it must outlive every list holding its strings).
PyObject* ActionName(int action) {
  static const auto* const names = [] {
    auto* table = new std::vector<PyObject*>(kActionSize, nullptr);
    for (int a = 0; a < kActionSize; ++a) {
      if (const std::optional<Move> move = ActionToMove(a)) {
        const std::string name = MoveName(*move);
        (*table)[a] = PyUnicode_InternFromString(name.c_str());
      }
    }
    return table;
  }();
  return (*names)[action];
}

int SymmetryIndex(int s) {
  if (s < 0 || s >= kNumSymmetries) {
    throw py::value_error(absl::StrCat("symmetry ", s, " is not in 0..7"));
  }
  return s;
}

// Python's Game: the engine's Game (history, undo, resign).
class PyGame {
 public:
  explicit PyGame(const std::string& rules)
      : game_(ValueOrThrow(wallgo::Game::New(RulesFromText(rules)),
                           "bad rules")) {}
  explicit PyGame(const Position& start) : game_(start) {}

  static PyGame FromPosition(const std::string& text) {
    return PyGame(ValueOrThrow(ParsePosition(text)));
  }

  const Position& pos() const { return game_.position(); }
  const wallgo::Game& game() const { return game_; }

  std::vector<Move> Moves() const {
    MoveList list;
    GenerateMoves(pos(), list);
    return {list.begin(), list.end()};
  }
  // A list built with the C API: pybind11's vector casters cost more than
  // the move generation itself.
  py::list LegalMoves() const {
    MoveList moves;
    GenerateMoves(pos(), moves);
    py::list names(moves.size());
    for (int i = 0; i < moves.size(); ++i) {
      PyObject* name = ActionName(*MoveToAction(moves[i]));
      Py_INCREF(name);
      PyList_SET_ITEM(names.ptr(), i, name);
    }
    return names;
  }
  py::list LegalActions() const {
    MoveList moves;
    GenerateMoves(pos(), moves);
    py::list actions(moves.size());
    for (int i = 0; i < moves.size(); ++i) {
      PyList_SET_ITEM(actions.ptr(), i,
                      PyLong_FromLong(*MoveToAction(moves[i])));
    }
    return actions;
  }
  py::array_t<bool> LegalActionMask() const {
    auto mask = NewArray<bool>({kActionSize});
    std::fill_n(mask.mutable_data(), kActionSize, false);
    for (const Move& m : Moves()) mask.mutable_data()[*MoveToAction(m)] = true;
    return mask;
  }

  void Play(const py::handle& value) {
    const Move move = MoveFromPython(value);
    const absl::Status played = game_.Play(pos().to_move(), move);
    if (played.ok()) return;
    // The engine's reason, prefixed as the protocol's play answers it.
    throw py::value_error(absl::StartsWith(played.message(), "illegal move: ")
                              ? std::string(played.message())
                              : absl::StrCat("illegal move: ", MoveName(move),
                                             ": ", played.message()));
  }
  void Undo() { ThrowIfError(game_.Undo()); }

  std::vector<int> Scores() const {
    const ScoreSheet sheet = ComputeScores(pos());
    return {sheet.score.begin(), sheet.score.begin() + pos().num_players()};
  }
  // The winners' colour indices (several: a draw shared among them), or
  // None while the game goes on.
  std::optional<std::vector<int>> Winners() const {
    if (!game_.is_over()) return std::nullopt;
    return game_.result().winner_indices();
  }
  std::vector<float> Rewards() const {
    if (!game_.is_over()) return std::vector<float>(pos().num_players(), 0);
    std::vector<float> rewards(pos().num_players());
    const Result result = game_.result();
    for (int p = 0; p < result.players; ++p) rewards[p] = result.reward(p);
    return rewards;
  }

  py::array_t<int8_t> Stones() const {
    auto board = NewArray<int8_t>({kBoardSize, kBoardSize});
    std::fill_n(board.mutable_data(), kNumCells, -1);
    for (int p = 0; p < pos().num_players(); ++p) {
      for (Bitboard b = pos().stones(ColourAt(p)); b; b = PopLowest(b)) {
        board.mutable_data()[LowestCell(b)] = static_cast<int8_t>(p);
      }
    }
    return board;
  }
  py::array_t<int8_t> Walls() const {
    auto walls = NewArray<int8_t>({2, kBoardSize, kBoardSize});
    int8_t* out = walls.mutable_data();
    std::fill_n(out, 2 * kNumCells, -1);
    for (int p = 0; p < pos().num_players(); ++p) {
      const WallMasks& mine = pos().walls_of(ColourAt(p));
      for (Bitboard b = mine.north; b; b = PopLowest(b)) {
        out[LowestCell(b)] = static_cast<int8_t>(p);
      }
      for (Bitboard b = mine.east; b; b = PopLowest(b)) {
        out[kNumCells + LowestCell(b)] = static_cast<int8_t>(p);
      }
    }
    return walls;
  }
  py::array_t<int8_t> Territory() const {
    auto board = NewArray<int8_t>({kBoardSize, kBoardSize});
    const CellOwners owners = ComputeCellOwners(pos());
    std::copy(owners.begin(), owners.end(), board.mutable_data());
    return board;
  }
  py::array_t<uint8_t> Observation() const {
    auto planes =
        NewArray<uint8_t>({kObservationPlanes, kBoardSize, kBoardSize});
    WriteObservation(pos(), planes.mutable_data());
    return planes;
  }
  py::array_t<uint16_t> Features() const {
    search::net::Features features;
    search::net::ExtractFeatures(pos(), features);
    auto out = NewArray<uint16_t>({features.count});
    std::copy_n(features.active.begin(), features.count, out.mutable_data());
    std::sort(out.mutable_data(), out.mutable_data() + features.count);
    return out;
  }

  PyGame Symmetry(int s) const {
    return PyGame(ValueOrThrow(TransformPosition(SymmetryIndex(s), pos()),
                               absl::StrCat("symmetry ", s)));
  }

  uint64_t Perft(int depth) const {
    if (depth < 0) throw py::value_error("perft depth must be >= 0");
    const Position start = pos();
    py::gil_scoped_release release;
    return wallgo::Perft(start, depth);
  }

 private:
  wallgo::Game game_;
};

}  // namespace

py::object MakeGame(const Position& pos) { return py::cast(PyGame(pos)); }

const Position& GamePosition(const py::handle& game) {
  if (!py::isinstance<PyGame>(game)) {
    throw py::type_error("expected a wallgo.Game");
  }
  return game.cast<const PyGame&>().pos();
}

namespace {

using Shape = std::vector<py::ssize_t>;

// A VectorEnv property that views one of its buffers as numpy's `DType`
// (no copy; the view keeps the environment alive).
template <typename DType, typename T, typename ShapeOf>
auto ViewOf(T* (VectorEnv::*buffer)(), ShapeOf shape_of) {
  static_assert(sizeof(DType) == sizeof(T));
  return [buffer, shape_of](py::object self) {
    auto& env = self.cast<VectorEnv&>();
    return py::array(py::dtype::of<DType>(), shape_of(env), (env.*buffer)(),
                     self);
  };
}
Shape PerGame(const VectorEnv& env) { return {env.num_envs()}; }

}  // namespace
}  // namespace wallgo::python

PYBIND11_MODULE(_wallgo, m) {
  using namespace wallgo;
  using namespace wallgo::python;
  m.doc() = "Wall Go's rules, search and data from C++ (see docs/python.md).";
  m.attr("__version__") = std::string(Version());
  m.attr("ACTION_SIZE") = kActionSize;
  m.attr("PASS_ACTION") = kPassAction;
  m.attr("OBSERVATION_PLANES") = kObservationPlanes;
  m.attr("NUM_FEATURES") = search::net::kNumFeatures;
  m.attr("NUM_SYMMETRIES") = kNumSymmetries;

  m.def(
      "action_to_move",
      [](int64_t action) {
        const std::optional<Move> move = ActionToMove(action);
        if (!move) {
          throw py::value_error(
              absl::StrCat("action ", action, " is not a move on the board"));
        }
        return MoveName(*move);
      },
      py::arg("action"), "The notation of an integer action.");
  m.def(
      "move_to_action",
      [](const std::string& text) {
        const Move move = ValueOrThrow(ParseMove(text));
        const std::optional<int> action = MoveToAction(move);
        if (!action) throw py::value_error(text + " has no action");
        return *action;
      },
      py::arg("move"), "The integer action of a move in notation.");
  m.def(
      "transform_action",
      [](int s, int64_t action) {
        const std::optional<Move> move = ActionToMove(action);
        if (!move) throw py::value_error(absl::StrCat("bad action ", action));
        return *MoveToAction(TransformMove(SymmetryIndex(s), *move));
      },
      py::arg("symmetry"), py::arg("action"),
      "The action `action` becomes under symmetry 0..7 (Game.symmetry).");
  m.def(
      "normalize_rules",
      [](const std::string& text) { return RulesString(RulesFromText(text)); },
      py::arg("rules"), "The full rules string of a rules text.");

  py::class_<PyGame>(m, "Game", "A game of Wall Go under any rules variant.")
      .def(py::init<const std::string&>(), py::arg("rules") = "players=2",
           "A new game; `rules` as the protocol's newgame takes them.")
      .def_static("from_position", &PyGame::FromPosition, py::arg("position"),
                  "A game starting from a position string (no history).")
      .def_property_readonly(
          "rules", [](const PyGame& g) { return RulesString(g.pos().rules()); },
          "The rules as the protocol's `rules` prints them.")
      .def_property_readonly(
          "num_players", [](const PyGame& g) { return g.pos().num_players(); },
          "Players in the game (2-4).")
      .def_property_readonly(
          "to_move", [](const PyGame& g) { return Index(g.pos().to_move()); },
          "The colour index (0 red, 1 blue, 2 green, 3 yellow) to move.")
      .def_property_readonly(
          "in_setup", [](const PyGame& g) { return g.pos().in_setup(); },
          "Stones are still being placed.")
      .def_property_readonly(
          "is_over", [](const PyGame& g) { return g.game().is_over(); },
          "The game has ended (settled, no moves, resign).")
      .def_property_readonly("scores", &PyGame::Scores,
                             "Each player's cells of owned regions.")
      .def_property_readonly(
          "result", &PyGame::Winners,
          "The winners' colour indices (more than one: a shared draw), or "
          "None while the game goes on.")
      .def_property_readonly(
          "rewards", &PyGame::Rewards,
          "Each player's reward: 0 while the game goes on; then +1 for the "
          "sole winner, 0 for a shared draw, -1 for the others.")
      .def_property_readonly(
          "moves",
          [](const PyGame& g) {
            std::vector<std::string> names;
            for (const Move& m : g.game().moves()) names.push_back(MoveName(m));
            return names;
          },
          "The moves played since the start, in notation.")
      .def("legal_moves", &PyGame::LegalMoves,
           "The side to move's legal moves in notation (empty when over).")
      .def("legal_actions", &PyGame::LegalActions,
           "The legal moves as integer actions, in the same order.")
      .def("legal_action_mask", &PyGame::LegalActionMask,
           "A bool array of ACTION_SIZE, True at each legal action.")
      .def("play", &PyGame::Play, py::arg("move"),
           "Plays a move (notation or integer action) for the side to move. "
           "ValueError saying why when it is illegal; the game is unchanged.")
      .def("undo", &PyGame::Undo, "Takes back the last move.")
      .def(
          "position", [](const PyGame& g) { return PositionString(g.pos()); },
          "The position as the protocol's one-line string.")
      .def("perft", &PyGame::Perft, py::arg("depth"),
           "Legal move sequences of `depth` plies from here.")
      .def(
          "solve",
          [](const PyGame& g, double seconds, int64_t nodes, int hash_mb) {
            if (seconds <= 0 && nodes <= 0) {
              throw py::value_error("solve needs seconds > 0 or nodes > 0");
            }
            search::SolverLimits limits;
            limits.seconds = seconds;
            limits.nodes = nodes;
            limits.hash_mb = hash_mb;
            const search::SolveResult r = search::Solve(g.pos(), limits);
            return py::module_::import("json").attr("loads")(
                protocol::SolveJson(g.pos(), r));
          },
          py::arg("seconds") = 1.0, py::arg("nodes") = 0,
          py::arg("hash_mb") = 64,
          "The endgame solver (docs/solver.md): a dict with 'proven' and, "
          "when proven, the side to move's 'result' and 'margin', every "
          "player's 'values', the 'optimal' moves and a 'pv'; unproven with "
          "two players, the 'range' of its value proven so far ('least', "
          "'most'). seconds <= 0 or nodes 0: no such limit (one of them is "
          "needed).")
      .def("stones", &PyGame::Stones,
           "int8 [7, 7] ([row, column], a1 = [0, 0]): colour index, -1 empty.")
      .def("walls", &PyGame::Walls,
           "int8 [2, 7, 7]: builder of the wall on each cell's north edge "
           "([0]) and east edge ([1]), -1 none.")
      .def("territory", &PyGame::Territory,
           "int8 [7, 7]: the owner of each cell's region: colour index, -1 "
           "no stones, -2 several colours.")
      .def("observation", &PyGame::Observation,
           "uint8 [6, 7, 7]: stones of slots 0-3 (0 = side to move), walls "
           "on north and east edges (VectorEnv's observation).")
      .def("features", &PyGame::Features,
           "The network's active input features (sorted uint16 indices).")
      .def("symmetry", &PyGame::Symmetry, py::arg("symmetry"),
           "The position moved by symmetry 0..7, as a new game (ValueError "
           "when that position cannot arise under the rules).")
      .def(
          "copy", [](const PyGame& g) { return PyGame(g); },
          "An independent copy (history included).")
      .def("__copy__", [](const PyGame& g) { return PyGame(g); })
      .def("__repr__", [](const PyGame& g) {
        return "wallgo.Game.from_position('" + PositionString(g.pos()) + "')";
      });

  py::class_<VectorEnv>(m, "VectorEnv",
                        "n games stepped together in C++ (docs/python.md).")
      .def(py::init([](int n, const std::string& rules, uint64_t seed) {
             if (n < 1) throw py::value_error("VectorEnv needs n >= 1");
             return std::make_unique<VectorEnv>(
                 n, ValueOrThrow(Position::Start(RulesFromText(rules))), seed);
           }),
           py::arg("n"), py::arg("rules") = "players=2", py::arg("seed") = 0)
      .def_property_readonly("num_envs", &VectorEnv::num_envs, "n, the games.")
      .def_property_readonly("num_players", &VectorEnv::num_players,
                             "Players in each game.")
      .def_property_readonly(
          "observations",
          ViewOf<uint8_t>(&VectorEnv::observations,
                          [](const VectorEnv& env) {
                            return Shape{env.num_envs(), kObservationPlanes,
                                         kBoardSize, kBoardSize};
                          }),
          "uint8 [n, 6, 7, 7] view (Game.observation of each game).")
      .def_property_readonly(
          "masks",
          ViewOf<bool>(&VectorEnv::masks,
                       [](const VectorEnv& env) {
                         return Shape{env.num_envs(), kActionSize};
                       }),
          "bool [n, ACTION_SIZE] view: the legal actions of each game.")
      .def_property_readonly(
          "rewards",
          ViewOf<float>(&VectorEnv::rewards,
                        [](const VectorEnv& env) {
                          return Shape{env.num_envs(), env.num_players()};
                        }),
          "float32 [n, players] view: each player's reward of the games "
          "that ended in the last step, else 0.")
      .def_property_readonly(
          "dones", ViewOf<bool>(&VectorEnv::dones, PerGame),
          "bool [n] view: the game ended in the last step (and restarted).")
      .def_property_readonly(
          "to_move", ViewOf<int8_t>(&VectorEnv::to_move, PerGame),
          "int8 [n] view: the colour index to move in each game.")
      .def(
          "step",
          [](py::object self,
             const py::array_t<int64_t, py::array::c_style |
                                            py::array::forcecast>& actions) {
            auto& env = self.cast<VectorEnv&>();
            if (actions.ndim() != 1) {
              throw py::value_error("actions must be a 1-d array of n ints");
            }
            ThrowIfError(env.Step(
                {actions.data(), static_cast<size_t>(actions.size())}));
            return py::make_tuple(self.attr("observations"), self.attr("masks"),
                                  self.attr("rewards"), self.attr("dones"));
          },
          py::arg("actions"),
          "Plays one action per game; returns (observations, masks, rewards, "
          "dones), views that the next step overwrites.")
      .def(
          "reset",
          [](py::object self) {
            self.cast<VectorEnv&>().Reset();
            return py::make_tuple(self.attr("observations"),
                                  self.attr("masks"));
          },
          "Every game back to the start; returns (observations, masks).")
      .def(
          "random_actions",
          [](VectorEnv& env) {
            auto out = NewArray<int64_t>({env.num_envs()});
            env.RandomActions(
                {out.mutable_data(), static_cast<size_t>(env.num_envs())});
            return out;
          },
          "A uniformly random legal action per game (from the seed).")
      .def(
          "game",
          [](const VectorEnv& env, int i) {
            if (i < 0 || i >= env.num_envs()) {
              throw py::index_error(absl::StrCat("no game ", i));
            }
            return PyGame(env.position(i));
          },
          py::arg("i"), "Game i's current position as a Game (a copy).");

  BindEngine(m);
  BindData(m);
}
