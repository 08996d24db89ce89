"""RULES 3.6 (Castrum) and 3.7 (Forum Romanum)."""

import pytest

from games.alea_iacta_est import rules
from games.core import IllegalAction

from .builder import GAME, act, log_keys, place, placements, position


def test_3_6_1_castrum_seed_example_darius_antonius():
    """3.6.1 (FR-AIE example): Darius places three 4s; Antonius may place two 4s; Darius may add 4s or start
    a pair of 5s, but not both at once; a single 4 of Antonius is refused (it would equal 4-4-4)."""
    state = position(2, start=0, rolled=[1, 2, 3, 4, 4, 4, 4, 5])
    assert [4, 4, 4] in placements(state, "castrum")
    state = act(state, 0, place("castrum", 4, 4, 4))
    state["rolled"] = [1, 1, 2, 2, 3, 4, 4, 5]
    assert [4, 4] in placements(state, "castrum") and [4] in placements(state, "castrum")
    state = act(state, 1, place("castrum", 4, 4))
    state["rolled"] = [4, 4, 5, 5]
    legal = placements(state, "castrum")
    assert [4] in legal and [4, 4] in legal and [5, 5] in legal and [4, 5] not in legal
    with pytest.raises(IllegalAction, match="one value"):
        act(state, 0, place("castrum", 4, 5))
    state = act(state, 0, place("castrum", 5, 5))
    state["rolled"] = [1, 4, 6]
    assert [4] not in placements(state, "castrum")
    with pytest.raises(IllegalAction, match="equal another player's"):
        act(state, 1, place("castrum", 4))
    assert state["castrum"][0][3] == 3 and state["castrum"][0][4] == 2 and state["castrum"][1][3] == 2


def test_3_6_2_combinations_rank_by_number_of_dice_then_value_each_on_its_own():
    """3.6.2: more dice first, then the higher value (5-5-5 beats 3-3-3); a player's combinations rank apart."""
    castrum = [[0] * 6 for _ in range(4)]
    castrum[0][3], castrum[0][4] = 3, 2   # 4-4-4 and 5-5
    castrum[1][3] = 2                     # 4-4
    castrum[2][5] = 2                     # 6-6
    castrum[3][0] = 1                     # 1
    castrum[3][2] = 3                     # 3-3-3
    assert rules.castrum_ranking(castrum) == [[0, 4, 3], [3, 3, 3], [2, 6, 2], [0, 5, 2], [1, 4, 2], [3, 1, 1]]


def end_round(state):
    seat = state["turn"]
    return act(state, seat, place("forum", state["rolled"][0]))


def test_3_6_3_owners_choose_provinces_in_ranking_order_and_may_take_several():
    """3.6.3: in ranking order each combination's owner chooses one revealed province; a player with several
    combinations chooses several times; the last province left is simply taken."""
    offer = ["gallia-1", "germania-4", "aegyptus-2", "joker-0"]
    state = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0},
                     castrum={0: {4: 3, 5: 2}, 1: {4: 2}, 2: {6: 2}, 3: {1: 1}}, province_offer=offer)
    state = end_round(state)
    assert state["phase"] == "castrum" and GAME.actors(state) == [0]
    assert GAME.view(state, None)["castrum_queue"][0] == [0, 4, 3]
    assert GAME.legal_actions(state, 0) == [{"type": "take_province", "province": p} for p in offer]
    state = act(state, 0, {"type": "take_province", "province": "germania-4"})
    assert GAME.actors(state) == [2]
    state = act(state, 2, {"type": "take_province", "province": "joker-0"})
    state = act(state, 0, {"type": "take_province", "province": "aegyptus-2"})
    assert state["provinces"][0] == ["germania-4", "aegyptus-2"] and state["provinces"][2] == ["joker-0"]
    assert state["provinces"][1] == ["gallia-1"], "the last province goes to seat 1's 4-4 without a choice"
    assert state["latrina"][3] == 1, "seat 3's single 1 won nothing"


def test_3_6_4_untaken_provinces_leave_the_game_and_losing_combinations_go_to_the_latrina():
    """3.6.4: provinces nobody takes are removed; dice of combinations that won nothing go to the Latrina."""
    offer = ["gallia-1", "germania-4", "aegyptus-2"]
    state = position(3, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0}, castrum={2: {3: 2}}, province_offer=offer)
    state = end_round(state)
    state = act(state, 2, {"type": "take_province", "province": "aegyptus-2"})
    assert "provinces_removed" in log_keys(state)
    removed = next(e for e in state["log"] if e["key"] == "provinces_removed")
    assert removed["args"]["provinces"] == ["gallia-1", "germania-4"]
    assert state["province_offer"] == [] and not set(offer) & set(state["province_pile"]), "never come back"
    assert state["latrina"][2] == 0

    state = position(2, start=0, rolled=[1], unplaced={0: 1, 1: 0}, castrum={0: {6: 3}, 1: {2: 1, 5: 1}},
                     province_offer=["gallia-1", "germania-4"])
    state = end_round(state)
    state = act(state, 0, {"type": "take_province", "province": "gallia-1"})
    assert state["provinces"][1] == ["germania-4"]
    assert state["castrum"][1][1] == 0 and state["latrina"][1] == 1, "1 won nothing: Latrina (5 took one)"


