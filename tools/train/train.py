#!/usr/bin/python3
"""Trains wallgo's evaluation network on self-play examples and exports it.

    /usr/bin/python3 tools/train/train.py --data a.wgd b.wgd --out net.wgn \
        --fixture net.fixture.json --epochs 12 --seed 1

Reads each DATA file's examples (DATA.examples, made by `wallgo-net
features`). The network (search/net/network.h): sparse features -> 64 (--hidden1: 128, 256) ReLU
-> 32 ReLU -> heads: win logit and final score per slot (value), policy
logits (a move's logit is the sum of its parts), final owner of every cell
(auxiliary). Games whose number is a multiple of --holdout-every are held
out for validation. Writes the weights file (versioned header, FNV-1a
checksum), a fixture of the trainer's own outputs on a few held-out
positions (checked by `wallgo-net verify`) and a JSON summary with the
losses. Deterministic for a given seed, data and --threads.
"""
import argparse
import copy
import json
import math
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import find_wallgo  # noqa: E402

find_wallgo.add_module_path()
import wallgo  # noqa: E402
import wallgo.data as wd  # noqa: E402
import wallgo.net as wn  # noqa: E402

NEGLIGIBLE_WEIGHT = 1e-20
# Loss weights: value (win cross-entropy), score (squared error in board
# units), policy (cross-entropy against the visit shares), ownership.
W_VALUE, W_SCORE, W_POLICY, W_OWNER = 1.0, 4.0, 1.0, 0.5


class Net(nn.Module):
    def __init__(self, hidden1=64):
        super().__init__()
        if hidden1 not in wn.HIDDEN1_WIDTHS:
            raise ValueError(f"first layer of {hidden1} units: the engine reads {wn.HIDDEN1_WIDTHS}")
        self.hidden1 = hidden1
        self.w1 = nn.Embedding(wallgo.NUM_FEATURES + 1, hidden1, padding_idx=wallgo.NUM_FEATURES)
        nn.init.normal_(self.w1.weight, std=0.05)
        with torch.no_grad():
            self.w1.weight[wallgo.NUM_FEATURES].zero_()
        self.b1 = nn.Parameter(torch.zeros(hidden1))
        self.l2 = nn.Linear(hidden1, wn.HIDDEN2)
        self.value = nn.Linear(wn.HIDDEN2, wn.VALUE_OUTPUTS)
        self.policy = nn.Linear(wn.HIDDEN2, wd.POLICY_SIZE)
        self.owner = nn.Linear(wn.HIDDEN2, wn.OWNERSHIP_OUTPUTS)

    def forward(self, features):
        x = F.relu(self.w1(features).sum(1) + self.b1)
        h = F.relu(self.l2(x))
        return self.value(h), self.policy(h), self.owner(h)


def clip_first_layer(net):
    """The engine sums the first layer in fixed point (search/net/network.h,
    kMaxFirstLayerWeight) and refuses larger weights, so training keeps them
    within it, as NNUE trainers clip their weights to the range of their
    quantisation."""
    with torch.no_grad():
        for w in (net.w1.weight, net.b1):
            w.clamp_(-wn.MAX_FIRST_LAYER_WEIGHT, wn.MAX_FIRST_LAYER_WEIGHT)


def slot_mask(players):
    """[B, 4] True for the slots in the game."""
    return torch.arange(wd.MAX_PLAYERS, device=players.device)[None, :] < players[:, None]


def win_probabilities(value, players):
    logits = value[:, :wd.MAX_PLAYERS].masked_fill(~slot_mask(players), -1e9)
    return torch.softmax(logits, 1)


def move_logits(policy, move_index, num_moves):
    """[B, M] logits of the legal moves (the sum of their parts), -inf past
    each position's moves."""
    padded = torch.cat([policy, policy.new_zeros(policy.shape[0], 1)], 1)
    b, m, _ = move_index.shape
    parts = torch.gather(padded, 1, move_index.reshape(b, m * 3)).reshape(b, m, 3)
    logits = parts.sum(2)
    legal = torch.arange(m, device=num_moves.device)[None, :] < num_moves[:, None]
    return logits.masked_fill(~legal, -1e9)


def ownership_log_probs(owner, players):
    logits = owner.reshape(-1, wd.NUM_CELLS, wn.OWNER_CLASSES)
    present = torch.cat([slot_mask(players),
                         torch.ones(players.shape[0], 1, dtype=torch.bool, device=players.device)], 1)
    return torch.log_softmax(logits.masked_fill(~present[:, None, :], -1e9), 2)


