"""Shared pieces of the wallgo module's tests: the engine executable over the
text protocol (the reference every answer is compared with) and the rules
variants."""

import os
import sys

import pytest

# Every kind of rules ParseRules takes (docs/rules.md): 2-4 players, both
# setups, both stay rules, wall limits, breakers.
VARIANTS = [
    "players=2",
    "players=2 setup=empty",
    "players=2 stay=mobile",
    "players=2 wall-limit=3",
    "players=2 setup=empty stay=mobile wall-limit=0",
    "players=3",
    "players=3 breakers=0 stay=mobile",
    "players=3 wall-limit=4",
    "players=4",
    "players=4 breakers=0 wall-limit=2 stay=mobile",
]


def engine_path():
    path = os.environ.get("WALLGO_BIN")
    if not path:
        pytest.skip("WALLGO_BIN (build/bin/wallgo) is not set")
    return path


class Gtp:
    """The engine in GTP mode (the scripts' client, tools/client): send a
    command, get its answer's text."""

    def __init__(self):
        sys.path.insert(0, os.path.join(os.environ["WALLGO_SOURCE_DIR"],
                                        "tools", "client"))
        from wallgo_client import Protocol
        self.engine = Protocol([engine_path()])

    def ask(self, command):
        """The answer's text after '= '; ValueError on a '?' answer."""
        text = "\n".join(self.engine.exchange(command))
        if text.startswith("?"):
            raise ValueError(text[2:])
        return text[2:] if text.startswith("= ") else text[1:]

    def close(self):
        self.engine.proc.stdin.close()
        self.engine.proc.wait(timeout=10)


@pytest.fixture
def gtp():
    client = Gtp()
    yield client
    client.close()
