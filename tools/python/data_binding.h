// wallgo.data's compiled part: the self-play data and example files'
// layouts straight from their C++ structs (tools/train_data/training_data.h,
// examples.h), a data record's position and moves through the engine, and
// the network file's layout (search/net/network.h) for the trainer's writer.
#pragma once

#include <pybind11/pybind11.h>

namespace wallgo::python {

void BindData(pybind11::module_& m);

}  // namespace wallgo::python
