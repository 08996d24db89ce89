"""RULES 3.4: the Templum (4-5 players) and its Fortuna tiles."""

import pytest

from games.core import IllegalAction

from .builder import GAME, act, log_keys, place, placements, position


def test_3_4_1_templum_seed_example_5_then_3_plus_6_then_two_more_dice_over_9():
    """3.4.1 (FR-AIE example): Antonius places a 5 and draws 1 tile; Brutus places 3 + 6 = 9 and draws 2;
    Antonius adds exactly 2 dice to his 5 to pass 9 and draws 2."""
    state = position(4, start=0, rolled=[1, 2, 3, 4, 5, 5, 6, 6])
    assert placements(state, "templum") == [[1], [2], [3], [4], [5], [6]], "first: exactly one die"
    state = act(state, 0, place("templum", 5))
    assert state["templum"][0] == [5] and len(state["fortuna_drawn"][0]) == 1
    state["rolled"] = [1, 1, 3, 4, 6, 6, 6, 6]
    legal = placements(state, "templum")
    assert [3, 6] in legal and [1, 4] not in legal and [1, 1] not in legal
    assert all(len(d) == 2 for d in legal), "the second stack has exactly two dice"
    state = act(state, 1, place("templum", 3, 6))
    assert len(state["fortuna_drawn"][1]) == 2
    state = act(state, 2, place("forum", state["rolled"][0]))
    state = act(state, 3, place("forum", state["rolled"][0]))
    state["rolled"] = [1, 2, 2, 3, 4, 6, 6]
    legal = placements(state, "templum")
    assert all(len(d) == 2 and 5 + sum(d) > 9 for d in legal)
    assert [2, 2] not in legal and [1, 3] not in legal and [2, 3] in legal and [1, 6] in legal
    state = act(state, 0, place("templum", 2, 3))
    assert state["templum"][0] == [2, 3, 5]
    assert len(state["fortuna_drawn"][0]) == 3, "he draws only for the two dice newly placed"


def test_3_4_1_the_player_with_the_largest_stack_adds_exactly_one_die():
    """3.4.1: the new total must be exactly the largest count + 1, so the leader adds one die of any value."""
    state = position(4, start=1, rolled=[1, 2, 6], templum={0: [5], 1: [3, 6]})
    assert placements(state, "templum") == [[1], [2], [6]]
    with pytest.raises(IllegalAction, match="exactly 3 with a sum above 9"):
        act(state, 1, place("templum", 1, 2))


def test_3_4_1_a_stack_needing_more_dice_than_rolled_cannot_enter():
    """3.4.1: with a 4-dice stack there, a player with only two dice cannot enter the Templum."""
    state = position(4, start=2, rolled=[6, 6], templum={0: [5], 1: [3, 6, 6, 6]})
    assert placements(state, "templum") == []


@pytest.mark.parametrize("players", [2, 3])
def test_3_4_1_no_templum_at_2_and_3_players(players):
    """3.2/3.4: the Templum is only used at 4-5 players."""
    state = position(players, start=0, rolled=[1, 2, 3, 4, 5, 6])
    assert placements(state, "templum") == []
    with pytest.raises(IllegalAction, match="4 or 5 players"):
        act(state, 0, place("templum", 6))


def end_round_now(state):
    """The player to act places his last die in the Forum, everyone else having none left."""
    seat = state["turn"]
    return act(state, seat, place("forum", state["rolled"][0]))


