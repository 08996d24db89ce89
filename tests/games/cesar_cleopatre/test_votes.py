"""César & Cléopâtre: vote cards and votes (RULES 1.5, 1.6, 1.7), with the seeds' worked examples."""

from __future__ import annotations

from games.cesar_cleopatre.components import GROUPS

from .position import GAME, act, discards, group, hand, logged, position, reserve


def resolve_vote(groups, name, dump=None, **kw):
    """Cléopâtre (seat 0) places a card at `dump` and ends her turn with the vote card of `name`; César keeps
    cards to play."""
    dump = dump or ("censors" if name != "censors" else "senators")
    kw.setdefault("vote_deck", [name])
    kw.setdefault("reserves", {1: "1 1 1"})
    state = position(groups=groups, hands={0: "1"}, **kw)
    state = act(state, 0, type="place", value=1, group=dump, face="down")
    return act(state, 0, type="end_turn")


# ---------------------------------------------------------------------------------------------- 1.5


def test_1_5_1_a_plain_orgy_means_no_vote():
    """RULES 1.5.1: an Orgy card calls no vote; it is discarded face up."""
    state = resolve_vote({"aediles": "0: 5 / 1: 1"}, "aediles", vote_deck=["aediles", "orgy"])
    assert state["won"] == [[0] * 5, [0] * 5] and state["vote_discard"] == ["orgy"]
    assert state["vote_deck"] == ["aediles"]


def test_1_5_2_the_reshuffle_orgy_shuffles_every_discard_and_itself_back():
    """RULES 1.5.2: no vote; the discarded vote cards and the reshuffle Orgy go back into the draw pile;
    removed cards stay out."""
    state = resolve_vote({}, "senators", vote_deck=["senators", "orgy_reshuffle"],
                         vote_discard=["orgy", "praetors"], vote_removed=["aediles"], left={"aediles": 0})
    assert sorted(state["vote_deck"]) == ["orgy", "orgy_reshuffle", "praetors", "senators"]
    assert state["vote_discard"] == [] and state["vote_removed"] == ["aediles"]
    assert state["won"] == [[0] * 5, [0] * 5] and logged(state, "reshuffle") == [{}]
    assert GAME.view(state, 1)["vote_cards"] == {"deck": 4, "discard": [], "removed": ["aediles"]}


def test_1_5_3_the_last_patrician_clears_the_group_and_removes_its_vote_card():
    """RULES 1.5.3: when a group's last patrician is won, every card there is discarded and its vote card
    leaves the game, wherever it is (here: the card just drawn)."""
    state = resolve_vote({"aediles": "0: 5 4 / 1: 2 1_"}, "aediles", left={"aediles": 1},
                         won={1: {"aediles": 2}})
    g = group(state, "aediles")
    assert g["left"] == 0 and g["up"] == [[], []] and g["down"] == [[], []]
    assert state["won"][0][3] == 1
    assert discards(state) == [[4, 5], [1, 2]]
    assert state["vote_removed"] == ["aediles"] and "aediles" not in state["vote_deck"] + state["vote_discard"]
    assert logged(state, "exhausted") == [{"group": "aediles"}]


def test_1_5_3_an_exhausted_group_card_leaves_the_deck_or_the_discard_pile():
    """RULES 1.5.3: an 8-card vote can exhaust a group whose vote card is in the deck or in the discards."""
    eight = {"censors": "0: 5 5 5 5 / 1: 1 1 1 1", "aediles": "0: 5 5 5 5 / 1: 1 1 1 1"}
    state = position(groups=eight, left={"censors": 1, "aediles": 1}, hands={0: "1"}, reserves={1: "1"},
                     vote_deck=["orgy", "censors"], vote_discard=["aediles"])
    state = act(act(state, 0, type="place", value=1, group="senators", face="down"), 0, type="end_turn")
    assert state["vote_removed"] == ["aediles", "censors"]
    assert state["vote_discard"] == ["orgy"] and state["vote_deck"] == []


def test_1_5_4_an_empty_vote_deck_is_refilled_from_the_discards():
    """RULES 1.5.4 (PROPOSED safety net): an empty draw pile is first refilled from the discards."""
    state = resolve_vote({}, "senators", vote_deck=[], vote_discard=["orgy", "orgy"])
    assert state["vote_deck"] == ["orgy"] and state["vote_discard"] == ["orgy"]
    assert logged(state, "reshuffle") == [{}]


