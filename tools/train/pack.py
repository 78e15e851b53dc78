#!/usr/bin/python3
"""Packs a finished self-play data file and its examples into compressed
shards of whole games, which train.py streams (--data FOLDER):

    /usr/bin/python3 tools/train/pack.py gen/train.wgd --out gen/train.shards
    /usr/bin/python3 tools/train/pack.py gen/train.wgd --out gen/train.shards --remove

The shards are read back and compared with the file before --remove deletes
the file and its .examples, so a failed or killed pack never loses data.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import find_wallgo  # noqa: E402

find_wallgo.add_module_path()
import wallgo.data as wd  # noqa: E402


def verify(data_path, folder):
    """Every position of the file is in the shards, byte for byte, in order."""
    records = wd.read_data(data_path)
    examples = wd.read_examples(data_path + ".examples")
    at = 0
    for entry in wd.read_manifest(folder)["shards"]:
        shard_examples, shard_records = wd.load_shard(folder, entry)
        end = at + len(shard_records)
        if (shard_records.tobytes() != np.asarray(records[at:end]).tobytes()
                or shard_examples.tobytes() != np.asarray(examples[at:end]).tobytes()):
            raise ValueError(f"{folder}/{entry['file']}: differs from {data_path}")
        at = end
    if at != len(records):
        raise ValueError(f"{folder}: {at} positions, {data_path} has {len(records)}")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", help="a data file (its .examples beside it: wallgo-net features)")
    ap.add_argument("--out", required=True, help="the shards' folder")
    ap.add_argument("--positions", type=int, default=20000, help="positions a shard (whole games)")
    ap.add_argument("--remove", action="store_true",
                    help="delete the data file and its examples once the shards read back equal")
    args = ap.parse_args(argv)
    try:
        manifest = wd.pack(args.data, args.out, args.positions)
        verify(args.data, args.out)
    except (OSError, ValueError) as e:
        print(f"pack.py: {e}", file=sys.stderr)
        return 1
    raw = os.path.getsize(args.data) + os.path.getsize(args.data + ".examples")
    packed = sum(os.path.getsize(os.path.join(args.out, s["file"])) for s in manifest["shards"])
    print(f"{args.data}: {manifest['positions']} positions in {len(manifest['shards'])} shards, "
          f"{raw / 1e6:.1f} MB -> {packed / 1e6:.1f} MB ({raw / max(1, packed):.1f}x)")
    if args.remove:
        os.remove(args.data + ".examples")
        os.remove(args.data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
