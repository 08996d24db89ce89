"""César & Cléopâtre: action cards and the Veto window (RULES 0.2, 1.8), the end (1.9) and scoring (1.10)."""

from __future__ import annotations

import pytest

from games.cesar_cleopatre.components import GROUPS
from games.core import IllegalAction

from .position import GAME, act, discards, group, hand, logged, position, reserve

KILL_4 = {"type": "play_action", "card": "assassination", "group": "praetors", "value": 4}


def place(value, group_name, face="down"):
    return {"type": "place", "value": value, "group": group_name, "face": face}


# ------------------------------------------------------------------------------------------ 0.2, 1.8.7


def test_0_2_the_veto_window_opens_even_without_a_veto_in_hand():
    """RULES 0.2, 1.8.7: after every action card the opponent answers, whether or not he holds a Veto, so
    that nothing leaks; without a Veto he can only let it pass."""
    state = position(groups={"praetors": "1: 4"}, hands={0: "1"}, actions={0: "assassination"},
                     reserves={0: "1", 1: "1"})
    state = act(state, 0, **KILL_4)
    assert state["phase"] == "veto" and GAME.to_act(state) == {1}
    assert GAME.legal_actions(state, 1) == [{"type": "allow"}]
    assert GAME.view(state, 0)["pending"] == {"seat": 0, "card": "assassination", "group": "praetors", "value": 4}
    with pytest.raises(IllegalAction, match="no Veto"):
        act(state, 1, type="veto")
    with_veto = position(groups={"praetors": "1: 4"}, hands={0: "1"}, actions={0: "assassination", 1: "veto"},
                         reserves={0: "1", 1: "1"})
    assert GAME.legal_actions(act(with_veto, 0, **KILL_4), 1) == [{"type": "veto"}, {"type": "allow"}]


def test_1_8_7_a_veto_cancels_the_card_and_cannot_be_vetoed():
    """RULES 1.8.7: both cards are discarded, the vetoed card has no effect, there is no window for a Veto,
    and the vetoing player stays at 4 cards until his next turn's refill."""
    state = position(groups={"praetors": "1: 4"}, hands={0: "1", 1: "2 3 3"}, actions={0: "assassination veto",
                     1: "veto scout"}, reserves={0: "1", 1: "1 1 1"}, vote_deck=["orgy", "orgy"])
    state = act(state, 0, **KILL_4)
    state = act(state, 1, type="veto")
    assert group(state, "praetors")["up"][1] == [4]
    assert state["action_discard"] == [["assassination"], ["veto"]]
    assert state["phase"] == "turn" and GAME.to_act(state) == {0}  # no window against the Veto
    assert state["hand_actions"][1] == ["scout"] and len(state["hand"][1]) + 1 == 4
    assert not any(a["type"] == "play_action" for a in GAME.legal_actions(state, 0))  # 1.8.1: card spent
    state = act(state, 0, **place(1, "senators"))  # the action card is settled: the turn goes on by itself
    assert state["active"] == 1 and len(state["hand"][1]) + len(state["hand_actions"][1]) == 4
    state = act(state, 1, **place(2, "senators"))
    state = act(state, 1, type="draw", pile="influence")
    assert hand(state, 1) == [1, 1, 3, 3] and state["hand_actions"][1] == ["scout"]  # back to 5


def test_1_8_1_one_action_card_per_turn():
    """RULES 1.8.1: after one action card (let through or vetoed) no other is offered this turn."""
    state = position(groups={"praetors": "1: 4 2"}, hands={0: "1"}, actions={0: "assassination assassination"},
                     reserves={0: "1", 1: "1"})
    state = act(act(state, 0, **KILL_4), 1, type="allow")
    assert group(state, "praetors")["up"][1] == [2] and discards(state)[1] == [4]
    assert not any(a["type"] == "play_action" for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="Only one action card"):
        act(state, 0, type="play_action", card="assassination", group="praetors", value=2)


