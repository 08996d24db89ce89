"""RULES 3.5: the Senatus and its Senate cards."""

import pytest

from games.alea_iacta_est import rules
from games.core import IllegalAction

from .builder import GAME, act, place, placements, position


def test_3_5_1_senatus_seed_example_3_4_5_blocks_3_4_5_and_is_beaten_by_4_5_6_or_3_4_5_6():
    """3.5.1 (FR-AIE example): after Claudius's 3-4-5 nobody may place 3-4-5; 4-5-6 or 3-4-5-6 beat it; on a
    later turn Claudius extends his straight with a 2 to 2-3-4-5."""
    state = position(4, start=0, rolled=[1, 3, 4, 5, 5, 6, 6, 6])
    state = act(state, 0, place("senatus", 3, 4, 5))
    state["rolled"] = [1, 2, 3, 4, 5, 6]
    legal = placements(state, "senatus")
    assert [3, 4, 5] not in legal and [2, 3, 4] not in legal and [6] not in legal
    assert [4, 5, 6] in legal and [3, 4, 5, 6] in legal and [1, 2, 3, 4] in legal
    with pytest.raises(IllegalAction, match="straight that beats"):
        act(state, 1, place("senatus", 3, 4, 5))
    state = act(state, 1, place("forum", 1))
    state = act(state, 2, place("forum", state["rolled"][0]))
    state = act(state, 3, place("forum", state["rolled"][0]))
    state["rolled"] = [1, 2, 2, 6, 6]
    legal = placements(state, "senatus")
    assert [2] in legal and [6] in legal and [1, 2] in legal
    state = act(state, 0, place("senatus", 2))
    assert state["senatus"][0] == [2, 3, 4, 5]


def test_3_5_1_all_senatus_dice_of_a_player_always_form_one_straight():
    """3.5.1: no repeated value, no gap, and an extension keeps the straight whole (at either end, or both
    at once since the result is one straight); a new straight must beat the best one there."""
    state = position(4, start=1, rolled=[1, 2, 2, 4, 5, 6], senatus={0: [6], 1: [3, 4]})
    legal = placements(state, "senatus")
    assert [2] in legal and [5] in legal and [2, 5] in legal and [1, 2] in legal and [5, 6] in legal
    assert [2, 2] not in legal and [6] not in legal, "no repeat, no gap"
    state = position(4, start=2, rolled=[1, 2, 3, 5], senatus={0: [6], 1: [3, 4]})
    legal = placements(state, "senatus")
    assert [5] not in legal and [3] not in legal, "one die cannot beat a straight of two"
    assert [1, 2, 3] in legal and [2, 3] not in legal, "2-3 does not beat 3-4"


def test_3_5_2_longer_straight_wins_then_higher_top_value():
    """3.5.2: 5-4-3-2 beats 4-3-2-1; 6-5-4 beats 5-4-3; a longer straight beats any shorter one."""
    key = rules.straight_key
    assert key([2, 3, 4, 5]) > key([1, 2, 3, 4])
    assert key([4, 5, 6]) > key([3, 4, 5])
    assert key([1, 2, 3, 4]) > key([4, 5, 6])
    assert rules.senatus_ranking([[1, 2], [], [4, 5, 6], [6]]) == [2, 0, 3]


def end_round(state):
    seat = state["turn"]
    return act(state, seat, place("forum", state["rolled"][0]))


def test_3_5_3_four_players_best_keeps_one_of_three_second_keeps_one_of_two_third_card_under():
    """3.5.3 (3-4 players): the best draws 3 and keeps 1, passes 2 to the second-best who keeps 1; the last
    card goes under the deck; ranked players without a card send their dice to the Latrina."""
    state = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0},
                     senatus={0: [1], 1: [2, 3], 2: [3, 4, 5], 3: [6]}, senate_deck=["I", "V", "IX", "X", "II"])
    state = end_round(state)
    assert state["phase"] == "senate" and GAME.actors(state) == [2]
    assert GAME.legal_actions(state, 2) == [{"type": "keep_senate", "card": c} for c in ("I", "V", "IX")]
    assert GAME.view(state, 2)["senate_offer"] == ["I", "V", "IX"]
    assert all(GAME.view(state, s)["senate_offer"] is None for s in [0, 1, 3, None])
    assert state["latrina"][0] == 1 and state["latrina"][3] == 1, "third and fourth straights: Latrina"
    state = act(state, 2, {"type": "keep_senate", "card": "IX"})
    assert GAME.actors(state) == [1] and GAME.view(state, 1)["senate_offer"] == ["I", "V"]
    state = act(state, 1, {"type": "keep_senate", "card": "I"})
    assert state["senate_hands"][2] == ["IX"] and state["senate_hands"][1] == ["I"]
    assert state["senate_under"] == ["V"] and state["senate_deck"] == ["X", "II"]
    assert state["senate_known"][2] == [{"cards": ["I", "V"], "slots": ["h1.0", "u0"]}]
    assert state["senate_known"][1] == [{"cards": ["V"], "slots": ["u0"]}]
    assert state["senatus"][1] == [2, 3] and state["latrina"][1] == 0, "receivers keep their dice out of it"


