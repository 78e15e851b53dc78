"""The self-play data files as numpy arrays (docs/python.md).

A data file (.wgd, written by wallgo-net generate and the training loop)
is a header and one fixed-size record per position; its examples file
(.wgd.examples) one training example per record. The dtypes are built from
the C++ structs' own field offsets (tools/train_data/training_data.h,
examples.h), so they cannot drift from what the engine writes.

    records = wallgo.data.read_data("train.wgd")       # a read-only memmap
    game = wallgo.data.record_game(records[0])         # its position
    moves = wallgo.data.record_moves(records[0])       # its legal moves

A finished data file and its examples can be packed into compressed shards
of whole games (about 15 times smaller), which the trainer streams:

    wallgo.data.pack("train.wgd", "train.shards")      # manifest.json + shard-*.npz
    manifest = wallgo.data.read_manifest("train.shards")
    examples, records = wallgo.data.load_shard("train.shards", manifest["shards"][0])
"""

import json
import os

import numpy as np

from wallgo import _wallgo

_LAYOUT = _wallgo._data_layout()


def _dtype(fields, itemsize):
    return np.dtype({
        "names": [f[0] for f in fields],
        "formats": [(f[2], f[3]) if f[3] else f[2] for f in fields],
        "offsets": [f[1] for f in fields],
        "itemsize": itemsize,
    })


DATA_DTYPE = _dtype(_LAYOUT["record_fields"], _LAYOUT["record_bytes"])
EXAMPLE_DTYPE = _dtype(_LAYOUT["example_fields"], _LAYOUT["example_bytes"])
DATA_HEADER_BYTES = _LAYOUT["data_header_bytes"]
EXAMPLE_HEADER_BYTES = _LAYOUT["example_header_bytes"]
EXAMPLE_MAGIC = _LAYOUT["example_magic"]
# The header's u32 fields after the magic: version, header bytes, record
# bytes, feature set, features, max active, max moves, policy size.
_EXAMPLE_HEADER_FIELDS = ("version", "header bytes", "example bytes", "feature set",
                          "features", "active features", "moves", "policy size")
_EXAMPLE_HEADER = np.array(_LAYOUT["example_header_fields"], "<u4")

# An example's sizes, from its layout: players (targets by slot), cells,
# legal moves and active features at most; policy indices (POLICY_SIZE in
# move_index stands for "no part").
MAX_PLAYERS = EXAMPLE_DTYPE["win"].shape[0]
NUM_CELLS = EXAMPLE_DTYPE["owner"].shape[0]
MAX_MOVES = EXAMPLE_DTYPE["visit_share"].shape[0]
MAX_ACTIVE = EXAMPLE_DTYPE["features"].shape[0]
POLICY_SIZE = _LAYOUT["policy_size"]


def read_data(path):
    """The records of a data file as a read-only numpy memmap (DATA_DTYPE).
    The header is checked by the engine's reader: ValueError saying why for
    a foreign file, another version or a size that does not fit."""
    _wallgo._check_data_file(str(path))
    return np.memmap(path, dtype=DATA_DTYPE, mode="r", offset=DATA_HEADER_BYTES)


def read_examples(path):
    """The examples of an examples file as a read-only numpy memmap
    (EXAMPLE_DTYPE); ValueError for a foreign file or another layout
    (version, sizes, feature set: the header must be the one this build
    writes), naming the field that differs."""
    try:
        with open(path, "rb") as f:
            head = f.read(EXAMPLE_HEADER_BYTES)
    except OSError as e:
        raise ValueError(f"{path}: cannot read ({e.strerror})") from e
    if len(head) < EXAMPLE_HEADER_BYTES or head[:8] != EXAMPLE_MAGIC:
        raise ValueError(f"{path}: not a wallgo examples file")
    fields = np.frombuffer(head, "<u4", count=len(_EXAMPLE_HEADER), offset=8)
    for name, theirs, ours in zip(_EXAMPLE_HEADER_FIELDS, fields, _EXAMPLE_HEADER):
        if theirs != ours:
            raise ValueError(f"{path}: {name} {theirs}, this module reads {ours} "
                             "(run wallgo-net features again)")
    return np.memmap(path, dtype=EXAMPLE_DTYPE, mode="r", offset=EXAMPLE_HEADER_BYTES)


