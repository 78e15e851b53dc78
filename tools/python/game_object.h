// wallgo.Game as the other bindings see it: module.cc defines the class,
// and the engine's and the data's bindings take and make its objects.
#pragma once

#include <pybind11/pybind11.h>

#include "engine/position.h"

namespace wallgo::python {

// A wallgo.Game of `pos`.
pybind11::object MakeGame(const Position& pos);
// The position of a wallgo.Game; TypeError for anything else.
const Position& GamePosition(const pybind11::handle& game);

}  // namespace wallgo::python