def test_1_5_5_a_option_removes_a_plain_orgy_when_the_second_group_is_exhausted():
    """RULES 1.5.5 (a): the second exhausted group takes one plain Orgy out of the game, from the discard
    pile if one lies there (RULES 1.5.6), never the reshuffle Orgy."""
    kw = dict(left={"aediles": 1, "censors": 0}, won={0: {"aediles": 2, "censors": 3}},
              vote_deck=["orgy", "orgy_reshuffle", "aediles"], vote_discard=["orgy"], vote_removed=["censors"])
    on = resolve_vote({"aediles": "0: 5"}, "aediles", "senators", options={"orgy_removed_on_exhaustion": True},
                      **kw)
    assert on["vote_removed"] == ["censors", "aediles", "orgy"]
    assert on["vote_discard"] == [] and on["vote_deck"] == ["orgy", "orgy_reshuffle"]
    off = resolve_vote({"aediles": "0: 5"}, "aediles", "senators", **kw)
    assert off["vote_removed"] == ["censors", "aediles"] and off["vote_discard"] == ["orgy"]
    deck_only = resolve_vote({"aediles": "0: 5"}, "aediles", "senators", options={"orgy_removed_on_exhaustion": True},
                             **{**kw, "vote_discard": [], "vote_deck": ["orgy", "orgy", "orgy_reshuffle", "aediles"]})
    assert deck_only["vote_removed"][-1] == "orgy" and sorted(deck_only["vote_deck"]) == ["orgy", "orgy_reshuffle"]


def test_1_5_5_b_option_removes_a_plain_orgy_before_the_game():
    """RULES 1.5.5 (b): one plain Orgy is removed before the game."""
    state = GAME.setup(2, 4, {"orgy_removed_before": True})
    assert sorted(state["vote_deck"]) == sorted([*GROUPS, "orgy", "orgy_reshuffle"])
    assert state["vote_removed"] == ["orgy"]


# ---------------------------------------------------------------------------------------------- 1.6


def test_1_6_1_a_vote_turns_every_face_down_card_face_up():
    """RULES 1.6.1: both players' face-down cards at the group are turned face up; Philosophers count 0."""
    state = resolve_vote({"praetors": "0: 3_ 1 / 1: 2_ 3_ P_"}, "praetors")
    g = group(state, "praetors")
    assert g["down"] == [[], []] and g["up"] == [[3], [2]]
    vote = logged(state, "vote_won")[0]
    assert (vote["a_values"], vote["a_sum"], vote["b_values"], vote["b_sum"]) == ([1, 3], 4, [0, 2, 3], 5)
    assert vote["winner_seat"] == 0 and vote["reversed"] is True
    assert GAME.view(state, None)["groups"][1]["up"] == g["up"]


def test_1_6_worked_example_aediles():
    """FR-C&C 4.1 example: César 3 + 4, Cléopâtre 2 + 3 + 3: Cléopâtre wins and discards a 3 (her highest);
    César discards his 3 (his lowest)."""
    state = resolve_vote({"aediles": "0: 2_ 3_ 3_ / 1: 3_ 4_"}, "aediles")
    assert state["won"][0][3] == 1 and state["won"][1][3] == 0
    g = group(state, "aediles")
    assert g["up"] == [[2, 3], [4]] and g["left"] == 2
    assert discards(state) == [[3], [3]]


def test_1_6_worked_example_philosopher_on_the_censors():
    """FR-C&C 4.4 example: Cléopâtre 4 + 5 = 9, César 3 + Philosopher: César wins, discards his 3 and the
    Philosopher; Cléopâtre discards her 5."""
    state = resolve_vote({"censors": "0: 4_ 5_ / 1: 3_ P_"}, "censors")
    assert state["won"][1][4] == 1 and state["won"][0][4] == 0
    assert group(state, "censors")["up"] == [[4], []]
    assert discards(state) == [[5], [0, 3]]
    assert logged(state, "vote_won")[0]["reversed"] is True


def test_1_6_2_unequal_philosopher_counts_reverse_the_vote():
    """RULES 1.6.2: two Philosophers against one reverse the vote (the lower sum wins)."""
    state = resolve_vote({"senators": "0: P P 2 / 1: P 5"}, "senators")
    assert state["won"][0][0] == 1
    assert discards(state) == [[0, 0, 2], [0, 5]]  # the winner's lowest, the loser's highest, every P


def test_1_6_2_equal_philosopher_counts_cancel_out():
    """RULES 1.6.2: one Philosopher each cancel out: the higher sum wins."""
    state = resolve_vote({"senators": "0: P 2 / 1: P 5 1"}, "senators")
    assert state["won"][1][0] == 1
    assert discards(state) == [[0, 2], [0, 5]]
    assert group(state, "senators")["up"] == [[], [1]]