def test_1_8_2_assassination_targets_only_face_up_opponent_cards():
    """RULES 1.8.2: any face-up opponent card (a Philosopher too); never a face-down card, never one's own."""
    state = position(groups={"praetors": "0: 3 / 1: 4 P 5_"}, hands={0: "1"}, actions={0: "assassination"},
                     reserves={0: "1", 1: "1"})
    targets = [a for a in GAME.legal_actions(state, 0) if a["type"] == "play_action"]
    assert targets == [{"type": "play_action", "card": "assassination", "group": "praetors", "value": 0},
                       {"type": "play_action", "card": "assassination", "group": "praetors", "value": 4}]
    state = act(act(state, 0, **targets[0]), 1, type="allow")
    assert group(state, "praetors")["up"][1] == [4] and group(state, "praetors")["down"][1] == [5]
    assert discards(state)[1] == [0]


def test_1_8_3_the_spy_sees_the_hand_and_chooses_the_discard():
    """RULES 1.8.3: only the spy sees the opponent's hand; the chosen card is discarded; the opponent draws a
    replacement from the reserve of his choice."""
    state = position(hands={0: "1", 1: "2 5 P"}, actions={0: "spy", 1: "veto"}, reserves={0: "1", 1: "3 3"},
                     action_reserves={1: "wrath"})
    state = act(act(state, 0, type="play_action", card="spy"), 1, type="allow")
    assert state["phase"] == "spy" and GAME.to_act(state) == {0}
    assert GAME.view(state, 0)["spied_hand"] == {"influence": [0, 2, 5], "action": ["veto"]}
    assert GAME.view(state, 1)["spied_hand"] is None and GAME.view(state, None)["spied_hand"] is None
    assert GAME.legal_actions(state, 0) == [{"type": "spy_pick", "value": 0}, {"type": "spy_pick", "value": 2},
                                            {"type": "spy_pick", "value": 5}, {"type": "spy_pick", "card": "veto"}]
    seen = [e for e in state["log"] if e["key"] == "spy_seen"]
    assert seen and seen[0]["to"] == [0]
    state = act(state, 0, type="spy_pick", value=5)
    assert discards(state)[1] == [5] and state["phase"] == "spy_draw" and GAME.to_act(state) == {1}
    assert GAME.legal_actions(state, 1) == [{"type": "draw", "pile": "influence"}, {"type": "draw", "pile": "action"}]
    state = act(state, 1, type="draw", pile="action")
    assert hand(state, 1) == [0, 2] and state["hand_actions"][1] == ["veto", "wrath"]
    assert state["phase"] == "turn" and GAME.to_act(state) == {0}


def test_1_8_3_a_single_reserve_gives_the_replacement_at_once():
    """RULES 1.8.3, 1.4.5: with one reserve left the replacement comes from it without a question."""
    state = position(hands={0: "1", 1: "2"}, actions={0: "spy"}, reserves={0: "1", 1: "4"})
    state = act(act(act(state, 0, type="play_action", card="spy"), 1, type="allow"), 0, type="spy_pick", value=2)
    assert hand(state, 1) == [4] and state["phase"] == "turn"


def test_1_8_4_castling_redeals_your_cards_face_down_between_the_same_two_groups():
    """RULES 1.8.4: all your cards at the two groups, face up ones included, come back and are placed again
    face down, one at a time, only at those two groups and within the limits; one may be left empty."""
    state = position(groups={"senators": "0: 5 1_ / 1: 2 2 2 2", "censors": "0: 3 / 1: 4"}, hands={0: "2"},
                     actions={0: "castling"}, reserves={0: "1", 1: "1"})
    castle = {"type": "play_action", "card": "castling", "groups": ["senators", "censors"]}
    assert castle in GAME.legal_actions(state, 0)
    state = act(act(state, 0, **castle), 1, type="allow")
    assert state["phase"] == "castle" and group(state, "senators")["up"][0] == []
    assert GAME.view(state, 0)["castling"] == {"seat": 0, "groups": ["senators", "censors"], "left": 3,
                                               "cards": [1, 3, 5]}
    assert GAME.view(state, 1)["castling"]["cards"] is None
    assert GAME.legal_actions(state, 0) == [
        {"type": "castle", "value": v, "group": g} for v in (1, 3, 5) for g in ("senators", "censors")]
    for _ in range(3):
        state = act(state, 0, type="castle", value=int(state["castle"]["cards"][0]), group="censors")
    assert group(state, "censors")["down"][0] == [1, 3, 5] and group(state, "censors")["up"][0] == []
    assert group(state, "senators")["down"][0] == [] and state["phase"] == "turn"
    assert GAME.view(state, 1)["groups"][4]["down"] == [3, 0]
    assert logged(state, "castled")[0]["count"] == 0 and logged(state, "castled")[0]["count2"] == 3


