"""The self-play data files as numpy arrays (docs/python.md).

A data file (.wgd, written by wallgo-net generate and the training loop)
is a header and one fixed-size record per position; its examples file
(.wgd.examples) one training example per record. The dtypes are built from
the C++ structs' own field offsets (tools/train/training_data.h,
examples.h), so they cannot drift from what the engine writes.

    records = wallgo.data.read_data("train.wgd")       # a read-only memmap
    game = wallgo.data.record_game(records[0])         # its position
    moves = wallgo.data.record_moves(records[0])       # its legal moves
"""

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


def read_data(path):
    """The records of a data file as a read-only numpy memmap (DATA_DTYPE).
    The header is checked by the engine's reader: ValueError saying why for
    a foreign file, another version or a size that does not fit."""
    _wallgo._check_data_file(str(path))
    return np.memmap(path, dtype=DATA_DTYPE, mode="r", offset=DATA_HEADER_BYTES)


def read_examples(path):
    """The examples of an examples file as a read-only numpy memmap
    (EXAMPLE_DTYPE); ValueError for a foreign file or another layout."""
    with open(path, "rb") as f:
        head = f.read(EXAMPLE_HEADER_BYTES)
    if len(head) < EXAMPLE_HEADER_BYTES or head[:8] != EXAMPLE_MAGIC:
        raise ValueError(f"{path}: not a wallgo examples file")
    record_bytes = int(np.frombuffer(head, "<u4", count=1, offset=16)[0])
    if record_bytes != EXAMPLE_DTYPE.itemsize:
        raise ValueError(f"{path}: examples of {record_bytes} bytes, this module "
                         f"reads {EXAMPLE_DTYPE.itemsize}")
    return np.memmap(path, dtype=EXAMPLE_DTYPE, mode="r", offset=EXAMPLE_HEADER_BYTES)


def record_game(record):
    """The position of one data record as a wallgo.Game (checked by the
    engine: ValueError for a record that is not a position of the game)."""
    return _wallgo._record_game(np.ascontiguousarray(record).view(np.uint8))


def record_moves(record):
    """The record's legal moves in notation, in the order of its `visits`."""
    return _wallgo._record_moves(np.ascontiguousarray(record).view(np.uint8))
