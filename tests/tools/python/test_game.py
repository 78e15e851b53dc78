"""wallgo.Game against the engine's own answers over the protocol."""

import random
import subprocess

import numpy as np
import pytest

import wallgo
from conftest import VARIANTS, engine_path

COLOURS = wallgo.COLOURS


def protocol_scores(answer, players):
    fields = dict(f.split("=") for f in answer.split())
    return [int(fields[c]) for c in COLOURS[:players]]


@pytest.mark.parametrize("rules", VARIANTS)
def test_random_games_match_the_protocol(gtp, rules):
    rng = random.Random(rules)
    for _ in range(2):
        game = wallgo.Game(rules)
        gtp.ask("newgame " + rules)
        while True:
            assert gtp.ask("legal_moves").split() == game.legal_moves()
            assert gtp.ask("position") == game.position()
            assert protocol_scores(gtp.ask("score"),
                                   game.num_players) == game.scores
            if game.is_over:
                break
            move = rng.choice(game.legal_moves())
            gtp.ask(f"play {COLOURS[game.to_move]} {move}")
            game.play(move)
        assert game.result is not None
        status = gtp.ask("score")
        winner = dict(f.split("=") for f in status.split())["winner"]
        expected = ([COLOURS[c] for c in game.result]
                    if len(game.result) == 1 else ["draw"])
        assert [winner] == expected


@pytest.mark.parametrize("rules", ["players=2", "players=3", "players=4 stay=mobile"])
def test_perft_equals_the_engines(rules):
    rng = random.Random(7)
    game = wallgo.Game(rules)
    for plies in range(30):
        if plies in (0, 12, 29) and not game.is_over:
            out = subprocess.run(
                [engine_path(), "perft", "2", "--position", game.position()],
                capture_output=True, text=True, check=True).stdout
            count = int(out.split("perft 2:")[1].split()[0])
            assert game.perft(2) == count
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))


def test_action_space_round_trips():
    seen = set()
    for action in range(wallgo.ACTION_SIZE):
        try:
            move = wallgo.action_to_move(action)
        except ValueError:
            continue  # a destination off the board
        assert wallgo.move_to_action(move) == action
        seen.add(move)
    assert "pass" in seen and "d4" in seen and "c3c4xw" in seen
    assert wallgo.action_to_move(wallgo.PASS_ACTION) == "pass"
    with pytest.raises(ValueError):
        wallgo.action_to_move(wallgo.ACTION_SIZE)
    with pytest.raises(ValueError):
        wallgo.move_to_action("resign")


