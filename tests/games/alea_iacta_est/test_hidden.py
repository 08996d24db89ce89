"""RULES 0.1, 0.3, 0.4 and 3.5.4 for this game: what each seat sees, and the resample (leak test)."""

import json

import pytest

from games.alea_iacta_est import components
from games.core import rng
from games.core.conformance import check_resample_hides, random_game

from .builder import GAME, act, place, position


def senate_passed_state():
    """4 players: seat 2 (best) kept IX of I, V, IX and passed I and V to seat 1, who kept I; V went under."""
    state = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0},
                     senatus={1: [2, 3], 2: [3, 4, 5]}, senate_deck=["I", "V", "IX", "X", "II", "VI", "XIII"])
    state = act(state, 0, place("forum", 1))
    state = act(state, 2, {"type": "keep_senate", "card": "IX"})
    return act(state, 1, {"type": "keep_senate", "card": "I"})


def test_0_1_views_show_own_secrets_and_only_counts_of_the_others():
    """0.1/0.4/3.5.4: own Senate cards and face-down Fortuna tiles are private; others see counts; no pile
    content, pile order or PRNG appears in any view."""
    state = senate_passed_state()
    while state["phase"] != "turn":  # the Forum choice, then the next round begins
        seat = GAME.actors(state)[0]
        state = act(state, seat, GAME.legal_actions(state, seat)[0])
    seat = state["turn"]
    state["rolled"] = [2, 6]
    state = act(state, seat, place("templum", 6))
    for viewer in [0, 1, 2, 3, None]:
        view = GAME.view(state, viewer)
        text = json.dumps(view)
        assert view["senate_counts"] == [0, 1, 1, 0]
        assert view["own_senate"] == (None if viewer is None else state["senate_hands"][viewer])
        assert view["fortuna_drawn"][seat] == 1
        assert view["own_fortuna"] == (None if viewer is None else state["fortuna_drawn"][viewer])
        for hidden in state["province_pile"] + state["patrician_pile"]:
            assert f'"{hidden}"' not in text, (viewer, hidden)
        assert view["province_pile"] == len(state["province_pile"]) and view["senate_deck"] == 5
        assert "rng" not in text and "senate_known" not in text


def test_0_1_resample_keeps_what_each_seat_knows_about_passed_senate_cards():
    """0.1: after a pass, the best player knows {I, V} are in seat 1's hand and under the deck (not which
    where); seat 1 knows V is under the deck; seat 0 knows nothing. The resample keeps exactly that."""
    state = senate_passed_state()
    seen = {2: set(), 1: set(), 0: set()}
    for seed in range(60):
        for seat in seen:
            other = GAME.resample(state, seat, seed)
            assert GAME.view(other, seat) == GAME.view(state, seat)
            hand, under = other["senate_hands"][1][0], other["senate_under"][0]
            seen[seat].add((hand, under))
            # Everyone's knowledge stays true in the resampled world.
            for knower, groups in enumerate(other["senate_known"]):
                for g in groups:
                    cards_there = sorted((_slot(other, s) for s in g["slots"]), key=components.SENATE_ORDER.get)
                    assert cards_there == g["cards"], (seat, knower, g)
    assert seen[2] == {("I", "V"), ("V", "I")}
    assert seen[1] == {("I", "V")}
    assert len(seen[0]) > 4 and any(h == "IX" for h, _ in seen[0]), "seat 0 cannot know where IX is"


def _slot(state, slot):
    if slot[0] == "h":
        seat, i = slot[1:].split(".")
        return state["senate_hands"][int(seat)][int(i)]
    return {"d": state["senate_deck"], "u": state["senate_under"], "o": state["senate_offer"]}[slot[0]][int(slot[1:])]


def test_0_1_resample_during_the_offer_keeps_the_holder_view_and_the_passer_knowledge():
    """0.1/3.5.3: while the second-best chooses, he sees the 2 passed cards; the best knows them too."""
    state = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0},
                     senatus={1: [2, 3], 2: [3, 4, 5]}, senate_deck=["I", "V", "IX", "X", "II", "VI", "XIII"])
    state = act(state, 0, place("forum", 1))
    state = act(state, 2, {"type": "keep_senate", "card": "IX"})
    assert state["senate_holder"] == 1 and state["senate_offer"] == ["I", "V"]
    for seed in range(20):
        assert GAME.resample(state, 2, seed)["senate_offer"] == ["I", "V"]
        assert GAME.resample(state, 1, seed)["senate_offer"] == ["I", "V"]
    offers = {tuple(GAME.resample(state, 3, seed)["senate_offer"]) for seed in range(30)}
    assert len(offers) > 3 and all(list(o) == sorted(o, key=components.SENATE_ORDER.get) for o in offers)
    for seed in range(5):
        check_resample_hides(GAME, state, seed)