def test_1_8_4_castling_respects_the_limits_and_can_call_an_eight_card_vote():
    """RULES 1.8.4: at most 5 own and 8 in all per group during the redeal; a group reaching 8 cards votes
    at the 8-card check. The placement of the turn is still due."""
    state = position(groups={"senators": "0: 1 1 1 1 / 1: 2 2 2", "praetors": "0: 5 5 / 1: 1"},
                     hands={0: "2"}, actions={0: "castling"}, reserves={0: "1", 1: "1"}, vote_deck=["orgy"])
    state = act(act(state, 0, type="play_action", card="castling", groups=["senators", "praetors"]), 1,
                type="allow")
    for v in (5, 5, 1, 1):
        state = act(state, 0, type="castle", value=v, group="senators")
    assert group(state, "senators")["down"][0] == [1, 1, 5, 5] and state["castle"]["cards"] == "11"
    state = act(state, 0, type="castle", value=1, group="senators")
    # The senators now hold 8 cards, 5 of them Cléopâtre's: the last card goes to the praetors unasked.
    assert state["castle"] is None and group(state, "praetors")["down"][0] == [1]
    assert group(state, "senators")["down"][0] == [1, 1, 1, 5, 5]
    assert group(state, "senators")["left"] == 5  # the vote waits for the 8-card check
    state = act(state, 0, **place(2, "censors"))
    assert state["won"][0][0] == 1 and logged(state, "vote_won")[0]["cause"] == "eight"


def test_1_8_5_scout_turns_the_opponent_face_down_cards_face_up():
    """RULES 1.8.5: every face-down card of the opponent at one group is turned face up (yours stay)."""
    state = position(groups={"quaestors": "0: 2_ / 1: 4_ P_ 1"}, hands={0: "1"}, actions={0: "scout"},
                     reserves={0: "1", 1: "1"})
    state = act(act(state, 0, type="play_action", card="scout", group="quaestors"), 1, type="allow")
    g = group(state, "quaestors")
    assert g["up"] == [[], [0, 1, 4]] and g["down"] == [[2], []]
    assert GAME.view(state, None)["groups"][2]["up"] == [[], [0, 1, 4]]


def test_1_8_6_wrath_of_the_gods_discards_every_card_at_a_group():
    """RULES 1.8.6: all cards of both players at one group, face up and face down, are discarded."""
    state = position(groups={"aediles": "0: 2_ 5 / 1: 4_ P"}, hands={0: "1"}, actions={0: "wrath"},
                     reserves={0: "1", 1: "1"})
    state = act(act(state, 0, type="play_action", card="wrath", group="aediles"), 1, type="allow")
    g = group(state, "aediles")
    assert g["up"] == [[], []] and g["down"] == [[], []] and g["left"] == 3
    assert discards(state) == [[2, 5], [0, 4]]


def test_1_8_8_an_action_card_without_a_target_cannot_be_played():
    """RULES 1.8.8: no face-up opponent card (Assassination), empty opponent hand (Spy), none of your cards
    at two open groups (Castling), no opponent face-down card (Scout), no card at all (Wrath); and a Veto is
    never played on one's own turn."""
    state = position(groups={"senators": "1: 3_"}, hands={0: "1"},
                     actions={0: "assassination spy castling wrath veto"}, reserves={0: "1", 1: "1"})
    cards = {a["card"] for a in GAME.legal_actions(state, 0) if a["type"] == "play_action"}
    assert cards == {"wrath"}
    with pytest.raises(IllegalAction, match="no such target"):
        act(state, 0, type="play_action", card="assassination", group="senators", value=3)
    with pytest.raises(IllegalAction, match="Veto is only played"):
        act(state, 0, type="play_action", card="veto")
    empty = position(hands={0: "1"}, actions={0: "scout wrath"}, reserves={0: "1", 1: "1"})
    assert not any(a["type"] == "play_action" for a in GAME.legal_actions(empty, 0))


# ---------------------------------------------------------------------------------------------- 1.9


