#include "tools/python/data_binding.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "engine/notation.h"
#include "engine/symmetry.h"
#include "search/net/feature_symmetry.h"
#include "search/net/network.h"
#include "tools/python/game_object.h"
#include "tools/train_data/examples.h"
#include "tools/train_data/training_data.h"

namespace py = pybind11;

namespace wallgo::python {

namespace {

using train_data::DataRecord;
using train_data::Example;

// numpy's little-endian format of a scalar type.
template <typename T>
std::string Format() {
  static_assert(std::is_arithmetic_v<T>);
  const char kind = std::is_floating_point_v<T> ? 'f'
                    : std::is_signed_v<T>       ? 'i'
                                                : 'u';
  return std::string("<") + kind + std::to_string(sizeof(T));
}

// One field as (name, offset, format, shape): numpy's dtype is built from
// these in wallgo/data.py, so it cannot drift from the C++ struct.
template <typename Struct, typename Field>
py::tuple FieldOf(const char* name, size_t offset) {
  using Scalar = std::remove_all_extents_t<Field>;
  py::list shape;
  if constexpr (std::rank_v<Field> >= 1) shape.append(std::extent_v<Field, 0>);
  if constexpr (std::rank_v<Field> >= 2) shape.append(std::extent_v<Field, 1>);
  return py::make_tuple(name, offset, Format<Scalar>(), py::tuple(shape));
}
#define WALLGO_FIELD(Struct, name) \
  FieldOf<Struct, decltype(Struct::name)>(#name, offsetof(Struct, name))

py::list RecordFields() {
  py::list f;
  for (auto t : {WALLGO_FIELD(DataRecord, stones),
                 WALLGO_FIELD(DataRecord, wall_north),
                 WALLGO_FIELD(DataRecord, wall_east),
                 WALLGO_FIELD(DataRecord, game),
                 WALLGO_FIELD(DataRecord, total_visits),
                 WALLGO_FIELD(DataRecord, search_win),
                 WALLGO_FIELD(DataRecord, search_margin),
                 WALLGO_FIELD(DataRecord, ply),
                 WALLGO_FIELD(DataRecord, game_length),
                 WALLGO_FIELD(DataRecord, num_moves),
                 WALLGO_FIELD(DataRecord, reserved),
                 WALLGO_FIELD(DataRecord, players),
                 WALLGO_FIELD(DataRecord, setup),
                 WALLGO_FIELD(DataRecord, stay),
                 WALLGO_FIELD(DataRecord, to_move),
                 WALLGO_FIELD(DataRecord, wall_limit),
                 WALLGO_FIELD(DataRecord, breakers),
                 WALLGO_FIELD(DataRecord, placements_done),
                 WALLGO_FIELD(DataRecord, winners),
                 WALLGO_FIELD(DataRecord, breakers_left),
                 WALLGO_FIELD(DataRecord, final_score),
                 WALLGO_FIELD(DataRecord, final_owner),
                 WALLGO_FIELD(DataRecord, reserved2),
                 WALLGO_FIELD(DataRecord, moves),
                 WALLGO_FIELD(DataRecord, visits)}) {
    f.append(t);
  }
  return f;
}

py::list ExampleFields() {
  py::list f;
  for (auto t :
       {WALLGO_FIELD(Example, features), WALLGO_FIELD(Example, move_index),
        WALLGO_FIELD(Example, visit_share), WALLGO_FIELD(Example, win),
        WALLGO_FIELD(Example, score), WALLGO_FIELD(Example, search_win),
        WALLGO_FIELD(Example, data_index), WALLGO_FIELD(Example, game),
        WALLGO_FIELD(Example, num_features), WALLGO_FIELD(Example, num_moves),
        WALLGO_FIELD(Example, owner), WALLGO_FIELD(Example, players),
        WALLGO_FIELD(Example, in_setup), WALLGO_FIELD(Example, finished),
        WALLGO_FIELD(Example, reserved)}) {
    f.append(t);
  }
  return f;
}
#undef WALLGO_FIELD

// One permutation table per symmetry as a [kNumSymmetries, size] array.
template <typename Table>
py::array_t<uint16_t> SymmetryTable(Table (*table)(int)) {
  const auto size = static_cast<py::ssize_t>(table(0).size());
  py::array_t<uint16_t> out({static_cast<py::ssize_t>(kNumSymmetries), size});
  auto rows = out.mutable_unchecked<2>();
  for (int s = 0; s < kNumSymmetries; ++s) {
    const Table row = table(s);
    for (py::ssize_t i = 0; i < size; ++i) rows(s, i) = row[i];
  }
  return out;
}

std::array<uint16_t, kNumCells> CellPermutation(int s) {
  std::array<uint16_t, kNumCells> cells;
  for (int c = 0; c < kNumCells; ++c)
    cells[c] = static_cast<uint16_t>(TransformCell(s, c));
  return cells;
}

// The DataRecord a numpy record (or its bytes) holds.
DataRecord RecordFromBytes(const py::buffer& buffer) {
  const py::buffer_info info = buffer.request();
  if (info.size * info.itemsize !=
      static_cast<py::ssize_t>(sizeof(DataRecord))) {
    throw py::value_error("not one data record (" +
                          std::to_string(sizeof(DataRecord)) + " bytes)");
  }
  DataRecord record;
  std::memcpy(&record, info.ptr, sizeof record);
  return record;
}

}  // namespace

void BindData(py::module_& m) {
  m.def("_data_layout", [] {
    py::dict layout;
    layout["record_fields"] = RecordFields();
    layout["record_bytes"] = sizeof(DataRecord);
    layout["data_header_bytes"] = train_data::kDataHeaderBytes;
    layout["example_fields"] = ExampleFields();
    layout["example_bytes"] = sizeof(Example);
    layout["example_header_bytes"] = train_data::kExampleHeaderBytes;
    layout["example_magic"] =
        py::bytes(train_data::kExampleMagic, sizeof train_data::kExampleMagic);
    const auto fields = train_data::ExampleHeaderFields();
    layout["example_header_fields"] =
        std::vector<uint32_t>(fields.begin(), fields.end());
    layout["policy_size"] = search::net::kPolicySize;
    return layout;
  });
  m.def("_network_layout", [] {
    namespace net = search::net;
    py::dict layout;
    layout["magic"] = py::bytes(net::kNetMagic, sizeof net::kNetMagic);
    layout["version"] = net::kNetVersion;
    layout["header_bytes"] = net::kNetHeaderBytes;
    layout["feature_set"] = net::kFeatureSetVersion;
    layout["hidden1_widths"] = std::vector<uint32_t>(
        net::kHidden1Widths.begin(), net::kHidden1Widths.end());
    layout["hidden2"] = net::kHidden2;
    layout["value_outputs"] = net::kValueOutputs;
    layout["owner_classes"] = net::kOwnerClasses;
    layout["ownership_outputs"] = net::kOwnershipOutputs;
    layout["score_scale"] = net::kScoreScale;
    layout["max_first_layer_weight"] = net::kMaxFirstLayerWeight;
    return layout;
  });
  m.def("_symmetry_tables", [] {
    py::dict tables;
    tables["features"] = SymmetryTable(&search::net::FeaturePermutation);
    tables["policy"] = SymmetryTable(&search::net::PolicyPermutation);
    tables["cells"] = SymmetryTable(&CellPermutation);
    return tables;
  });
  m.def(
      "_fnv1a64",
      [](const py::bytes& data) {
        return search::net::Fnv1a64(std::string_view(data));
      },
      py::arg("data"));
  m.def(
      "_check_data_file",
      [](const std::string& path) {
        auto header = train_data::ReadDataHeader(path);
        if (!header.ok())
          throw py::value_error(std::string(header.status().message()));
      },
      py::arg("path"));
  m.def(
      "_record_game",
      [](const py::buffer& record) {
        auto pos = train_data::RecordPosition(RecordFromBytes(record));
        if (!pos.ok())
          throw py::value_error(std::string(pos.status().message()));
        return MakeGame(*pos);
      },
      py::arg("record"));
  m.def(
      "_record_moves",
      [](const py::buffer& buffer) {
        const DataRecord record = RecordFromBytes(buffer);
        if (record.num_moves > train_data::kMaxRecordMoves) {
          throw py::value_error("a record with too many moves");
        }
        std::vector<std::string> names;
        for (int i = 0; i < record.num_moves; ++i) {
          auto move = train_data::UnpackMove(record.moves[i]);
          if (!move.ok())
            throw py::value_error(std::string(move.status().message()));
          names.push_back(MoveName(*move));
        }
        return names;
      },
      py::arg("record"));
}

}  // namespace wallgo::python
