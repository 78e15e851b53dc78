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


def trainer():
    """tools/train/train.py, which reads its data through this module."""
    sys.path.insert(0, os.path.join(os.environ["WALLGO_SOURCE_DIR"], "tools", "train"))
    import train
    return train


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


def test_the_trainers_batches_are_the_records_positions(data_file, tmp_path):
    """What the trainer learns from, read from the file and from packed
    shards: each row's features are those the module computes for the
    position of the data record the trainer pairs it with (the record it
    writes into fixtures), its legal moves and players are that position's."""
    train = trainer()
    records = wallgo.data.read_data(data_file)
    shards = str(tmp_path / "shards")
    manifest = wallgo.data.pack(data_file, shards, positions=10)
    assert len(manifest["shards"]) > 1
    for path in (data_file, shards):
        examples, raws = [], []
        for source in train.sources([path]):
            part, record_of = source.load()
            examples.append(np.asarray(part))
            raws += [record_of(i) for i in range(len(part))]
        batch = train.Batch(np.concatenate(examples))
        assert len(raws) == len(records) == len(batch.features)
        for row, raw in enumerate(raws):
            assert raw == np.asarray(records[row]).tobytes()
            game = wallgo.data.record_game(np.frombuffer(raw, wallgo.data.DATA_DTYPE)[0])
            features = batch.features[row]
            active = features[features != wallgo.NUM_FEATURES]
            assert sorted(active.tolist()) == game.features().tolist()
            assert int(batch.num_moves[row]) == len(game.legal_moves())
            assert int(batch.players[row]) == game.num_players


def test_symmetry_tables_move_positions_as_game_symmetry_does():
    """The trainer's augmentation tables (wallgo.net.symmetry_tables) map a
    position's features and stones to those of the position under the same
    symmetry (Game.symmetry), along random games."""
    import wallgo.net
    tables = wallgo.net.symmetry_tables()
    assert tables["features"].shape == (wallgo.NUM_SYMMETRIES, wallgo.NUM_FEATURES + 1)
    assert tables["policy"].shape == (wallgo.NUM_SYMMETRIES, wallgo.data.POLICY_SIZE + 1)
    cells = tables["cells"].astype(int)
    rng = np.random.default_rng(7)
    for rules in ("players=2 setup=empty", "players=3"):
        game = wallgo.Game(rules)
        while not game.is_over:
            stones = game.stones().reshape(-1)
            for s in range(wallgo.NUM_SYMMETRIES):
                image = game.symmetry(s)
                moved = sorted(tables["features"][s][game.features()].tolist())
                assert moved == image.features().tolist(), (rules, s)
                assert (image.stones().reshape(-1)[cells[s]] == stones).all(), (rules, s)
            game.play(int(rng.choice(game.legal_actions())))


def test_the_trainers_weights_header_is_the_engines(tmp_path):
    """A file the trainer writes is one the engine's layout describes:
    magic, sizes and the payload's checksum (wallgo.net, from network.h)."""
    import wallgo.net
    train = trainer()
    path = str(tmp_path / "net.wgn")
    train.export_weights(train.Net(128), path)
    data = open(path, "rb").read()
    header = np.frombuffer(data, "<u4", count=10, offset=8)
    assert data[:8] == wallgo.net.MAGIC
    assert header[3] == wallgo.NUM_FEATURES and header[4] == 128
    assert wallgo.net.first_layer_width(path) == 128
    assert len(data) == wallgo.net.HEADER_BYTES + 4 * int(header[9])
    checksum = int(np.frombuffer(data, "<u8", count=1, offset=48)[0])
    assert checksum == wallgo.net.fnv1a64(data[wallgo.net.HEADER_BYTES:])
    assert wallgo.net.fnv1a64(b"") == 0xcbf29ce484222325  # FNV-1a's offset basis
    assert wallgo.net.fnv1a64(b"a") == 0xaf63dc4c8601ec8c  # its published test vector


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


def test_examples_of_another_layout_are_refused(data_file, tmp_path):
    head = bytearray(open(data_file + ".examples", "rb").read(wallgo.data.EXAMPLE_HEADER_BYTES))
    head[28:32] = (7).to_bytes(4, "little")  # active features
    other = tmp_path / "other.wgd.examples"
    other.write_bytes(bytes(head))
    with pytest.raises(ValueError, match="active features 7"):
        wallgo.data.read_examples(str(other))


def test_shards_that_differ_from_the_manifest_are_refused(data_file, tmp_path):
    folder = str(tmp_path / "shards")
    entry = wallgo.data.pack(data_file, folder, positions=10)["shards"][0]
    with pytest.raises(ValueError, match="the manifest says"):
        wallgo.data.load_shard(folder, dict(entry, positions=entry["positions"] + 1))
    (tmp_path / "shards" / "manifest.json").write_text('{"format": "other"}')
    with pytest.raises(ValueError, match="format"):
        wallgo.data.read_manifest(folder)
