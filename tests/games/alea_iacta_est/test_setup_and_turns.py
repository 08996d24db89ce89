"""RULES 3.1 (components), 3.2 (set-up by player count) and 3.3 (turns and round end)."""

from collections import Counter

import pytest

from games.alea_iacta_est import components, rules
from games.core import IllegalAction

from .builder import GAME, act, finish_turns, log_keys, place, position


def test_3_1_components_are_data_with_the_published_counts():
    """3.1: 8 dice a player, 25 provinces (I-IV in six colours + grey joker 0), 36 patricians (per colour a man
    and a woman of I, II, III), 30 Fortuna tiles (8 I, 14 II, 8 III), 19 Senate cards of 13 kinds."""
    assert components.DICE_PER_PLAYER == 8 and len(components.DIE_COLOURS) == 5
    assert len(components.PROVINCES) == 25 and len(set(components.PROVINCES)) == 25
    assert components.PROVINCE_INFO[components.JOKER] == (None, 0)
    per_colour = Counter(c for c, _ in components.PROVINCE_INFO.values() if c)
    assert len(per_colour) == 6 and set(per_colour.values()) == {4}
    assert sorted(v for c, v in components.PROVINCE_INFO.values() if c == "gallia") == [1, 2, 3, 4]
    assert len(components.PATRICIANS) == 36
    assert Counter((c, g) for c, g, _ in components.PATRICIAN_INFO.values()) == {
        (c, g): 3 for c in components.COLOUR_KEYS for g in "mw"}
    assert Counter(components.FORTUNA_TILES) == {1: 8, 2: 14, 3: 8}
    assert len(components.senate_deck(5)) == 19 and len(components.SENATE_CARDS) == 13


@pytest.mark.parametrize("players,rounds,templum,columns,senate", [
    (2, 6, False, 4, 18), (3, 6, False, 5, 18), (4, 5, True, 6, 19), (5, 5, True, 7, 19)])
def test_3_2_setup_by_player_count(players, rounds, templum, columns, senate):
    """3.2: rounds, Templum only at 4-5, Forum columns 4-7, provinces and patricians revealed each round,
    card IV removed at 2-3, Fortuna tiles only with the Templum."""
    state = GAME.setup(players, 11)
    view = GAME.view(state, None)
    assert (view["rounds"], view["templum_used"], view["columns"]) == (rounds, templum, columns)
    assert len(state["province_offer"]) == players and len(state["patrician_offer"]) == columns
    assert len(state["province_pile"]) == 25 - players and len(state["patrician_pile"]) == 36 - columns
    deck = state["senate_deck"]
    assert len(deck) == senate and ("IV" in deck) == templum
    assert len(state["fortuna_pile"]) == (30 if templum else 0)
    assert view["templum"] is None if not templum else view["templum"] == [[]] * players
    assert state["unplaced"] == [8] * players
    assert state["turn"] == state["start"] and len(state["rolled"]) == 8