def test_1_9_1_the_game_ends_when_the_last_patrician_is_won():
    """RULES 1.9.1: the game ends at once, here in the 8-card vote, before any draw or vote card."""
    left = {g: 0 for g in GROUPS}
    left["censors"] = 1
    state = position(groups={"censors": "0: 5 5 5 5 / 1: 1 1 1"}, left=left, hands={0: "2 3"},
                     reserves={0: "1 1", 1: "1"}, vote_deck=["orgy"], won={0: {"senators": 5}})
    state = act(state, 0, **place(2, "censors"))
    state = act(state, 0, type="draw", pile="influence")
    assert GAME.finished(state) and state["ended"] == "last_patrician"
    assert hand(state, 0) == [3] and state["vote_deck"] == ["orgy"]
    assert GAME.to_act(state) == frozenset() and GAME.view(state, 0)["outcome"] is not None


def test_1_9_2_the_game_ends_when_both_players_are_out_of_influence():
    """RULES 1.9.2: no influence card in hand or reserve for either player ends the game (action cards do
    not count)."""
    state = position(hands={0: "1"}, actions={1: "spy"}, groups={"senators": "1: 4"}, vote_deck=["orgy"])
    state = act(act(state, 0, **place(1, "senators")), 0, type="end_turn")
    assert GAME.finished(state) and state["ended"] == "no_influence"


def test_1_9_3_one_player_out_gives_the_other_a_last_turn():
    """RULES 1.9.3: the player who still has influence cards in hand places all that the limits allow, face
    up or face down, with no action card; the 8-card votes are resolved; no vote card; the game ends."""
    groups = {g: "1: 1 1 1 1 1" for g in ("senators", "praetors", "quaestors")}
    groups.update({"censors": "1: 3 3", "aediles": "0: 3 3 3 / 1: 1 1 1 1"})
    state = position(groups=groups, hands={0: "1", 1: "5 4 2 2 2"}, actions={1: "wrath"},
                     vote_deck=["senators", "orgy"])
    state = act(act(state, 0, **place(1, "senators")), 0, type="end_turn")
    assert state["phase"] == "final" and state["active"] == 1
    assert logged(state, "final_turn") == [{"seat": 1, "out_seat": 0}]
    legal = GAME.legal_actions(state, 1)
    assert place(5, "aediles", "up") in legal and place(5, "aediles") in legal
    assert not any(a["type"] in ("play_action", "passive", "draw", "end_turn") for a in legal)
    state = act(state, 1, **place(4, "aediles", "up"))  # the aediles reach 8 cards
    for _ in range(3):
        assert not GAME.finished(state)
        state = act(state, 1, **place(2, "censors"))
    assert GAME.finished(state) and state["ended"] == "final_turn"
    assert hand(state, 1) == [5]  # no room left for César anywhere
    assert state["won"][0][3] == 1  # 9 against 8: the 8-card vote of the last turn was resolved
    assert state["vote_deck"] == ["senators"] and state["vote_discard"] == ["orgy"]  # only Cléopâtre's card


def test_1_9_3_a_last_turn_ends_at_once_when_nothing_fits():
    """RULES 1.9.3: with no room for any card, the last turn is over as soon as it begins."""
    state = position(groups={g: "1: 1 1 1 1 1" for g in GROUPS if g != "senators"}, hands={0: "1", 1: "2"},
                     vote_deck=["orgy"])
    state = act(act(state, 0, **place(1, "senators")), 0, type="end_turn")
    assert not GAME.finished(state)
    state = position(groups={g: "1: 1 1 1 1 1" for g in GROUPS}, hands={0: "1", 1: "2"}, vote_deck=["orgy"])
    state = act(act(state, 0, **place(1, "senators")), 0, type="end_turn")
    assert GAME.finished(state) and state["ended"] == "final_turn" and hand(state, 1) == [2]


def test_1_9_4_patricians_never_won_score_for_nobody():
    """RULES 1.9.4: remaining patricians count for no one."""
    state = position(hands={0: "1"}, won={0: {"senators": 2}, 1: {"aediles": 1}}, vote_deck=["orgy"],
                     missions=("quaestors", "quaestors"))
    state = act(act(state, 0, **place(1, "senators")), 0, type="end_turn")
    assert GAME.outcome(state)["scores"] == [2, 1]


