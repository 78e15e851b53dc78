"""The type stubs name exactly what the compiled module has, and every
public function and class has a docstring (for editors and help())."""

import ast
import os

import wallgo
from wallgo import _wallgo


def stub_tree():
    path = os.path.join(os.path.dirname(wallgo.__file__), "_wallgo.pyi")
    with open(path) as f:
        return ast.parse(f.read())


def public(names):
    return {n for n in names if not n.startswith("__")}


def test_stubs_match_the_module():
    tree = stub_tree()
    top = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members = {m.name for m in node.body if isinstance(m, ast.FunctionDef)}
            actual = public(dir(getattr(_wallgo, node.name))) - public(dir(object))
            assert public(members) - {"__init__"} == actual - {"__init__"}, node.name
    assert public(top) == public(dir(_wallgo))
    # The one dunder the stubs state: the version (CMakeLists.txt's).
    assert "__version__" in top and isinstance(_wallgo.__version__, str)


def test_public_api_has_docstrings():
    for name in wallgo.__all__:
        item = getattr(wallgo, name)
        if callable(item):
            assert item.__doc__, name
    for cls in (wallgo.Game, wallgo.VectorEnv):
        for name in public(dir(cls)) - public(dir(object)):
            if not name.startswith("_"):
                assert getattr(cls, name).__doc__, f"{cls.__name__}.{name}"
