"""numpy views of wallgo's self-play data and training examples.

Both files are a fixed-size header followed by fixed-size little-endian
records without padding (search/net/training_data.h, search/net/examples.h),
so one structured dtype reads them:

    records = read_data("games.wgd")          # one record per position
    examples = read_examples("games.wgd.examples")

A finished data file and its examples can be packed into compressed shards
of whole games (`pack`, about 15 times smaller), which the trainer streams:

    pack("games.wgd", "games.shards")         # games.shards/manifest.json + shard-*.npz
    manifest = read_manifest("games.shards")
    examples, records = load_shard("games.shards", manifest["shards"][0])
"""
import json
import os

import numpy as np

DATA_MAGIC = b"WGSPDATA"
DATA_VERSION = 1
DATA_HEADER_BYTES = 256
EXAMPLE_MAGIC = b"WGEXMPL1"
EXAMPLE_VERSION = 1
EXAMPLE_HEADER_BYTES = 64

MAX_PLAYERS = 4
NUM_CELLS = 49
MAX_MOVES = 256
MAX_ACTIVE = 160
NUM_FEATURES = 1181
POLICY_SIZE = 539  # index POLICY_SIZE stands for "no part" (logit 0)
OWNER_CLASSES = MAX_PLAYERS + 1  # slots 0..3, then nobody
NET_MAGIC = b"WALLGONN"
# First-layer widths the engine reads (search/net/network.h kHidden1Widths).
HIDDEN1_WIDTHS = (64, 128, 256)


def first_layer_width(weights_path):
    """The first layer's units a weights file's header states; OSError if it
    cannot be read, ValueError if it is not a wallgo network."""
    with open(weights_path, "rb") as f:
        header = f.read(64)
    if len(header) < 64 or header[:8] != NET_MAGIC:
        raise ValueError(f"{weights_path}: not a wallgo network")
    return int.from_bytes(header[24:28], "little")

# One position of a self-play game (DataRecord).
DATA_DTYPE = np.dtype([
    ("stones", "<u8", (4,)), ("wall_north", "<u8", (4,)), ("wall_east", "<u8", (4,)),
    ("game", "<u4"), ("total_visits", "<u4"),
    ("search_win", "<f4"), ("search_margin", "<f4"),
    ("ply", "<u2"), ("game_length", "<u2"), ("num_moves", "<u2"), ("reserved", "<u2"),
    ("players", "u1"), ("setup", "u1"), ("stay", "u1"), ("to_move", "u1"),
    ("wall_limit", "i1"), ("breakers", "u1"), ("placements_done", "u1"), ("winners", "u1"),
    ("breakers_left", "u1", (4,)), ("final_score", "u1", (4,)),
    ("final_owner", "u1", (NUM_CELLS,)), ("reserved2", "u1", (7,)),
    ("moves", "<u2", (MAX_MOVES,)), ("visits", "<u2", (MAX_MOVES,)),
])

# One training example (Example), targets by slot (slot 0 = side to move).
EXAMPLE_DTYPE = np.dtype([
    ("features", "<u2", (MAX_ACTIVE,)),
    ("move_index", "<u2", (MAX_MOVES, 3)),
    ("visit_share", "<f4", (MAX_MOVES,)),
    ("win", "<f4", (MAX_PLAYERS,)), ("score", "<f4", (MAX_PLAYERS,)),
    ("search_win", "<f4"), ("data_index", "<u4"), ("game", "<u4"),
    ("num_features", "<u2"), ("num_moves", "<u2"),
    ("owner", "u1", (NUM_CELLS,)),
    ("players", "u1"), ("in_setup", "u1"), ("finished", "u1"), ("reserved", "u1", (4,)),
])


def _check_header(path, magic, version, header_bytes, record_bytes, size_offset):
    with open(path, "rb") as f:
        head = f.read(header_bytes)
    if len(head) < header_bytes or head[:8] != magic:
        raise ValueError(f"{path}: not a {magic.decode()} file")
    fields = np.frombuffer(head, dtype="<u4", count=4, offset=8)
    if fields[0] != version:
        raise ValueError(f"{path}: version {fields[0]}, this reader knows {version}")
    if fields[size_offset] != record_bytes:
        raise ValueError(f"{path}: records of {fields[size_offset]} bytes, expected {record_bytes}")


def read_data(path):
    _check_header(path, DATA_MAGIC, DATA_VERSION, DATA_HEADER_BYTES, DATA_DTYPE.itemsize, 2)
    return np.memmap(path, dtype=DATA_DTYPE, mode="r", offset=DATA_HEADER_BYTES)


def read_examples(path):
    _check_header(path, EXAMPLE_MAGIC, EXAMPLE_VERSION, EXAMPLE_HEADER_BYTES,
                  EXAMPLE_DTYPE.itemsize, 2)
    with open(path, "rb") as f:
        shape = np.frombuffer(f.read(EXAMPLE_HEADER_BYTES), dtype="<u4", count=5, offset=20)
    expected = (NUM_FEATURES, MAX_ACTIVE, MAX_MOVES, POLICY_SIZE)
    if tuple(int(x) for x in shape[1:]) != expected:
        raise ValueError(f"{path}: features/active/moves/policy {tuple(shape[1:])}, "
                         f"this trainer is made for {expected}")
    return np.memmap(path, dtype=EXAMPLE_DTYPE, mode="r", offset=EXAMPLE_HEADER_BYTES)


def raw_record(data_path, index):
    """The bytes of one data record, as the engine wrote them."""
    with open(data_path, "rb") as f:
        f.seek(DATA_HEADER_BYTES + index * DATA_DTYPE.itemsize)
        return f.read(DATA_DTYPE.itemsize)


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
    so a folder without a manifest is an unfinished pack to do again."""
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
    """A shard's examples and data records (aligned), checked against the manifest."""
    path = os.path.join(folder, entry["file"])
    try:
        with np.load(path) as shard:
            examples, records = shard["examples"], shard["records"]
    except (OSError, ValueError, KeyError) as e:
        raise ValueError(f"{path}: unreadable shard ({e})")
    if examples.dtype != EXAMPLE_DTYPE or records.dtype != DATA_DTYPE:
        raise ValueError(f"{path}: not this trainer's example and record layout")
    if len(examples) != entry["positions"] or len(records) != entry["positions"]:
        raise ValueError(f"{path}: {len(examples)} positions, the manifest says {entry['positions']}")
    return examples, records
