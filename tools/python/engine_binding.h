// wallgo.Engine: the engine's search in process, with the protocol's option
// table and its JSON analysis answers (docs/python.md).
#pragma once

#include <pybind11/pybind11.h>

namespace wallgo::python {

void BindEngine(pybind11::module_& m);

}  // namespace wallgo::python