def test_0_1_resample_keeps_own_fortuna_discards_and_redraws_the_rest():
    """0.1: a player knows the tiles he discarded (until the discards are reshuffled) and his face-down
    tiles; everything else of the Fortuna tiles is redrawn with the counts kept."""
    state = position(4, start=0, rolled=[3], templum={0: [2, 4], 1: [6]}, fortuna_drawn={0: [3, 3], 1: [2]})
    state["fortuna_discard"], state["fortuna_discard_by"] = [3, 1, 1], [0, 2, 0]
    for tile in [3, 3, 2, 3, 1, 1]:  # every tile is somewhere: take those out of the draw pile
        state["fortuna_pile"].remove(tile)
    for seed in range(30):
        other = GAME.resample(state, 0, seed)
        assert other["fortuna_drawn"][0] == [3, 3]
        assert other["fortuna_discard"][0] == 3 and other["fortuna_discard"][2] == 1
        assert len(other["fortuna_pile"]) == len(state["fortuna_pile"]) and len(other["fortuna_drawn"][1]) == 1
        every = (other["fortuna_pile"] + other["fortuna_discard"] + sum(other["fortuna_drawn"], [])
                 + sum(other["fortuna_kept"], []))
        assert sorted(every) == sorted(components.FORTUNA_TILES)
    assert {GAME.resample(state, 0, seed)["fortuna_discard"][1] for seed in range(30)} == {1, 2, 3}
    assert {GAME.resample(state, 2, seed)["fortuna_discard"][1] for seed in range(30)} == {1}


def test_0_1_resample_depends_only_on_what_the_seat_knows_and_is_playable():
    """0.1: resampling a resampled state gives the same result, and a resampled state plays to the end."""
    for players in (2, 3, 4, 5):
        states = []
        random_game(GAME, players, 7 + players, {}, policy_seed=3,
                    visit=lambda s, i: states.append(s) if i % 23 == 5 else None)
        for i, state in enumerate(states):
            checks, _ = check_resample_hides(GAME, state, seed=i)
            assert checks == players + 1
        for seat in [*range(players), None]:
            other = GAME.resample(states[len(states) // 2], seat, 99)
            holder = {"rng": rng.seed_state(5)}
            while not GAME.finished(other):
                actor = sorted(GAME.to_act(other))[0]
                actions = GAME.legal_actions(other, actor)
                other = GAME.apply(other, actor, actions[rng.below(holder, len(actions))])
            assert GAME.outcome(other)["scores"]


def test_0_1_resample_of_a_finished_game_keeps_the_revealed_senate_hands():
    """0.1: once the game is over, the final score reveals every Senate card; the resample keeps them."""
    final, _ = random_game(GAME, 4, 21, {}, policy_seed=21)
    for seat in [0, 1, 2, 3, None]:
        assert GAME.resample(final, seat, 1)["senate_hands"] == final["senate_hands"]
        check_resample_hides(GAME, final, 3)


def test_0_1_refusals_never_name_a_hidden_card():
    """0.1: a refusal sentence uses only what the acting seat may know."""
    state = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0},
                     senatus={1: [2, 3], 2: [3, 4, 5]}, senate_deck=["I", "V", "IX", "X"])
    state = act(state, 0, place("forum", 1))
    for card in ["X", "II", "XIII"]:
        assert GAME.refusal(state, 2, {"type": "keep_senate", "card": card}) == ("aie.keep_senate", {})


def test_0_3_fortuna_choices_are_collected_from_every_seat_in_any_order():
    """0.3/3.4.2: the seats keeping Fortuna tiles choose at the same time; the order changes nothing."""
    base = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0},
                    templum={1: [6, 6], 2: [5]}, fortuna_drawn={1: [1, 2, 3], 2: [1, 3]})
    base = act(base, 0, place("forum", 1))
    assert sorted(GAME.to_act(base)) == [1, 2]
    a = act(act(base, 1, {"type": "keep_fortuna", "tiles": [2, 3]}), 2, {"type": "keep_fortuna", "tiles": [3]})
    b = act(act(base, 2, {"type": "keep_fortuna", "tiles": [3]}), 1, {"type": "keep_fortuna", "tiles": [2, 3]})
    for key in ("fortuna_kept", "phase", "senate_hands", "province_offer"):
        assert a[key] == b[key]
    assert sorted(a["fortuna_discard"]) == sorted(b["fortuna_discard"]) == [1, 1]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_0_4_every_public_count_is_in_every_view(players):
    """0.4: dice on buildings, chips, pile sizes, face-down counts and hand sizes are public."""
    final, _ = random_game(GAME, players, 40 + players, {}, policy_seed=1)
    spectator, seat0 = GAME.view(final, None), GAME.view(final, 0)
    for key in ("senatus", "castrum", "forum", "latrina", "chips", "province_pile", "patrician_pile", "provinces",
                "patricians", "fortuna_pile", "fortuna_discard", "fortuna_drawn", "fortuna_kept", "senate_deck",
                "senate_counts", "unplaced"):
        assert spectator[key] == seat0[key], key
    assert spectator["senate_counts"] == [len(h) for h in final["senate_hands"]]
