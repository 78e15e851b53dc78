"""Finds the Python module wallgo (tools/python, docs/python.md) for the
trainer's scripts, which read the self-play data and the network file's
layout through it (one implementation, the engine's).

Where it looks, in order: where python already finds it (PYTHONPATH, or
installed under /usr/local or /usr); beside an installed trainer
(PREFIX/share/wallgo/train -> PREFIX/lib/python3.X/dist-packages); the
source tree's build folder (build/python), so that tools/train/*.py run
from a checkout after `cmake --build build`.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def candidates():
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    yield os.path.join(HERE, "..", "..", "..", "lib", version, "dist-packages")
    yield os.path.join(HERE, "..", "..", "build", "python")


def add_module_path():
    """Makes `import wallgo` work, or exits saying how to build it."""
    if importlib.util.find_spec("wallgo") is not None:
        return
    for folder in candidates():
        if os.path.exists(os.path.join(folder, "wallgo", "__init__.py")):
            sys.path.insert(0, os.path.abspath(folder))
            return
    sys.exit(f"{os.path.basename(sys.argv[0])}: the trainer reads its data through the Python "
             "module wallgo, which python cannot find: build it (cmake --build build, which "
             "needs pybind11-dev) and set PYTHONPATH=build/python, or install it (cmake --install)")