class Symmetries:
    """The board's eight symmetries as the engine's permutations of feature
    indices, policy indices and cells (wallgo.net.symmetry_tables): the
    trainer's data augmentation, with no game logic here."""

    def __init__(self):
        tables = wn.symmetry_tables()
        self.features = tables["features"].astype(np.int64)
        self.policy = tables["policy"].astype(np.int64)
        # owner'[T(c)] = owner[c]: gather through the inverse permutation.
        self.inverse_cells = np.argsort(tables["cells"].astype(np.int64), axis=1)


class Batch:
    """Tensors of a slice of examples (numpy structured array), seen through
    symmetry `sym` of `symmetries` (none when `symmetries` is None), on `device`."""

    def __init__(self, ex, symmetries=None, sym=0, search_weight=0.0, device="cpu"):
        m = max(1, int(ex["num_moves"].max()))
        features = ex["features"].astype(np.int64)
        move_index = ex["move_index"][:, :m].astype(np.int64)
        owner = ex["owner"].astype(np.int64)
        if symmetries is not None and sym != 0:
            features = symmetries.features[sym][features]
            move_index = symmetries.policy[sym][move_index]
            owner = owner[:, symmetries.inverse_cells[sym]]
        self.features = torch.from_numpy(features)
        self.num_moves = torch.from_numpy(ex["num_moves"].astype(np.int64))
        self.move_index = torch.from_numpy(move_index)
        self.visit_share = torch.from_numpy(np.ascontiguousarray(ex["visit_share"][:, :m]))
        win = np.array(ex["win"], dtype=np.float32)
        if search_weight > 0:
            # Two players: blend the result with the search's win rate, a
            # per-position signal (the result is one per game).
            two = ex["players"] == 2
            search = np.stack([ex["search_win"], 1 - ex["search_win"]], 1)
            win[two, :2] = (1 - search_weight) * win[two, :2] + search_weight * search[two]
        self.win = torch.from_numpy(win)
        self.score = torch.from_numpy(np.ascontiguousarray(ex["score"])) / wn.SCORE_SCALE
        self.owner = torch.from_numpy(owner)
        self.players = torch.from_numpy(ex["players"].astype(np.int64))
        for name, tensor in vars(self).items():
            setattr(self, name, tensor.to(device, non_blocking=True))  # itself on the cpu


def losses(net, batch):
    """Mean value, score, policy and ownership losses of a batch."""
    value, policy, owner = net(batch.features)
    mask = slot_mask(batch.players)
    logw = torch.log_softmax(value[:, :wd.MAX_PLAYERS].masked_fill(~mask, -1e9), 1)
    value_loss = -(batch.win * logw).sum(1).mean()
    score_err = (value[:, wd.MAX_PLAYERS:] - batch.score) ** 2
    score_loss = (score_err * mask).sum(1).mean()
    logp = torch.log_softmax(move_logits(policy, batch.move_index, batch.num_moves), 1)
    has_policy = (batch.num_moves > 1) & (batch.visit_share.sum(1) > 0)
    policy_ce = -(batch.visit_share * logp.clamp(min=-1e4)).sum(1)
    policy_loss = (policy_ce * has_policy).sum() / has_policy.sum().clamp(min=1)
    own_logp = ownership_log_probs(owner, batch.players)
    own_loss = -torch.gather(own_logp, 2, batch.owner[:, :, None]).mean()
    return value_loss, score_loss, policy_loss, own_loss


def total(parts):
    v, s, p, o = parts
    return W_VALUE * v + W_SCORE * s + W_POLICY * p + W_OWNER * o


def device_of(net):
    return next(net.parameters()).device.type


def evaluate(net, examples, batch_size=2048):
    """Mean losses over `examples` (no gradient)."""
    sums, n = np.zeros(4), 0
    with torch.no_grad():
        for start in range(0, len(examples), batch_size):
            ex = examples[start:start + batch_size]
            parts = losses(net, Batch(ex, device=device_of(net)))
            sums += np.array([float(p) for p in parts]) * len(ex)
            n += len(ex)
    return sums / max(1, n)