def test_1_9_5_the_end_reveals_every_face_down_card_and_both_missions():
    """RULES 1.9.5 (decided): at the end every face-down card is turned face up and both missions are shown."""
    state = position(groups={"praetors": "0: 3_ / 1: 5_ 2"}, hands={0: "1"}, vote_deck=["orgy"],
                     missions=("senators", "quaestors"))
    state = act(act(state, 0, **place(1, "senators")), 0, type="end_turn")
    assert GAME.finished(state)
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        assert view["groups"][1]["up"] == [[3], [2, 5]] and view["groups"][0]["up"] == [[1], []]
        assert view["missions"] == ["senators", "quaestors"]


# --------------------------------------------------------------------------------------------- 1.10


def finished_with(won, missions=("senators", "praetors"), options=None):
    state = position(hands={0: "1"}, won=won, missions=missions, vote_deck=["orgy"], options=options)
    return act(act(state, 0, **place(1, "censors")), 0, type="end_turn")


def test_1_10_one_point_per_patrician_plus_majority_and_whole_group():
    """RULES 1.10: 1 per patrician; +1 for 3 of 5 or 2 of 3; +1 more for the whole group."""
    state = finished_with({0: {"senators": 3, "aediles": 2}, 1: {"senators": 2, "aediles": 1, "censors": 3}},
                          missions=("quaestors", "quaestors"))
    outcome = GAME.outcome(state)
    assert outcome["scores"] == [3 + 1 + 2 + 1, 2 + 1 + 3 + 1 + 1]
    assert outcome["winners"] == [1] and outcome["tiebreak"] is None
    for seat, lines in enumerate(outcome["breakdown"]):
        assert sum(line["points"] for line in lines) == outcome["scores"][seat]
    assert {"en": "Censors: all of them", "fr": "Censeurs : la totalité", "it": "Censori: tutti quanti",
            "points": 1} in outcome["breakdown"][1]


def test_1_10_worked_example_all_quaestors_with_the_quaestor_mission_is_nine_points():
    """FR-C&C 5.1 example: all 5 Quaestors and the Quaestor mission: 5 + 1 + 1 + 2 = 9."""
    state = finished_with({0: {"quaestors": 5}}, missions=("quaestors", "senators"))
    outcome = GAME.outcome(state)
    assert outcome["scores"] == [9, 0]
    assert [line["points"] for line in outcome["breakdown"][0]] == [5, 1, 1, 2]


def test_1_10_a_mission_needs_at_least_three_patricians_of_its_group():
    """RULES 1.10: the influence bonus needs at least 3 patricians of the group on the card (+2)."""
    two = GAME.outcome(finished_with({0: {"praetors": 2}}, missions=("praetors", "senators")))
    three = GAME.outcome(finished_with({0: {"praetors": 3}}, missions=("praetors", "senators")))
    assert two["scores"][0] == 2 and three["scores"][0] == 3 + 1 + 2


def test_1_10_a_tied_score_is_a_draw_unless_the_tiebreak_option_is_on():
    """RULES 1.10 (PROPOSED): equal scores are a draw; the option breaks the tie by patricians won."""
    won = {0: {"aediles": 2, "censors": 2}, 1: {"senators": 3, "praetors": 2}}
    draw = GAME.outcome(finished_with(won, missions=("quaestors", "quaestors")))
    assert draw["scores"] == [6, 6] and draw["winners"] == [0, 1] and draw["tiebreak"] is None
    broken = GAME.outcome(finished_with(won, missions=("quaestors", "quaestors"),
                                        options={"tiebreak_patricians": True}))
    assert broken["winners"] == [1]
    assert broken["tiebreak"]["en"] == "Equal scores; more patricians won (5 against 4)."


def test_1_10_tiebreak_with_equal_patricians_stays_a_draw():
    """RULES 1.10 (PROPOSED option): equal scores and equal patricians remain a draw."""
    won = {0: {"senators": 3}, 1: {"praetors": 3}}
    outcome = GAME.outcome(finished_with(won, missions=("quaestors", "quaestors"),
                                         options={"tiebreak_patricians": True}))
    assert outcome["winners"] == [0, 1] and outcome["tiebreak"]["en"] == "Equal scores and equal patricians: a draw."
