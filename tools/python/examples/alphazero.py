#!/usr/bin/python3
"""A tiny AlphaZero-style learner over wallgo.VectorEnv: self-play with a
search guided by a small network, the network trained on what the search
found, round after round, and its win rate against random play printed
before and after (docs/python.md has a run and its figures).

    PYTHONPATH=build/python /usr/bin/python3 tools/python/examples/alphazero.py

The network reads the engine's own input features (Game.features(): stones,
walls and who reaches each cell first, the concept the WallZero study found
to matter most) through a sum of embeddings, as the engine's network does,
into a value head (the side to move's expected result, -1..1) and a policy
head over the ACTION_SIZE actions. The search looks one move ahead: it
plays every legal action (Game.play / undo, in C++), scores each child with
the value head (or the true result when the child is a finished game) and
turns the scores into an improved policy, softmax(Q / temperature).
Self-play samples its moves from that policy in n games at once in a
VectorEnv; the value head learns each position's final result and the
policy head the search's policy (AlphaZero's two targets). Against random
play the learner moves greedily: "search" is the one-move search with the
value head, "policy" the policy head alone, without search.

The earlier attempt at this example learned its policy from raw moves
weighted by their outcome (REINFORCE) over the observation planes, with no
search: after 4 rounds it still played at about one half against random.
The search's improved policy is a far denser target than one result per
game, and the features hand the net the board's regions and races.
"""
import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F

import wallgo


class Net(torch.nn.Module):
    """Sparse features -> hidden ReLU -> value (tanh) and policy logits."""

    def __init__(self, hidden):
        super().__init__()
        self.embed = torch.nn.EmbeddingBag(wallgo.NUM_FEATURES, hidden, mode="sum")
        # About 70 features are active: small rows keep their sum in ReLU's
        # useful range (the default N(0, 1) rows saturate the value's tanh).
        torch.nn.init.normal_(self.embed.weight, std=0.05)
        self.bias = torch.nn.Parameter(torch.zeros(hidden))
        self.value = torch.nn.Linear(hidden, 1)
        self.policy = torch.nn.Linear(hidden, wallgo.ACTION_SIZE)

    def hidden(self, features):
        """features: a list of int arrays (one position each)."""
        flat = torch.from_numpy(np.concatenate(features).astype(np.int64))
        offsets = torch.from_numpy(np.cumsum([0] + [len(f) for f in features[:-1]]))
        return F.relu(self.embed(flat, offsets) + self.bias)

    def value_of(self, h):
        return torch.tanh(self.value(h)).squeeze(1)

    def values(self, features):
        return self.value_of(self.hidden(features))

    def forward(self, features):
        h = self.hidden(features)
        return self.value_of(h), self.policy(h)


def search(net, games):
    """For each game: its legal actions and their values for the side to
    move, one move ahead (a finished child: its true reward)."""
    found, children, where = [], [], []
    for g, game in enumerate(games):
        mover = game.to_move
        actions = game.legal_actions()
        values = np.zeros(len(actions), np.float32)
        for k, action in enumerate(actions):
            game.play(action)
            if game.is_over:
                values[k] = game.rewards[mover]
            else:
                children.append(game.features())
                where.append((g, k, 1.0 if game.to_move == mover else -1.0))
            game.undo()
        found.append((np.array(actions), values))
    if children:
        with torch.no_grad():
            child_values = net.values(children).numpy()
        for (g, k, sign), value in zip(where, child_values):
            found[g][1][k] = sign * value
    return found


def improved_policy(values, temperature):
    z = values / temperature
    p = np.exp(z - z.max())
    return p / p.sum()


def self_play(net, env, games, temperature, rng):
    """Plays `games` games in env's n at once; returns the samples of the
    finished ones: (features, result for the side to move, legal actions,
    the search's policy)."""
    pending = [[] for _ in range(env.num_envs)]
    samples, finished = [], 0
    while finished < games:
        states = [env.game(i) for i in range(env.num_envs)]
        actions = np.zeros(env.num_envs, np.int64)
        for i, (legal, values) in enumerate(search(net, states)):
            policy = improved_policy(values, temperature)
            actions[i] = legal[rng.choice(len(legal), p=policy)]
            pending[i].append((states[i].features(), states[i].to_move, legal, policy))
        _, _, rewards, dones = env.step(actions)
        for i in np.flatnonzero(dones):
            samples += [(f, float(rewards[i][mover]), legal, policy)
                        for f, mover, legal, policy in pending[i]]
            pending[i] = []
            finished += 1
    return samples


