"""wallgo.data: self-play data read through the engine's layouts, against
real files from wallgo-net and the trainer's own reader."""

import os
import subprocess
import sys

import numpy as np
import pytest

import wallgo
import wallgo.data


def tool(name):
    path = os.path.join(os.path.dirname(os.environ.get("WALLGO_BIN", "")), name)
    if not os.path.exists(path):
        pytest.skip(f"{name} is not built")
    return path


@pytest.fixture(scope="module")
def data_file(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("data") / "games.wgd")
    subprocess.run([tool("wallgo-net"), "generate", "--out", path, "--games", "3",
                    "--visits", "20", "--rules", "players=3", "--quiet"], check=True)
    subprocess.run([tool("wallgo-net"), "features", "--data", path],
                   check=True, capture_output=True)
    return path


def trainer_reader():
    sys.path.insert(0, os.path.join(os.environ["WALLGO_SOURCE_DIR"], "tools", "train"))
    import wallgo_data
    return wallgo_data


def test_layouts_equal_the_trainers():
    wd = trainer_reader()
    assert wallgo.data.DATA_DTYPE == wd.DATA_DTYPE
    assert wallgo.data.EXAMPLE_DTYPE == wd.EXAMPLE_DTYPE
    assert wallgo.data.DATA_HEADER_BYTES == wd.DATA_HEADER_BYTES


def test_records_hold_positions_and_their_legal_moves(data_file):
    records = wallgo.data.read_data(data_file)
    assert len(records) > 20 and (records["players"] == 3).all()
    for record in records:
        game = wallgo.data.record_game(record)
        assert game.to_move == record["to_move"]
        assert wallgo.data.record_moves(record) == game.legal_moves()
    # consecutive records of a game are one move apart
    first = wallgo.data.record_game(records[0])
    second = wallgo.data.record_game(records[1])
    after = []
    for move in first.legal_moves():
        game = first.copy()
        game.play(move)
        after.append(game.position())
    assert after.count(second.position()) == 1


def test_examples_equal_the_trainers_reading(data_file):
    ours = wallgo.data.read_examples(data_file + ".examples")
    theirs = trainer_reader().read_examples(data_file + ".examples")
    assert len(ours) == len(wallgo.data.read_data(data_file))
    assert np.array_equal(np.asarray(ours), np.asarray(theirs))
    for example, record in zip(ours[:10], wallgo.data.read_data(data_file)[:10]):
        game = wallgo.data.record_game(record)
        n = example["num_features"]
        assert sorted(example["features"][:n].tolist()) == game.features().tolist()


def test_bad_files_are_value_errors(tmp_path):
    bad = tmp_path / "bad.wgd"
    bad.write_bytes(b"not a data file" * 40)
    with pytest.raises(ValueError):
        wallgo.data.read_data(str(bad))
    with pytest.raises(ValueError):
        wallgo.data.read_examples(str(bad))
    with pytest.raises(ValueError):
        wallgo.data.read_data(str(tmp_path / "missing.wgd"))
    with pytest.raises(ValueError, match="not one data record"):
        wallgo.data.record_game(np.zeros(10, np.uint8))