def test_3_2_first_start_player_is_drawn_by_lot():
    """3.2 ("the youngest starts"): the app draws the first start player with the table's seed."""
    starts = {GAME.setup(4, seed)["start"] for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    state = GAME.setup(3, 5)
    assert state["log"][0] == {"key": "first_player", "args": {"seat": state["start"]}}


def test_3_3_1_a_turn_rolls_every_unplaced_die_and_places_one_combination_in_one_building():
    """3.3.1: roll all unplaced dice, then exactly one legal combination goes to exactly one building."""
    state = position(4, start=0, rolled=[1, 2, 2, 4, 5, 5, 6, 6])
    actions = GAME.legal_actions(state, 0)
    assert {a["type"] for a in actions} == {"place"}, "no chip: only placements"
    assert {a["building"] for a in actions} == {"templum", "senatus", "castrum", "forum"}
    state = act(state, 0, place("castrum", 5, 5))
    assert state["castrum"][0][4] == 2 and state["unplaced"][0] == 6
    assert state["turn"] == 1 and len(state["rolled"]) == 8, "the next player rolls all his dice"
    with pytest.raises(IllegalAction):
        act(state, 1, {"type": "place", "building": "castrum", "dice": [9]})


def test_3_3_1_placed_dice_stay_and_later_turns_extend_or_start_combinations():
    """3.3.1: dice stay until the end of the round; a later turn may add to a combination or start another."""
    state = position(2, start=0, rolled=[3, 3, 4, 4, 5, 6, 6, 6])
    state = act(state, 0, place("castrum", 6, 6, 6))
    state = act(state, 1, place("forum", state["rolled"][0]))
    state["rolled"] = [1, 3, 4, 6, 6]
    state = act(state, 0, place("castrum", 6))
    assert state["castrum"][0][5] == 4, "the 6s extend the player's combination of 6s"
    assert state["unplaced"][0] == 4


def test_3_3_2_round_ends_after_the_pass_once_a_player_places_his_last_die():
    """3.3.2: after the last die of one player, the pass is finished up to the player right of the start
    player; players without dice are skipped; unplaced dice go to the Latrina."""
    state = position(4, start=2, turn=3, rolled=[4], unplaced={0: 3, 1: 0, 2: 5, 3: 1})
    state = act(state, 3, place("forum", 4))
    assert state["ending"] and "last_die" in log_keys(state)
    assert state["turn"] == 0, "seat 3 was not last in the pass 2-3-0-1: seat 0 plays"
    state = act(state, 0, place("forum", state["rolled"][0]))
    # Seat 1 (right of the start player) has no dice: skipped, and the round ends.
    assert state["phase"] != "turn"
    round_end = next(e for e in state["log"] if e["key"] == "round_end")
    assert round_end["args"]["per_seat"] == [2, 0, 5, 0]


def test_3_3_2_last_die_of_the_player_right_of_the_start_player_ends_the_round_at_once():
    """3.3.2: the pass is already complete when the last player of the pass places his last die."""
    state = position(3, start=1, turn=0, rolled=[2], unplaced={0: 1, 1: 4, 2: 4})
    state = act(state, 0, place("forum", 2))
    round_end = next(e for e in state["log"] if e["key"] == "round_end")
    assert round_end["args"] == {"round": 1, "per_seat": [0, 4, 4]}, "seats 1 and 2 got no further turn"


def test_3_3_3_no_legal_placement_puts_one_die_of_his_choice_in_the_latrina(monkeypatch):
    """3.3.3: a player who cannot place any die puts one die of his choice in the Latrina (the Forum always
    takes a die, so the buildings are switched off here to reach the rule)."""
    for name in ("templum_options", "senatus_options", "castrum_options"):
        monkeypatch.setattr(rules, name, lambda *a: [])
    monkeypatch.setattr(rules, "forum_options", lambda counts: [])
    state = position(4, start=0, rolled=[2, 2, 5])
    assert GAME.legal_actions(state, 0) == [{"type": "latrina", "die": 2}, {"type": "latrina", "die": 5}]
    state = act(state, 0, {"type": "latrina", "die": 5})
    assert state["latrina"][0] == 1 and state["unplaced"][0] == 2 and state["turn"] == 1


def test_3_3_3_dice_never_go_to_the_latrina_by_choice():
    """3.3.3 (PROPOSED): with a legal placement, no die may be put in the Latrina."""
    state = position(4, start=0, rolled=[2, 2, 5])
    assert all(a["type"] != "latrina" for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="Latrina"):
        act(state, 0, {"type": "latrina", "die": 5})
    with pytest.raises(IllegalAction, match="Latrina"):
        act(state, 0, place("latrina", 5))


def test_3_3_4_next_round_returns_the_dice_refills_and_passes_the_marker_left():
    """3.3.4: everyone takes his dice back, the Castrum and Forum are refilled, the marker passes left."""
    state = position(3, start=1, turn=1, rolled=[6], unplaced={0: 0, 1: 1, 2: 0}, castrum={0: {3: 8}},
                     forum=[(2, 1)])
    pile = list(state["province_pile"][:3])
    patricians = list(state["patrician_pile"][:5])
    state = act(state, 1, place("forum", 6))
    # Evaluate: the only Castrum combination takes a province, the Forum dice take patricians.
    while state["phase"] != "turn":
        seat = GAME.actors(state)[0]
        state = act(state, seat, GAME.legal_actions(state, seat)[0])
    assert state["round"] == 2 and state["start"] == 2 and state["turn"] == 2
    assert state["unplaced"] == [8, 8, 8] and state["forum"] == [] and state["castrum"][0] == [0] * 6
    assert state["province_offer"] == pile and state["patrician_offer"] == patricians


def test_3_3_4_the_game_ends_after_the_last_round():
    """3.2/3.3.4: 6 rounds at 2-3 players, 5 at 4-5; then the game is over."""
    state = position(2, start=0, round=6)
    state = finish_turns(state)
    while not GAME.finished(state):
        seat = GAME.actors(state)[0]
        state = act(state, seat, GAME.legal_actions(state, seat)[0])
    assert state["round"] == 6 and log_keys(state)[-1] == "game_end"
    assert GAME.to_act(state) == frozenset()


def test_3_3_roll_is_seeded_and_public():
    """3.3.1: the roll comes from the table's PRNG (same seed, same roll) and every seat sees it."""
    a, b = GAME.setup(4, 99), GAME.setup(4, 99)
    assert a["rolled"] == b["rolled"]
    assert all(GAME.view(a, s)["rolled"] == a["rolled"] for s in [0, 1, 2, 3, None])
    assert rules.packed([3, 4, 5]) == 345 and rules.packed([]) == 0