def test_3_5_3_two_players_only_the_best_gets_a_card():
    """3.5.3 (2 players): the best keeps 1 of 3, 2 go under; the second-best gets nothing: Latrina."""
    state = position(2, start=0, rolled=[1], unplaced={0: 1, 1: 0}, senatus={0: [4, 5, 6], 1: [1, 2]},
                     senate_deck=["III", "VI", "XIII", "II"])
    state = end_round(state)
    state = act(state, 0, {"type": "keep_senate", "card": "VI"})
    assert state["senate_hands"] == [["VI"], []] and state["senate_under"] == ["III", "XIII"]
    assert state["latrina"][1] == 2


def test_3_5_3_five_players_the_third_best_gets_the_last_card():
    """3.5.3 (5 players): best, second-best and third-best each get a card; nothing goes under."""
    state = position(5, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0, 4: 0},
                     senatus={1: [5, 6], 2: [1, 2, 3], 3: [6], 4: [2]}, senate_deck=["II", "VII", "XI", "IX"])
    state = end_round(state)
    assert GAME.actors(state) == [2]
    state = act(state, 2, {"type": "keep_senate", "card": "XI"})
    state = act(state, 1, {"type": "keep_senate", "card": "II"})
    assert state["senate_hands"][2] == ["XI"] and state["senate_hands"][1] == ["II"]
    assert state["senate_hands"][3] == ["VII"], "the third-best gets the card the second-best left"
    assert state["senate_under"] == [] and state["latrina"][4] == 1
    assert state["senate_known"][1] == [{"cards": ["VII"], "slots": ["h3.0"]}]
    assert state["senate_known"][2] == [{"cards": ["II", "VII"], "slots": ["h1.0", "h3.0"]}]


def test_3_5_3_a_single_player_in_the_senatus_gains_one_card_not_two():
    """3.5.3: alone in the Senatus, he keeps 1 card and the rest goes under the pile."""
    state = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0}, senatus={3: [2]},
                     senate_deck=["I", "I", "XIII", "V"])
    state = end_round(state)
    assert GAME.legal_actions(state, 3) == [{"type": "keep_senate", "card": "I"},
                                            {"type": "keep_senate", "card": "XIII"}]
    state = act(state, 3, {"type": "keep_senate", "card": "XIII"})
    assert state["senate_hands"][3] == ["XIII"] and state["senate_under"] == ["I", "I"]
    assert state["senate_known"][3] == [{"cards": ["I"], "slots": ["u0"]}, {"cards": ["I"], "slots": ["u1"]}]


def test_3_5_3_a_choice_between_identical_cards_is_made_automatically():
    """3.5.3: three copies of one card leave no choice, so no action is asked."""
    state = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0}, senatus={0: [3]},
                     senate_deck=["XIII", "XIII", "XIII", "V"])
    state = end_round(state)
    assert state["phase"] != "senate" and state["senate_hands"][0] == ["XIII"]


def test_3_5_4_senate_cards_are_secret_until_the_end():
    """3.5.4: a seat sees its own Senate cards; the others see how many it has."""
    state = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0},
                     senatus={1: [2, 3], 2: [3, 4, 5]}, senate_deck=["I", "V", "IX", "X"])
    state = end_round(state)
    state = act(state, 2, {"type": "keep_senate", "card": "IX"})
    state = act(state, 1, {"type": "keep_senate", "card": "V"})
    assert GAME.view(state, 2)["own_senate"] == ["IX"] and GAME.view(state, 1)["own_senate"] == ["V"]
    for seat in [0, 1, 3, None]:
        view = GAME.view(state, seat)
        assert view["senate_counts"][2] == 1 and "IX" not in str(view), seat
    logs = [e for e in GAME.view(state, 0)["log"] if e["key"].startswith("senate")]
    assert {e["key"] for e in logs} == {"senate_draw", "senate_keep", "senate_pass", "senate_under"}