def policy_cross_entropy(logits, legal, policy):
    """Mean cross-entropy of the policy head over each position's legal
    actions against the search's policy."""
    width = max(len(a) for a in legal)
    index = np.zeros((len(legal), width), np.int64)
    target = np.zeros((len(legal), width), np.float32)
    for row, (a, p) in enumerate(zip(legal, policy)):
        index[row, :len(a)], target[row, :len(p)] = a, p
    present = torch.from_numpy(np.arange(width)[None, :] < np.array([len(a) for a in legal])[:, None])
    chosen = logits.gather(1, torch.from_numpy(index)).masked_fill(~present, -1e9)
    log_p = F.log_softmax(chosen, 1).masked_fill(~present, 0)
    return -(torch.from_numpy(target) * log_p).sum(1).mean()


def train(net, optimiser, samples, epochs, batch, rng):
    """Value: squared error to the result; policy: cross-entropy to the
    search's policy over the legal actions. Returns the last epoch's means."""
    for _ in range(epochs):
        order = rng.permutation(len(samples))
        sums = np.zeros(2)
        for start in range(0, len(order), batch):
            chosen = [samples[j] for j in order[start:start + batch]]
            value, logits = net([s[0] for s in chosen])
            result = torch.tensor([s[1] for s in chosen])
            value_loss = F.mse_loss(value, result)
            policy_loss = policy_cross_entropy(logits, [s[2] for s in chosen],
                                               [s[3] for s in chosen])
            optimiser.zero_grad()
            (value_loss + policy_loss).backward()
            optimiser.step()
            sums += [float(value_loss) * len(chosen), float(policy_loss) * len(chosen)]
    return sums / len(samples)


def greedy_actions(net, games, use_search):
    if use_search:
        return [int(legal[np.argmax(values)]) for legal, values in search(net, games)]
    with torch.no_grad():
        logits = net.policy(net.hidden([g.features() for g in games])).numpy()
    return [int(max(g.legal_actions(), key=lambda a: logits[k, a])) for k, g in enumerate(games)]


def win_rate_against_random(net, games, rules, seed, use_search):
    """The learner's score (win 1, draw 1/2) in `games` games against
    uniformly random legal moves (drawn by the environment from `seed`),
    playing each colour in as many of them."""
    env = wallgo.VectorEnv(games, rules=rules, seed=seed)
    learner = np.arange(games) % env.num_players
    playing = np.ones(games, bool)
    score = 0.0
    while playing.any():
        actions = env.random_actions()
        turn = np.flatnonzero(playing & (env.to_move == learner))
        if len(turn):
            actions[turn] = greedy_actions(net, [env.game(int(i)) for i in turn], use_search)
        _, _, rewards, dones = env.step(actions)
        for i in np.flatnonzero(dones & playing):
            score += (rewards[i][learner[i]] + 1) / 2
            playing[i] = False
    return score / games


def report(net, args, label):
    start = time.perf_counter()
    rates = [win_rate_against_random(net, args.eval_games, args.rules, args.seed + 1000, s)
             for s in (True, False)]
    print(f"{label}: against random play, search {rates[0]:.3f}, policy {rates[1]:.3f} "
          f"({args.eval_games} games each, {time.perf_counter() - start:.0f} s)", flush=True)
    return rates


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--games", type=int, default=64, help="self-play games a round")
    ap.add_argument("--envs", type=int, default=32, help="self-play games at once")
    ap.add_argument("--window", type=int, default=2, help="rounds of samples trained on")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--temperature", type=float, default=0.1,
                    help="of the search's policy in self-play (values are -1..1)")
    ap.add_argument("--eval-games", type=int, default=200,
                    help="games against random play, each colour half of them")
    ap.add_argument("--rules", default="players=2")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (the search is one Python thread; more measured slower)")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    net = Net(args.hidden)
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr)
    env = wallgo.VectorEnv(args.envs, rules=args.rules, seed=args.seed)
    before = report(net, args, "before training")
    window = []
    for r in range(1, args.rounds + 1):
        window = window[-(args.window - 1):] if args.window > 1 else []
        window.append(self_play(net, env, args.games, args.temperature, rng))
        samples = [s for part in window for s in part]
        value_loss, policy_loss = train(net, optimiser, samples, args.epochs, args.batch, rng)
        print(f"round {r}: {len(window[-1])} positions, trained on {len(samples)}: value loss "
              f"{value_loss:.3f}, policy loss {policy_loss:.3f} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    after = report(net, args, "after training")
    print(f"win rate against random: search {before[0]:.3f} -> {after[0]:.3f}, policy "
          f"{before[1]:.3f} -> {after[1]:.3f}, {time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