def test_1_6_3_a_tie_leaves_every_card_face_up():
    """RULES 1.6.3: equal sums: nobody wins, nothing is discarded, every card stays, now face up."""
    state = resolve_vote({"quaestors": "0: 2_ 3_ / 1: 5_"}, "quaestors")
    g = group(state, "quaestors")
    assert state["won"] == [[0] * 5, [0] * 5] and g["left"] == 5
    assert g["up"] == [[2, 3], [5]] and g["down"] == [[], []] and discards(state) == [[], []]
    assert len(logged(state, "vote_tie")) == 1


def test_1_6_4_a_lone_philosopher_wins():
    """RULES 1.6.4: every card at the group is one player's Philosopher: that player wins (and discards it)."""
    state = resolve_vote({"praetors": "1: P_"}, "praetors")
    assert state["won"][1][1] == 1 and discards(state)[1] == [0]
    assert group(state, "praetors")["up"] == [[], []]


def test_1_6_4_philosophers_only_on_both_sides_is_a_tie():
    """RULES 1.6.4: both players have only Philosophers: nothing happens."""
    state = resolve_vote({"praetors": "0: P_ / 1: P P"}, "praetors")
    assert state["won"] == [[0] * 5, [0] * 5]
    assert group(state, "praetors")["up"] == [[0], [0, 0]] and discards(state) == [[], []]


def test_1_6_5_a_player_without_numbered_cards_discards_only_philosophers():
    """RULES 1.6.5: the winner (lower sum, reversed) has only a Philosopher: he discards nothing else; the
    loser discards his highest."""
    state = resolve_vote({"senators": "0: P / 1: 3 4"}, "senators")
    assert state["won"][0][0] == 1
    assert discards(state) == [[0], [4]] and group(state, "senators")["up"] == [[], [3]]


def test_1_6_6_the_remaining_cards_stay_face_up():
    """RULES 1.6.6: after a vote the remaining cards stay at the group, face up."""
    state = resolve_vote({"quaestors": "0: 1_ 4_ 5_ / 1: 2_ 2_ 3_"}, "quaestors")
    g = group(state, "quaestors")
    assert state["won"][0][2] == 1 and g["up"] == [[1, 4], [2, 3]] and g["down"] == [[], []]


def test_1_6_7_a_reversed_vote_is_won_by_a_player_with_no_cards():
    """RULES 1.6.7 (PROPOSED, literal): César has Philosopher + 4, Cléopâtre nothing: Cléopâtre wins."""
    state = resolve_vote({"senators": "1: P_ 4_"}, "senators")
    assert state["won"][0][0] == 1 and state["won"][1][0] == 0
    assert discards(state) == [[], [0, 4]]


def test_1_6_8_a_vote_on_an_empty_group_is_a_tie():
    """RULES 1.6.8: no cards at all: 0 against 0, nothing happens."""
    state = resolve_vote({}, "aediles")
    assert state["won"] == [[0] * 5, [0] * 5] and group(state, "aediles")["left"] == 3
    assert len(logged(state, "vote_tie")) == 1


# ---------------------------------------------------------------------------------------------- 1.7


def test_1_7_discards_are_face_up_and_public():
    """RULES 1.7: every discard goes face up to its owner's discard pile, seen by everyone."""
    state = resolve_vote({"censors": "0: 4_ 5_ / 1: 3_ P_"}, "censors")
    for seat in (0, 1, None):
        assert GAME.view(state, seat)["discards"] == [{"influence": [5], "action": []},
                                                       {"influence": [0, 3], "action": []}]


def test_1_7_the_opponent_sees_counts_only():
    """RULES 1.7: the opponent sees hand sizes (influence and action backs differ), reserve sizes and
    face-down counts, never their values."""
    state = position(groups={"senators": "0: 5_ 4_"}, hands={0: "1 2 P"}, actions={0: "spy"},
                     reserves={0: "3 3"}, action_reserves={0: "veto"})
    view = GAME.view(state, 1)
    assert view["hand"] == {"influence": [], "action": []}
    assert view["hand_counts"][0] == {"influence": 3, "action": 1}
    assert view["reserve_counts"][0] == {"influence": 2, "action": 1}
    assert view["groups"][0] == {"name": "senators", "size": 5, "left": 5, "up": [[], []], "down": [2, 0],
                                 "mine": []}
