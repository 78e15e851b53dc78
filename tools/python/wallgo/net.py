"""The network file's layout (search/net/network.h), for writers of
weights files such as the trainer (tools/train/train.py): the constants come
from the engine's own header, so a file written with them is one the engine
reads.

    >>> import wallgo.net
    >>> wallgo.net.HIDDEN1_WIDTHS
    (64, 128, 256)

A weights file is a 64-byte header (MAGIC, then u32 version, header bytes,
feature set, features, hidden1, hidden2, value outputs, policy size,
ownership outputs, payload floats, u64 FNV-1a checksum of the payload) and
the payload of little-endian floats.
"""

from wallgo import _wallgo

_LAYOUT = _wallgo._network_layout()

MAGIC = _LAYOUT["magic"]
VERSION = _LAYOUT["version"]
HEADER_BYTES = _LAYOUT["header_bytes"]
FEATURE_SET = _LAYOUT["feature_set"]
HIDDEN1_WIDTHS = tuple(_LAYOUT["hidden1_widths"])
HIDDEN2 = _LAYOUT["hidden2"]
VALUE_OUTPUTS = _LAYOUT["value_outputs"]
OWNER_CLASSES = _LAYOUT["owner_classes"]
OWNERSHIP_OUTPUTS = _LAYOUT["ownership_outputs"]
SCORE_SCALE = _LAYOUT["score_scale"]
MAX_FIRST_LAYER_WEIGHT = _LAYOUT["max_first_layer_weight"]


def symmetry_tables():
    """The board's eight symmetries (rotations and reflections) as the
    engine's permutation tables, uint16 arrays [8, n]: "features" (where
    each input feature goes; NUM_FEATURES to itself), "policy" (each policy
    index; its "no part" index to itself) and "cells" (each cell, a1 = 0).
    Symmetry 0 is the identity. The trainer's data augmentation."""
    return _wallgo._symmetry_tables()


def fnv1a64(data):
    """The checksum the engine checks a weights file's payload with."""
    return _wallgo._fnv1a64(bytes(data))


def first_layer_width(weights_path):
    """The first layer's units a weights file's header states; OSError if it
    cannot be read, ValueError if it is not a wallgo network."""
    with open(weights_path, "rb") as f:
        header = f.read(HEADER_BYTES)
    if len(header) < HEADER_BYTES or header[:len(MAGIC)] != MAGIC:
        raise ValueError(f"{weights_path}: not a wallgo network")
    return int.from_bytes(header[24:28], "little")