def fmt(parts):
    v, s, p, o = parts
    return (f"value {v:.4f}  score {s:.5f} (MAE~{math.sqrt(max(s, 0)) * 49:.1f} cells)  "
            f"policy {p:.3f}  owner {o:.3f}  total {total(parts):.4f}")


def negligible_as_zero(weights):
    """Adam's weight decay leaves the weights of inputs and outputs that the
    data never uses near 1e-36; their products are subnormal floats, which
    cost the engine a microcode assist each. The engine's loader reads such
    weights as zero too (NEGLIGIBLE_WEIGHT = its kNegligibleWeight)."""
    return np.where(np.abs(weights) < NEGLIGIBLE_WEIGHT, 0, weights)


def weight_arrays(net):
    """The network's arrays in the weights file's order, as the engine reads them
    (views of the parameters: writing them writes the network)."""
    return [
        net.w1.weight[:wallgo.NUM_FEATURES], net.b1,
        net.l2.weight.t(), net.l2.bias,
        net.value.weight.t(), net.value.bias,
        net.policy.weight.t(), net.policy.bias,
        net.owner.weight.t(), net.owner.bias,
    ]


def weights_header(hidden1, payload_floats, checksum):
    header = wn.MAGIC + struct.pack(
        "<10I", wn.VERSION, wn.HEADER_BYTES, wn.FEATURE_SET, wallgo.NUM_FEATURES, hidden1,
        wn.HIDDEN2, wn.VALUE_OUTPUTS, wd.POLICY_SIZE, wn.OWNERSHIP_OUTPUTS, payload_floats)
    header += struct.pack("<Q", checksum) + bytes(8)
    assert len(header) == wn.HEADER_BYTES
    return header