def test_3_7_1_forum_takes_one_die_or_two_dice_adding_up_to_5():
    """3.7.1: one die of any value, or exactly two dice summing to 5 (1 + 4 or 2 + 3)."""
    state = position(4, start=0, rolled=[1, 2, 2, 3, 4, 5, 6])
    assert placements(state, "forum") == [[1], [2], [3], [4], [5], [6], [1, 4], [2, 3]]
    with pytest.raises(IllegalAction, match="adding up to 5"):
        act(state, 0, place("forum", 2, 2))
    state = position(4, start=0, rolled=[1, 1, 5])
    assert placements(state, "forum") == [[1], [5]]


def test_3_7_2_brutus_places_2_and_3_and_pushes_the_green_3_into_the_latrina():
    """3.7.2 (FR-AIE example): the row is sorted; a new die goes left of equal dice and pushes the higher ones
    right; Brutus's 2 and 3 push the last die, a green 3, out of the 6 columns into the Latrina."""
    grey, brutus, blue, green = 0, 1, 2, 3
    row = [(grey, 1), (blue, 2), (grey, 2), (blue, 3), (green, 3)]
    state = position(4, start=brutus, rolled=[2, 3, 6], forum=row)
    state = act(state, brutus, place("forum", 2, 3))
    assert state["forum"] == [[grey, 1], [brutus, 2], [blue, 2], [grey, 2], [brutus, 3], [blue, 3]]
    assert state["latrina"][green] == 1
    assert {"key": "forum_out", "args": {"owner_seat": green, "die": 3}} in state["log"]


def test_3_7_2_a_die_of_the_pair_that_cannot_fit_goes_straight_to_the_latrina():
    """3.7.2: placing 1 + 4 before a full row of low dice: the 1 enters, the 4 cannot fit."""
    row = [(0, 1), (1, 1), (2, 2), (3, 2), (0, 3), (1, 3)]
    state = position(4, start=2, rolled=[1, 4], forum=row)
    state = act(state, 2, place("forum", 1, 4))
    assert [v for _, v in state["forum"]] == [1, 1, 1, 2, 2, 3]
    assert state["forum"][0] == [2, 1], "left of the dice of equal value"
    assert state["latrina"][2] == 1 and state["latrina"][1] == 1, "the 4 and the last 3 leave the row"


def test_3_7_2_a_single_die_beyond_the_last_column_may_be_placed_and_goes_to_the_latrina():
    """3.7.2 (PROPOSED): a single die that would land beyond the last slot is allowed: straight to the Latrina."""
    state = position(2, start=0, rolled=[5, 6], forum=[(0, 1), (1, 2), (0, 2), (1, 3)])
    assert [6] in placements(state, "forum")
    state = act(state, 0, place("forum", 6))
    assert len(state["forum"]) == 4 and state["latrina"][0] == 1 and state["unplaced"][0] == 1


def test_3_7_3_from_the_leftmost_die_each_owner_chooses_any_revealed_patrician():
    """3.7.3: leftmost first, each die's owner chooses from all revealed patricians (not the one under his
    column); a player with several dice chooses several times; the rest leave the game."""
    offer = ["gallia-m1", "gallia-w3", "germania-m2", "hispania-w1", "britannia-m3", "aegyptus-w2"]
    state = position(4, start=0, rolled=[6], unplaced={0: 1, 1: 0, 2: 0, 3: 0},
                     forum=[(2, 1), (0, 2), (2, 4)], patrician_offer=offer)
    state = end_round(state)  # seat 0's 6 joins the row at the right end
    assert state["phase"] == "forum" and GAME.actors(state) == [2]
    assert GAME.view(state, 1)["forum_queue"] == [[2, 1], [0, 2], [2, 4], [0, 6]]
    assert GAME.legal_actions(state, 2) == [{"type": "take_patrician", "patrician": p} for p in offer]
    state = act(state, 2, {"type": "take_patrician", "patrician": "aegyptus-w2"})
    state = act(state, 0, {"type": "take_patrician", "patrician": "gallia-w3"})
    state = act(state, 2, {"type": "take_patrician", "patrician": "gallia-m1"})
    state = act(state, 0, {"type": "take_patrician", "patrician": "britannia-m3"})
    assert state["patricians"][2] == ["aegyptus-w2", "gallia-m1"]
    assert state["patricians"][0] == ["gallia-w3", "britannia-m3"]
    removed = next(e for e in state["log"] if e["key"] == "patricians_removed")
    assert removed["args"]["patricians"] == ["germania-m2", "hispania-w1"]