def raw_record(data_path, index):
    """The bytes of one data record, as the engine wrote them."""
    with open(data_path, "rb") as f:
        f.seek(DATA_HEADER_BYTES + index * DATA_DTYPE.itemsize)
        return f.read(DATA_DTYPE.itemsize)


def record_game(record):
    """The position of one data record as a wallgo.Game (checked by the
    engine: ValueError for a record that is not a position of the game)."""
    return _wallgo._record_game(np.ascontiguousarray(record).view(np.uint8))


def record_moves(record):
    """The record's legal moves in notation, in the order of its `visits`."""
    return _wallgo._record_moves(np.ascontiguousarray(record).view(np.uint8))


SHARDS_FORMAT = "wallgo shards 1"


def _write_atomically(path, write):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        write(f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def pack(data_path, folder, positions=20000):
    """Packs a finished data file and its examples into `folder`: shards of
    whole games of about `positions` positions each (np.savez_compressed: the
    examples and the data records, aligned), then manifest.json, written last,
    so a folder without a manifest is an unfinished pack to do again.
    Returns the manifest."""
    records = read_data(data_path)
    examples = read_examples(data_path + ".examples")
    if len(records) != len(examples):
        raise ValueError(f"{data_path}: {len(records)} records but {len(examples)} examples "
                         "(run wallgo-net features again)")
    if len(records) and records["ply"][0] != 0:
        raise ValueError(f"{data_path}: does not start with a game's first position")
    starts = np.flatnonzero(records["ply"] == 0).tolist() + [len(records)]
    os.makedirs(folder, exist_ok=True)
    shards, begin = [], 0
    for end in starts[1:]:
        if end - begin < positions and end != len(records):
            continue
        name = f"shard-{len(shards):05d}.npz"
        _write_atomically(os.path.join(folder, name), lambda f: np.savez_compressed(
            f, examples=np.asarray(examples[begin:end]), records=np.asarray(records[begin:end])))
        games = len(np.unique(records["game"][begin:end]))
        shards.append({"file": name, "positions": end - begin, "games": games})
        begin = end
    manifest = {"format": SHARDS_FORMAT, "source": os.path.basename(data_path),
                "positions": len(records), "shards": shards}
    _write_atomically(os.path.join(folder, "manifest.json"),
                      lambda f: f.write(json.dumps(manifest, indent=1).encode()))
    return manifest


def read_manifest(folder):
    """The manifest of a packed folder ({"format", "source", "positions",
    "shards": [{"file", "positions", "games"}]}); ValueError if it has none
    (an unfinished pack) or another format."""
    path = os.path.join(folder, "manifest.json")
    try:
        with open(path) as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"{folder}: no readable manifest.json ({e}); pack it again")
    if manifest.get("format") != SHARDS_FORMAT:
        raise ValueError(f"{path}: format {manifest.get('format')!r}, this reader knows {SHARDS_FORMAT!r}")
    return manifest


def load_shard(folder, entry):
    """A shard's examples and data records (aligned numpy arrays of
    EXAMPLE_DTYPE and DATA_DTYPE), checked against the manifest's `entry`."""
    path = os.path.join(folder, entry["file"])
    try:
        with np.load(path) as shard:
            examples, records = shard["examples"], shard["records"]
    except (OSError, ValueError, KeyError) as e:
        raise ValueError(f"{path}: unreadable shard ({e})")
    if examples.dtype != EXAMPLE_DTYPE or records.dtype != DATA_DTYPE:
        raise ValueError(f"{path}: not this module's example and record layout")
    if len(examples) != entry["positions"] or len(records) != entry["positions"]:
        raise ValueError(f"{path}: {len(examples)} positions, the manifest says {entry['positions']}")
    return examples, records