def test_3_4_2_best_keeps_two_tiles_of_his_choice_others_keep_one_rest_discarded():
    """3.4.2: the best Templum position keeps 2 of its drawn tiles, his choice; every other player there
    keeps 1; the others go face down to the discard pile. Kept tiles are turned face up."""
    state = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0},
                     templum={0: [2, 3, 5], 1: [3, 6], 2: [4]},
                     fortuna_drawn={0: [1, 3, 2], 1: [2, 2], 2: [1, 3]})
    state = end_round_now(state)
    assert state["phase"] == "fortuna"
    assert GAME.actors(state) == [0, 2], "seat 1's choice (one of two IIs) is made for him"
    assert state["fortuna_kept"][1] == [2]
    assert GAME.legal_actions(state, 0) == [{"type": "keep_fortuna", "tiles": t} for t in ([1, 2], [1, 3], [2, 3])]
    assert GAME.legal_actions(state, 2) == [{"type": "keep_fortuna", "tiles": [1]},
                                            {"type": "keep_fortuna", "tiles": [3]}]
    state = act(state, 2, {"type": "keep_fortuna", "tiles": [3]})
    assert state["phase"] == "fortuna" and GAME.actors(state) == [0]
    state = act(state, 0, {"type": "keep_fortuna", "tiles": [2, 3]})
    assert state["phase"] != "fortuna"
    assert state["fortuna_kept"][:3] == [[3, 2], [2], [3]]
    assert sorted(state["fortuna_discard"]) == [1, 1, 2] and state["fortuna_drawn"] == [[], [], [], []]
    for seat in [0, 1, 2, 3, None]:
        assert GAME.view(state, seat)["fortuna_kept"][0] == [3, 2], "kept tiles are face up"
        assert GAME.view(state, seat)["fortuna_discard"] == 3


def test_3_4_2_best_player_with_a_single_tile_keeps_it():
    """3.4.2: "if he drew only 1, he keeps 1"."""
    state = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0}, templum={3: [6]},
                     fortuna_drawn={3: [2]})
    state = end_round_now(state)
    assert state["fortuna_kept"][3] == [2] and state["phase"] != "fortuna"


def test_3_4_2_empty_pile_is_refilled_from_the_shuffled_discards():
    """3.4.2: when the draw pile runs out, the discard pile is shuffled into a new one."""
    state = position(4, start=0, rolled=[4, 5], fortuna_pile=[3], fortuna_discard=[1, 1, 2])
    state = act(state, 0, place("templum", 5))
    assert state["fortuna_drawn"][0] == [3] and state["fortuna_pile"] == []
    state["rolled"] = [3, 4, 6]
    state = act(state, 1, place("templum", 3, 4))
    assert "fortuna_reshuffle" in log_keys(state)
    assert len(state["fortuna_drawn"][1]) == 2 and len(state["fortuna_pile"]) == 1
    assert state["fortuna_discard"] == [] and state["fortuna_discard_by"] == []
    assert sorted(state["fortuna_drawn"][1] + state["fortuna_pile"]) == [1, 1, 2]


def test_3_4_3_templum_dice_never_go_to_the_latrina():
    """3.4.3: whatever they keep, Templum dice are never sent to the Latrina."""
    state = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0},
                     templum={1: [6, 6, 6], 2: [1, 2]}, fortuna_drawn={1: [1, 1, 1], 2: [3, 3]})
    state = end_round_now(state)
    assert state["phase"] != "fortuna"
    assert state["latrina"][1] == 0 and state["latrina"][2] == 0


def test_3_4_4_a_player_has_a_single_stack_and_draws_only_for_new_dice():
    """3.4.4: a player has one stack in the Templum (no "several combinations"); extending it draws one tile
    per new die, not per die of the stack."""
    state = position(4, start=0, rolled=[6, 6, 6], templum={0: [1], 1: [2, 3]}, fortuna_drawn={0: [2], 1: [1, 3]})
    state = act(state, 0, place("templum", 6, 6))
    assert state["templum"][0] == [1, 6, 6] and len(state["fortuna_drawn"][0]) == 3
    assert GAME.view(state, None)["templum"][0] == [1, 6, 6]


def test_3_4_drawn_tiles_are_secret_until_kept():
    """3.4.1 and 3.5.4/0.1: only the drawer sees his face-down tiles; the others see how many."""
    state = position(4, start=0, rolled=[2, 5])
    state = act(state, 0, place("templum", 5))
    tile = state["fortuna_drawn"][0]
    assert GAME.view(state, 0)["own_fortuna"] == tile
    for seat in [1, 2, 3, None]:
        view = GAME.view(state, seat)
        assert view["fortuna_drawn"][0] == 1 and view["own_fortuna"] in ([], None)
        assert all(e["key"] != "fortuna_draw_own" for e in view["log"])
    own = [e for e in GAME.view(state, 0)["log"] if e["key"] == "fortuna_draw_own"]
    assert own == [{"key": "fortuna_draw_own", "args": {"tiles": tile[0]}}]