@pytest.mark.parametrize("rules", VARIANTS)
def test_mask_actions_and_moves_agree_along_a_game(rules):
    rng = random.Random(3)
    game = wallgo.Game(rules)
    while not game.is_over:
        moves, actions = game.legal_moves(), game.legal_actions()
        assert [wallgo.action_to_move(a) for a in actions] == moves
        mask = game.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (wallgo.ACTION_SIZE,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(actions)
        action = rng.choice(actions)
        if rng.random() < 0.5:
            game.play(action)
        else:
            game.play(wallgo.action_to_move(action))
    assert game.legal_moves() == [] and not game.legal_action_mask().any()


def test_undo_and_position_round_trip():
    rng = random.Random(5)
    game = wallgo.Game("players=3 wall-limit=5")
    positions = []
    for _ in range(40):
        if game.is_over:
            break
        positions.append(game.position())
        game.play(rng.choice(game.legal_moves()))
        copy = wallgo.Game.from_position(game.position())
        assert copy.position() == game.position()
        assert copy.legal_moves() == game.legal_moves()
    for expected in reversed(positions):
        game.undo()
        assert game.position() == expected
    with pytest.raises(ValueError, match="cannot undo"):
        game.undo()


def test_illegal_moves_raise_and_change_nothing():
    game = wallgo.Game()
    for move in ["c4", "e4", "c2", "e6"]:
        game.play(move)
    before = game.position()
    with pytest.raises(ValueError, match="a1 holds no red stone"):
        game.play("a1a3n")
    with pytest.raises(ValueError, match="illegal move: d4: placements are over"):
        game.play("d4")
    with pytest.raises(ValueError):
        game.play("zz9")
    with pytest.raises(ValueError):
        game.play(wallgo.ACTION_SIZE + 5)
    with pytest.raises(ValueError):
        game.play(-1)
    with pytest.raises(ValueError, match="not a move"):
        game.play(2**70)
    for wrong in [1.5, None, b"d4", ["d4"], True]:
        with pytest.raises(TypeError):
            game.play(wrong)
    with pytest.raises(TypeError):
        wallgo.Game(3)
    with pytest.raises(ValueError, match="bad rules"):
        wallgo.Game("players=5")
    with pytest.raises(ValueError, match="invalid position"):
        wallgo.Game.from_position("players=2 turn=red red=b2,b2 blue=b6,f2")
    assert game.position() == before
    assert game.moves == ["c4", "e4", "c2", "e6"]


def test_resign_ends_the_game():
    game = wallgo.Game("players=2")
    game.play("resign")
    assert game.is_over and game.result == [1] and game.rewards == [-1, 1]
    with pytest.raises(ValueError, match="game over"):
        game.play("d4")
    game.undo()
    assert not game.is_over


def test_board_arrays_follow_the_position():
    game = wallgo.Game.from_position(
        "players=2 setup=fourstone stay=always wall-limit=unlimited turn=blue "
        "red=b2,c3,d4,f6 blue=a1,f2,e5,b6 red-walls=c3n,d4e blue-walls=a1n")
    stones = game.stones()
    assert stones.shape == (7, 7) and stones.dtype == np.int8
    assert stones[2, 2] == 0 and stones[0, 0] == 1 and stones[0, 1] == -1
    assert (stones >= 0).sum() == 8
    walls = game.walls()
    assert walls[0, 2, 2] == 0 and walls[1, 3, 3] == 0 and walls[0, 0, 0] == 1
    assert (walls >= 0).sum() == 3
    obs = game.observation()
    assert obs.shape == (wallgo.OBSERVATION_PLANES, 7, 7)
    assert obs[0, 0, 0] == 1 and obs[1, 2, 2] == 1  # blue to move: slot 0
    assert obs[4, 2, 2] == 1 and obs[5, 3, 3] == 1
    territory = game.territory()
    assert territory.shape == (7, 7) and (territory == -2).all()
    features = game.features()
    assert features.dtype == np.uint16 and 0 < len(features)
    assert features.max() < wallgo.NUM_FEATURES


def test_territory_of_a_finished_game_gives_the_scores():
    rng = random.Random(11)
    game = wallgo.Game("players=2")
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    territory = game.territory()
    assert [int((territory == p).sum()) for p in range(2)] == game.scores


def test_symmetries_map_legal_moves():
    rng = random.Random(2)
    game = wallgo.Game("players=3 stay=mobile")
    for _ in range(25):
        game.play(rng.choice(game.legal_moves()))
    for s in range(wallgo.NUM_SYMMETRIES):
        image = game.symmetry(s)
        mapped = sorted(wallgo.transform_action(s, a)
                        for a in game.legal_actions())
        assert mapped == sorted(image.legal_actions())
        assert image.scores == game.scores
        assert len(image.features()) == len(game.features())
    assert game.symmetry(0).position() == game.position()
    with pytest.raises(ValueError):
        game.symmetry(8)


def plies_before_the_end(rules, seed, plies):
    rng = random.Random(seed)
    game = wallgo.Game(rules)
    line = [game.position()]
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
        line.append(game.position())
    return wallgo.Game.from_position(line[max(0, len(line) - 1 - plies)])


def one_move_before_the_end(rules, seed):
    return plies_before_the_end(rules, seed, 1)


@pytest.mark.parametrize("rules", ["players=2", "players=3"])
def test_solve_proves_and_its_optimal_moves_keep_the_value(rules):
    # Random play leaves some trees too big for the budget (max^n, with three
    # players, cuts nothing): the first four positions it proves are checked.
    checked = 0
    for seed in range(40):
        if checked == 4:
            break
        game = one_move_before_the_end(rules, seed)
        answer = game.solve(seconds=0, nodes=300000, hash_mb=4)
        if not answer["proven"]:
            assert "optimal" not in answer
            continue
        checked += 1
        mover = COLOURS[game.to_move]
        assert answer["values"][mover]["result"] == answer["result"]
        assert answer["values"][mover]["margin"] == answer["margin"]
        for move in answer["optimal"]:
            child = game.copy()
            child.play(move)
            after = child.solve(seconds=0, nodes=300000, hash_mb=4)
            assert after["proven"]
            assert after["values"][mover] == answer["values"][mover], move
    assert checked == 4


def utility(value):
    share = {"win": 12, "draw": 6, "loss": 0}[value["result"]]
    return 100 * share + value["margin"]


def test_an_unproven_solve_has_the_range_a_proof_keeps():
    # Two players, a budget stopped at its first check (1,024 nodes): the
    # range holds the value a larger budget proves.
    checked = 0
    for seed in range(60):
        if checked == 3:
            break
        game = plies_before_the_end("players=2", seed, 5)
        if game.is_over:
            continue
        answer = game.solve(seconds=0, nodes=1024, hash_mb=4)
        if answer["proven"] or "range" not in answer:
            continue
        proof = game.solve(seconds=0, nodes=100000, hash_mb=4)
        if not proof["proven"]:
            continue
        checked += 1
        proven = utility(proof)
        assert utility(answer["range"]["least"]) <= proven
        assert proven <= utility(answer["range"]["most"])
    assert checked == 3


def test_solve_needs_a_limit():
    with pytest.raises(ValueError, match="seconds > 0 or nodes > 0"):
        wallgo.Game().solve(seconds=0, nodes=0)