def export_weights(net, path):
    payload = b"".join(negligible_as_zero(a.detach().cpu().contiguous().numpy()).astype("<f4").tobytes()
                       for a in weight_arrays(net))
    with open(path, "wb") as f:
        f.write(weights_header(net.hidden1, len(payload) // 4, wn.fnv1a64(payload)) + payload)


def import_weights(net, path):
    """Loads an exported weights file into net (the loop's warm start); a file of
    another shape, version or checksum is refused with the reason."""
    with open(path, "rb") as f:
        data = f.read()
    arrays = weight_arrays(net)
    floats = sum(a.numel() for a in arrays)
    if len(data) != wn.HEADER_BYTES + 4 * floats:
        sys.exit(f"train.py: {path}: {len(data)} bytes, expected {wn.HEADER_BYTES + 4 * floats} "
                 "(another network shape?)")
    payload = data[wn.HEADER_BYTES:]
    if data[:wn.HEADER_BYTES] != weights_header(net.hidden1, floats, wn.fnv1a64(payload)):
        sys.exit(f"train.py: {path}: header or checksum differs from this trainer's network")
    values = np.frombuffer(payload, dtype="<f4")
    with torch.no_grad():
        at = 0
        for a in arrays:
            a.copy_(torch.from_numpy(values[at:at + a.numel()].copy()).view(a.shape))
            at += a.numel()


def export_fixture(net, examples, record_of, path, count):
    """The trainer's outputs on `count` held-out positions, both phases."""
    setup = [i for i in range(len(examples)) if examples["in_setup"][i]]
    play = [i for i in range(len(examples)) if not examples["in_setup"][i]]
    chosen = setup[:count // 4] + play[:count - min(len(setup), count // 4)]
    samples = []
    with torch.no_grad():
        for i in chosen:
            ex = examples[i:i + 1]
            batch = Batch(ex, device=device_of(net))
            value, policy, owner = net(batch.features)
            players = int(ex["players"][0])
            n = int(ex["num_moves"][0])
            priors = torch.softmax(move_logits(policy, batch.move_index, batch.num_moves), 1)[0, :n]
            own = ownership_log_probs(owner, batch.players).exp()[0].reshape(-1)
            record = record_of(i)
            samples.append({
                "record_hex": record.hex(),
                "features": [int(f) for f in ex["features"][0][:int(ex["num_features"][0])]],
                "win": win_probabilities(value, batch.players)[0, :players].tolist(),
                "score_units": value[0, wd.MAX_PLAYERS:wd.MAX_PLAYERS + players].tolist(),
                "priors": priors.tolist(),
                "ownership": own.tolist(),
            })
    with open(path, "w") as f:
        json.dump({"format": "wallgo-net fixture 1", "samples": samples}, f)


class Source:
    """One piece of the training data: a data file with its .examples beside
    it, or one shard of a packed folder (wallgo.data.pack)."""

    def __init__(self, name, positions, load):
        self.name, self.positions, self._load = name, positions, load

    def load(self):
        """(examples, record(i)): the examples and the raw data record of row i."""
        return self._load()


def sources(paths):
    found = []
    for path in paths:
        if os.path.isdir(path):
            manifest = wd.read_manifest(path)
            for entry in manifest["shards"]:
                def load(path=path, entry=entry):
                    examples, records = wd.load_shard(path, entry)
                    return examples, lambda i: records[i].tobytes()
                found.append(Source(os.path.join(path, entry["file"]), entry["positions"], load))
        else:
            def load(path=path):
                examples = wd.read_examples(path + ".examples")
                return examples, lambda i: wd.raw_record(path, int(examples["data_index"][i]))
            found.append(Source(path, len(wd.read_examples(path + ".examples")), load))
    return found


class TrainingData:
    """The training window, read a few sources at a time so that it need not
    fit in memory: one pass at the start keeps the held-out games (every
    `holdout_every`-th game number, at most `max_held` positions, evenly
    spaced) and the first `max_eval` training positions for the loss probe;
    batches are then drawn from `buffer` sources at a time, the sources in a
    new random order each pass and the positions of the loaded ones shuffled
    together (KataGo's shuffle over a window, on a small scale)."""

    def __init__(self, paths, holdout_every, max_eval, max_held, buffer):
        self.sources, self.holdout_every, self.buffer = sources(paths), holdout_every, buffer
        held, held_at, probe, self.train_count = [], [], [], 0
        for k, source in enumerate(self.sources):
            examples, _ = source.load()
            is_held = examples["game"] % holdout_every == 0
            rows = np.flatnonzero(is_held)
            held.append(np.asarray(examples[rows]))
            held_at += [(k, int(r)) for r in rows]
            train = np.flatnonzero(~is_held)
            self.train_count += len(train)
            if sum(map(len, probe)) < max_eval:
                probe.append(np.asarray(examples[train[:max_eval - sum(map(len, probe))]]))
        self.val = np.concatenate(held) if held else np.zeros(0, wd.EXAMPLE_DTYPE)
        keep = np.linspace(0, len(self.val) - 1, min(len(self.val), max_held)).astype(int)
        self.val, self.val_at = self.val[keep], [held_at[i] for i in keep]
        self.probe = np.concatenate(probe) if probe else np.zeros(0, wd.EXAMPLE_DTYPE)

    def val_record(self, i):
        k, row = self.val_at[i]
        return self.sources[k].load()[1](row)

    def batches(self, batch, rng):
        """Training batches (rows in file order within a batch), without end."""
        while True:
            order = rng.permutation(len(self.sources))
            for first in range(0, len(order), self.buffer):
                loaded = []
                for k in order[first:first + self.buffer]:
                    examples, _ = self.sources[k].load()
                    loaded.append(np.asarray(examples[examples["game"] % self.holdout_every != 0]))
                pool = np.concatenate(loaded)
                shuffled = rng.permutation(len(pool))
                for at in range(0, len(pool) - batch + 1, batch):
                    yield pool[np.sort(shuffled[at:at + batch])]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True,
                    help="self-play data files (DATA.examples next to each) or folders of packed shards")
    ap.add_argument("--buffer", type=int, default=4,
                    help="sources (files or shards) shuffled together at a time")
    ap.add_argument("--max-held", type=int, default=50000, help="held-out positions kept (evenly spaced)")
    ap.add_argument("--out", required=True, help="weights file to write")
    ap.add_argument("--fixture", help="fixture JSON to write")
    ap.add_argument("--summary", help="JSON summary to write")
    ap.add_argument("--epochs", type=float, default=10)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-5)
    ap.add_argument("--holdout-every", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--fixture-size", type=int, default=8)
    ap.add_argument("--search-value-weight", type=float, default=0.0,
                    help="train the win head on (1-w) * result + w * the search's win rate (2 players)")
    ap.add_argument("--keep-best", type=int, default=1,
                    help="1: end with the weights of the report with the lowest held-out value loss")
    ap.add_argument("--init", help="start from these weights (a .wgn file) instead of random ones")
    ap.add_argument("--hidden1", type=int, choices=wn.HIDDEN1_WIDTHS,
                    help="units of the first layer (default 64, or the --init file's)")
    ap.add_argument("--symmetries", action="store_true",
                    help="augment each batch by a random board symmetry (the engine's tables)")
    ap.add_argument("--max-eval", type=int, default=20000, help="examples for the train-loss measure")
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda"),
                    help="where the network trains (cuda: deterministic only where PyTorch's "
                         "kernels are; results differ from cpu in the last bits)")
    args = ap.parse_args()

    if args.device == "cuda" and not torch.cuda.is_available():
        sys.exit("train.py: --device cuda, but PyTorch sees no CUDA device")
    # cuBLAS needs a fixed workspace to repeat its sums exactly.
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True, warn_only=args.device != "cpu")
    rng = np.random.default_rng(args.seed)
    start_time = time.time()

    symmetries = Symmetries() if args.symmetries else None
    try:
        data = TrainingData(args.data, args.holdout_every, args.max_eval, args.max_held, args.buffer)
    except (OSError, ValueError) as e:
        sys.exit(f"train.py: {e}")
    train_count, val, probe = data.train_count, data.val, data.probe
    if train_count < args.batch or len(val) == 0:
        sys.exit("train.py: need games both for training (a batch at least) and held out "
                 "(more games, or --holdout-every)")
    print(f"{train_count + len(val)} examples in {len(data.sources)} sources: {train_count} for "
          f"training, {len(val)} held out ({int(val['in_setup'].sum())} in the placement phase)")

    try:
        init_width = wn.first_layer_width(args.init) if args.init else 0
    except (OSError, ValueError) as e:
        sys.exit(f"train.py: {e}")
    if args.hidden1 and init_width and args.hidden1 != init_width:
        sys.exit(f"train.py: --hidden1 {args.hidden1}, but {args.init} has a first layer of {init_width}")
    net = Net(args.hidden1 or (init_width if init_width in wn.HIDDEN1_WIDTHS else 64))
    if args.init:
        import_weights(net, args.init)
    net.to(args.device)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    # At least 20 steps: the one-cycle schedule needs a few on each side.
    steps = max(20, int(args.epochs * train_count / args.batch))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps, pct_start=0.1)
    first_train = evaluate(net, probe)
    first_val = evaluate(net, val)
    print(f"start        train: {fmt(first_train)}\n             held:  {fmt(first_val)}")
    batches = data.batches(args.batch, rng)
    steps_per_report = max(1, steps // 10)
    best = (float("inf"), 0, None)  # held-out value loss, step, weights
    val_probe = val[::max(1, len(val) // 4000)]  # progress reports only
    for step in range(steps):
        examples = next(batches)
        sym = int(rng.integers(8)) if symmetries is not None else 0
        loss = total(losses(net, Batch(examples, symmetries, sym, args.search_value_weight, args.device)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        clip_first_layer(net)
        sched.step()
        if (step + 1) % steps_per_report == 0 or step + 1 == steps:
            held = evaluate(net, val_probe)
            print(f"step {step + 1}/{steps} ({time.time() - start_time:.0f} s)  held: {fmt(held)}", flush=True)
            if held[0] < best[0]:
                best = (held[0], step + 1, copy.deepcopy(net.state_dict()))
    if args.keep_best and best[2] is not None:
        net.load_state_dict(best[2])
        print(f"kept the weights of step {best[1]} (held-out value loss {best[0]:.4f})")
    last_train = evaluate(net, probe)
    last_val = evaluate(net, val)
    print(f"end          train: {fmt(last_train)}\n             held:  {fmt(last_val)}")

    export_weights(net, args.out)
    if args.fixture:
        export_fixture(net, val, data.val_record, args.fixture, args.fixture_size)
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump({
                "examples": sum(s.positions for s in data.sources), "train": int(train_count), "held_out": int(len(val)),
                "steps": steps, "seed": args.seed, "seconds": round(time.time() - start_time, 1),
                "hidden1": net.hidden1, "device": args.device, "first_train_loss": float(total(first_train)), "final_train_loss": float(total(last_train)),
                "first_held_loss": float(total(first_val)), "final_held_loss": float(total(last_val)),
                "final_held_parts": {k: float(v) for k, v in zip(("value", "score", "policy", "owner"), last_val)},
            }, f, indent=1)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes) in {time.time() - start_time:.0f} s")


if __name__ == "__main__":
    main()
