"""César & Cléopâtre: components, setup and the turn (RULES 1.1 to 1.4; RULES.md in the package)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.cesar_cleopatre.components import (
    ACTION_COUNTS,
    GROUP_SIZE,
    GROUPS,
    MISSIONS,
    VOTE_CARDS,
    action_deck,
    influence_deck,
    influence_reserve,
    values_of,
)
from games.core import UNDO, IllegalAction

from .position import GAME, act, discards, group, hand, logged, position, reserve


def place(value, group_name, face="down"):
    return {"type": "place", "value": value, "group": group_name, "face": face}


def finish_setup(state, seat, order=(5, 4, 3, 2)):
    for v in order:
        state = act(state, seat, type="setup_place", group=GROUPS[len(GROUPS) - len(state["setup"][seat])], value=v)
    return state


# ------------------------------------------------------------------------------------------ 1.1, 1.2


def test_1_1_components_are_the_published_counts():
    """RULES 1.1: 37 influence cards per side (7 x 1..5, 2 Philosophers), 21 patricians in 5 groups,
    8 vote cards, 6 secret missions."""
    deck = influence_deck()
    assert len(deck) == 37 and Counter(deck) == {0: 2, 1: 7, 2: 7, 3: 7, 4: 7, 5: 7}
    assert dict(zip(GROUPS, GROUP_SIZE)) == {"senators": 5, "praetors": 5, "quaestors": 5, "aediles": 3, "censors": 3}
    assert Counter(VOTE_CARDS) == {**{g: 1 for g in GROUPS}, "orgy": 2, "orgy_reshuffle": 1}
    assert Counter(MISSIONS) == {"senators": 2, "praetors": 2, "quaestors": 2}


def test_1_2_thirteen_action_cards_per_side():
    """RULES 1.2: Assassination 4, Spy 2, Castling 2, Scout 2, Wrath of the Gods 1, Veto 2."""
    assert ACTION_COUNTS == {"assassination": 4, "spy": 2, "castling": 2, "scout": 2, "wrath": 1, "veto": 2}
    assert len(action_deck()) == 13


def test_1_1_every_card_is_accounted_for_after_setup():
    """RULES 1.1: each side's 37 influence and 13 action cards are all in the game from the start."""
    state = GAME.setup(2, 3, {})
    for p in (0, 1):
        assert sorted(hand(state, p) + reserve(state, p) + values_of(state["setup"][p])) == influence_deck()
        assert sorted(state["action_reserve"][p]) == sorted(action_deck())


# ---------------------------------------------------------------------------------------------- 1.3


def test_1_3_1_patricians_face_up_and_vote_cards_shuffled_face_down():
    """RULES 1.3.1: 21 patricians in 5 piles; the 8 vote cards shuffled face down."""
    state = GAME.setup(2, 5, {})
    view = GAME.view(state, 0)
    assert [g["left"] for g in view["groups"]] == [5, 5, 5, 3, 3]
    assert view["vote_cards"] == {"deck": 8, "discard": [], "removed": []}
    assert len({tuple(GAME.setup(2, seed, {})["vote_deck"]) for seed in range(12)}) > 1


def test_1_3_2_two_series_set_aside_and_the_rest_is_the_influence_reserve():
    """RULES 1.3.2: two series 1..5 are set aside; 25 numbered cards and 2 Philosophers are shuffled into
    the influence reserve."""
    state = GAME.setup(2, 7, {})
    for p in (0, 1):
        assert sorted(reserve(state, p)) == influence_reserve()
        assert len(reserve(state, p)) == 27 and reserve(state, p).count(0) == 2
        assert hand(state, p) == [1, 2, 3, 4, 5] and values_of(state["setup"][p]) == [1, 2, 3, 4, 5]
    assert reserve(state, 0) != sorted(reserve(state, 0))  # shuffled


def test_1_3_3_action_pile_is_shuffled_by_default():
    """RULES 1.3.3: by default the 13 action cards are shuffled; nobody knows their order."""
    state = GAME.setup(2, 9, {})
    assert len(state["action_reserve"][0]) == 13 and state["arrange"] == [[], []]
    assert GAME.view(state, 0)["my_action_pile"] is None
    assert len({tuple(GAME.setup(2, s, {})["action_reserve"][0]) for s in range(8)}) > 1


def test_1_3_3_action_pile_arranged_by_its_owner():
    """RULES 1.3.3 (option "arrange"): each player stacks his action cards in the order he chooses, card by
    card from the top; he sees that order, his opponent only the count."""
    state = GAME.setup(2, 9, {"action_pile": "arrange"})
    state = finish_setup(state, 0)
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"arrange"}
    chosen = ["veto", "spy", "spy", "wrath", "veto", "castling", "castling", "scout", "scout",
              "assassination", "assassination", "assassination"]
    for card in chosen:
        state = act(state, 0, type="arrange", card=card)
    assert state["arrange"][0] == []  # the 13th card went under the others without a question
    own = GAME.view(state, 0)["my_action_pile"]
    assert own == chosen + ["assassination"]  # top first
    assert GAME.view(state, 1)["my_action_pile"] != own
    assert GAME.view(state, 1)["reserve_counts"][0] == {"influence": 27, "action": 13}
    assert state["action_reserve"][0][-1] == "veto"  # the top card is drawn first


def test_1_3_4_each_player_places_one_series_face_down_group_by_group():
    """RULES 1.3.4: one card of the set-aside series at each group, face down, in the arrangement the player
    chooses; the other series is his hand. Both players set up at the same time."""
    state = GAME.setup(2, 11, {})
    assert GAME.to_act(state) == {0, 1}
    assert GAME.legal_actions(state, 0) == [
        {"type": "setup_place", "group": "senators", "value": v} for v in (1, 2, 3, 4, 5)]
    state = finish_setup(state, 0, order=(2, 5, 1, 4))  # the last card (3) has one place left
    assert [group(state, g)["down"][0] for g in GROUPS] == [[2], [5], [1], [4], [3]]
    assert hand(state, 0) == [1, 2, 3, 4, 5]
    assert GAME.to_act(state) == {1}
    seen = GAME.view(state, 1)
    assert [g["down"] for g in seen["groups"]] == [[1, 0]] * 5
    assert all(g["up"] == [[], []] for g in seen["groups"])
    assert [g["mine"] for g in GAME.view(state, 0)["groups"]] == [[2], [5], [1], [4], [3]]


def test_1_3_5_each_player_draws_a_secret_mission():
    """RULES 1.3.5: each player draws one mission in secret; the other four leave the game unseen."""
    state = GAME.setup(2, 13, {})
    assert all(m in MISSIONS for m in state["missions"]) and len(state["missions"]) == 2
    assert GAME.view(state, 0)["mission"] == state["missions"][0]
    assert GAME.view(state, 1)["mission"] == state["missions"][1]
    assert GAME.view(state, None)["mission"] is None and GAME.view(state, 0)["missions"] is None
    assert len({tuple(GAME.setup(2, s, {})["missions"]) for s in range(20)}) > 1


def test_1_3_6_cleopatra_starts_once_both_have_set_up():
    """RULES 1.3.6: Cléopâtre (seat 0) plays first, after both setups."""
    state = GAME.setup(2, 15, {})
    state = finish_setup(state, 1)
    assert state["phase"] == "setup" and GAME.to_act(state) == {0}
    state = finish_setup(state, 0)
    assert state["phase"] == "turn" and GAME.to_act(state) == {0}


# ---------------------------------------------------------------------------------------------- 1.4


def test_1_4_1_active_or_passive_is_chosen_at_the_start_of_the_turn():
    """RULES 1.4.1: a turn is active or passive; the first active move decides, and passive is only
    offered before it."""
    state = position(hands={0: "1 2 3"}, reserves={0: "4 4 4"})
    legal = GAME.legal_actions(state, 0)
    assert {"type": "passive"} in legal and place(1, "senators") in legal
    state = act(state, 0, **place(1, "senators"))
    assert {"type": "passive"} not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="already begun an active turn"):
        act(state, 0, type="passive")


def test_1_4_2_2_one_card_face_down_ends_the_placement():
    """RULES 1.4.2: exactly one card face down (without the Italian option, a second is refused)."""
    state = position(hands={0: "1 2 3"}, reserves={0: "4 4 4"})
    state = act(state, 0, **place(3, "senators"))
    assert group(state, "senators")["down"][0] == [3]
    legal = GAME.legal_actions(state, 0)
    assert not any(a["type"] == "place" for a in legal)
    # No action card in hand: only the refill, or taking the face-down card back (RULES 1.4.9).
    assert legal == [{"type": "draw", "pile": "influence"}, UNDO]
    with pytest.raises(IllegalAction, match="already placed"):
        act(state, 0, **place(2, "senators"))


def test_1_4_2_2_two_cards_face_up_to_one_or_two_groups():
    """RULES 1.4.2: or exactly two face up, to the same group or to two groups; the second must be face up."""
    state = position(hands={0: "1 2 3"}, reserves={0: "4 4 4"})
    first = act(state, 0, **place(3, "senators", "up"))
    legal = GAME.legal_actions(first, 0)
    assert legal and all(a["type"] == "place" and a["face"] == "up" for a in legal)
    with pytest.raises(IllegalAction, match="also go face up"):
        act(first, 0, **place(2, "senators", "down"))
    same = act(first, 0, **place(2, "senators", "up"))
    assert group(same, "senators")["up"][0] == [2, 3]
    apart = act(first, 0, **place(1, "censors", "up"))
    assert group(apart, "senators")["up"][0] == [3] and group(apart, "censors")["up"][0] == [1]


def test_1_4_2_2_a_first_face_up_card_needs_a_second_one_to_follow():
    """RULES 1.4.2: a single card in hand, or a single free space, cannot take two face-up cards."""
    lonely = position(hands={0: "3"}, reserves={0: "4"})
    assert not any(a.get("face") == "up" for a in GAME.legal_actions(lonely, 0))
    full = {g: "0: 1 1 1 1 1" for g in GROUPS if g != "censors"}
    full["censors"] = "0: 1 1 1 1"  # one space left in the whole forum
    tight = position(groups=full, hands={0: "2 3"}, reserves={0: "4"})
    legal = GAME.legal_actions(tight, 0)
    assert place(2, "censors") in legal and place(2, "censors", "up") not in legal
    with pytest.raises(IllegalAction, match="nowhere to go"):
        act(tight, 0, **place(2, "censors", "up"))


def test_1_4_2_3_at_most_five_own_cards_at_a_group():
    """RULES 1.4.3: a player has at most 5 of his own cards at a group."""
    state = position(groups={"senators": "0: 1 2 3 4_ 5_"}, hands={0: "1 2"}, reserves={0: "3"})
    assert not any(a.get("group") == "senators" for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="already have 5 cards"):
        act(state, 0, **place(1, "senators"))


def test_1_4_2_3_at_most_eight_cards_at_a_group():
    """RULES 1.4.3: at most 8 cards at a group, both players together."""
    state = position(groups={"senators": "0: 1 2 3 / 1: 1 2 3 4 5"}, hands={0: "1 2"}, reserves={0: "3"})
    assert not any(a.get("group") == "senators" for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="already holds 8 cards"):
        act(state, 0, **place(1, "senators"))


def test_1_4_2_1_one_optional_action_card_before_or_after_the_placement_not_after_drawing():
    """RULES 1.4.2.1: the action card may come before or after the placement, but before drawing."""
    groups = {"praetors": "1: 4"}
    before = position(groups=groups, hands={0: "1 2"}, actions={0: "assassination"},
                      reserves={0: "3 3 3", 1: "1"}, action_reserves={0: "spy spy"})
    kill = {"type": "play_action", "card": "assassination", "group": "praetors", "value": 4}
    assert kill in GAME.legal_actions(before, 0)
    state = act(act(before, 0, **kill), 1, type="allow")
    assert state["phase"] == "turn" and any(a["type"] == "place" for a in GAME.legal_actions(state, 0))
    after = act(before, 0, **place(1, "senators"))
    assert kill in GAME.legal_actions(after, 0)
    drawing = act(after, 0, type="draw", pile="influence")
    assert drawing["phase"] == "draw" and hand(drawing, 0) == [2, 3]
    assert {a["type"] for a in GAME.legal_actions(drawing, 0)} == {"draw", "refill"}
    with pytest.raises(IllegalAction):
        act(drawing, 0, **kill)


def test_1_4_2_4_two_face_down_cards_only_with_the_italian_option():
    """RULES 1.4.4: off by default; with the option, a player who plays no action card may place a second
    card face down, and then plays no action card."""
    setup = dict(groups={"praetors": "1: 4"}, hands={0: "1 2 3"}, actions={0: "assassination"},
                 reserves={0: "3 3 3", 1: "1"}, action_reserves={0: "spy"})
    plain = act(position(**setup), 0, **place(1, "senators"))
    assert not any(a["type"] == "place" for a in GAME.legal_actions(plain, 0))
    italian = act(position(options={"two_face_down": True}, **setup), 0, **place(1, "senators"))
    assert place(2, "censors") in GAME.legal_actions(italian, 0)
    assert place(2, "censors", "up") not in GAME.legal_actions(italian, 0)
    two = act(italian, 0, **place(2, "censors"))
    assert two["phase"] == "draw" and "assassination" in two["hand_actions"][0]
    assert {a["type"] for a in GAME.legal_actions(two, 0)} == {"draw", "refill"}
    kill = {"type": "play_action", "card": "assassination", "group": "praetors", "value": 4}
    first_action = act(act(position(options={"two_face_down": True}, **setup), 0, **kill), 1, type="allow")
    one = act(first_action, 0, **place(1, "senators"))
    assert one["phase"] == "draw"  # the placement is over after one face-down card


def test_1_4_2_5_eight_card_vote_comes_after_the_action_card_and_before_drawing():
    """RULES 1.4.5: a group reaching 8 cards votes after the placement and the optional action card, and
    before the refill; an action card can still change the group before the check."""
    groups = {"praetors": "0: 5 5 5 / 1: 1 1 1 1"}
    state = position(groups=groups, hands={0: "4 2"}, actions={0: "assassination"}, reserves={0: "3 3 3"},
                     action_reserves={0: "spy"}, vote_deck=["orgy"])
    state = act(state, 0, **place(4, "praetors"))
    assert group(state, "praetors")["left"] == 5  # not yet: the action card may still come
    kill = {"type": "play_action", "card": "assassination", "group": "praetors", "value": 1}
    saved = act(act(state, 0, **kill), 1, type="allow")  # 7 cards again: no vote
    assert group(saved, "praetors")["left"] == 5 and not logged(saved, "vote_won")
    voted = act(state, 0, type="draw", pile="influence")
    assert group(voted, "praetors")["left"] == 4 and voted["won"][0][1] == 1
    voted = act(act(voted, 0, type="draw", pile="influence"), 0, type="draw", pile="action")
    keys = [e["key"] for e in voted["log"]]
    assert keys.index("vote_won") < keys.index("refill") < keys.index("vote_card")


def test_1_4_2_5_every_group_with_eight_cards_votes():
    """RULES 1.4.5: several 8-card groups each have their own vote."""
    groups = {"senators": "0: 5 5 5 5 / 1: 1 1 1 1", "censors": "0: 1 1 1 1 / 1: 5 5 5 5"}
    state = position(groups=groups, hands={0: "2"}, reserves={0: "3"}, vote_deck=["orgy"])
    state = act(state, 0, **place(2, "praetors"))
    state = act(state, 0, type="draw", pile="influence")
    assert state["won"] == [[1, 0, 0, 0, 0], [0, 0, 0, 0, 1]]


def test_1_4_2_6_refill_to_five_choosing_the_reserve_of_each_card():
    """RULES 1.4.2.6: draw up to 5, each card from the reserve of the player's choice."""
    state = position(hands={0: "1 2 3"}, reserves={0: "4 4 4", 1: "1"}, action_reserves={0: "spy veto wrath"},
                     vote_deck=["orgy"])
    state = act(state, 0, **place(1, "senators"))
    state = act(state, 0, type="draw", pile="action")
    assert state["phase"] == "draw" and GAME.legal_actions(state, 0) == [
        {"type": "draw", "pile": "influence"}, {"type": "draw", "pile": "action"},
        {"type": "refill", "influence": 0}, {"type": "refill", "influence": 1}, {"type": "refill", "influence": 2}]
    state = act(state, 0, type="draw", pile="influence")
    assert hand(state, 0) == [2, 3, 4] and state["hand_actions"][0] == ["wrath"]
    state = act(state, 0, type="draw", pile="action")
    assert state["hand_actions"][0] == ["veto", "wrath"] and state["active"] == 1
    assert GAME.view(state, 1)["hand_counts"][0] == {"influence": 3, "action": 2}


def test_1_4_2_6_the_whole_refill_can_be_chosen_at_once():
    """RULES 1.4.2.6: instead of card by card, the player may draw every missing card at once, choosing how
    many come from each reserve (within what each holds)."""
    state = position(hands={0: "1 2 3 4"}, reserves={0: "4 4 5", 1: "1"}, action_reserves={0: "spy"},
                     vote_deck=["orgy"])
    state = act(state, 0, **place(1, "senators", "up"))
    state = act(state, 0, **place(2, "senators", "up"))
    refills = [a for a in GAME.legal_actions(state, 0) if a["type"] == "refill"]
    assert refills == [{"type": "refill", "influence": k} for k in (2, 3)]  # only one action card is left
    state = act(state, 0, type="refill", influence=2)
    assert hand(state, 0) == [3, 4, 4, 5] and state["hand_actions"][0] == ["spy"] and state["active"] == 1
    assert reserve(state, 0) == [4]
    refill = [e for e in state["log"] if e["key"] == "refill"][0]
    assert refill["args"] == {"seat": 0, "influence": 2, "actions": 1} and refill["hide"] == [0]


def test_1_4_2_7_the_vote_card_is_drawn_after_the_refill():
    """RULES 1.4.7: an active turn ends with the top vote card: a group card calls a vote there."""
    state = position(groups={"aediles": "0: 4 / 1: 2"}, hands={0: "1"}, vote_deck=["orgy", "aediles"])
    state = act(act(state, 0, **place(1, "senators")), 0, type="end_turn")
    assert logged(state, "vote_card") == [{"card": "aediles"}]
    assert state["won"][0][3] == 1 and state["vote_discard"] == ["aediles"] and state["vote_deck"] == ["orgy"]


def test_1_4_3_passive_turn_exchanges_cards_and_draws_no_vote_card():
    """RULES 1.4.3: discard any number of cards, refill to 5, no placement and no vote card."""
    state = position(hands={0: "1 1 2"}, actions={0: "spy veto"}, reserves={0: "5 5 5", 1: "1"},
                     action_reserves={0: "wrath"}, vote_deck=["orgy", "senators"])
    state = act(state, 0, type="passive")
    legal = GAME.legal_actions(state, 0)
    assert {"type": "discard", "value": 1} in legal and {"type": "discard", "card": "spy"} in legal
    assert {"type": "end_turn"} in legal and not any(a["type"] in ("place", "play_action") for a in legal)
    state = act(state, 0, type="discard", value=1)
    state = act(state, 0, type="discard", card="spy")
    state = act(state, 0, type="draw", pile="influence")
    assert not any(a["type"] == "discard" for a in GAME.legal_actions(state, 0))
    state = act(state, 0, type="draw", pile="influence")
    assert hand(state, 0) == [1, 2, 5, 5] and state["hand_actions"][0] == ["veto"]
    assert discards(state)[0] == [1] and state["action_discard"][0] == ["spy"]
    assert state["vote_deck"] == ["orgy", "senators"] and state["active"] == 1


def test_1_4_4_the_owner_always_sees_his_face_down_cards():
    """RULES 1.4.4: in the app the owner always sees his own face-down cards; nobody else does."""
    state = position(groups={"senators": "0: 4_ P_ 2 / 1: 3_"}, hands={0: "1"})
    mine = GAME.view(state, 0)["groups"][0]
    theirs = GAME.view(state, 1)["groups"][0]
    assert mine["mine"] == [0, 4] and mine["down"] == [2, 1] and mine["up"] == [[2], []]
    assert theirs["mine"] == [3] and theirs["down"] == [2, 1]
    assert GAME.view(state, None)["groups"][0]["mine"] is None


def test_1_4_5_an_empty_reserve_means_drawing_from_the_other():
    """RULES 1.4.5: when one reserve is empty the cards come from the other; when both are, the player plays
    on with fewer than 5 cards."""
    state = position(hands={0: "1 2"}, action_reserves={0: "spy veto scout wrath"}, vote_deck=["orgy"],
                     reserves={1: "1"})
    state = act(act(state, 0, **place(1, "senators")), 0, type="draw", pile="action")
    assert state["hand_actions"][0] == ["scout", "spy", "veto", "wrath"] and state["active"] == 1
    empty = position(hands={0: "1 2"}, vote_deck=["orgy"], reserves={1: "3"})
    empty = act(act(empty, 0, **place(1, "senators")), 0, type="end_turn")
    assert hand(empty, 0) == [2] and empty["active"] == 1


def test_1_4_6_no_legal_placement_means_a_passive_turn():
    """RULES 1.4.6: without an influence card in hand, or with no room anywhere, only passive is allowed."""
    no_influence = position(actions={0: "spy assassination"}, hands={1: "1"}, groups={"senators": "1: 3"},
                            reserves={0: "1"})
    assert GAME.legal_actions(no_influence, 0) == [{"type": "passive"}]
    full = position(groups={g: "0: 1 1 1 1 1" for g in GROUPS}, hands={0: "2"}, actions={0: "wrath"},
                    reserves={0: "1"})
    assert GAME.legal_actions(full, 0) == [{"type": "passive"}]


def test_1_4_6_no_exchange_possible_is_a_pass():
    """RULES 1.4.6: with nothing to exchange or draw, the passive player passes."""
    state = position(reserves={1: "1"})
    state = act(state, 0, type="passive")
    assert GAME.legal_actions(state, 0) == [{"type": "end_turn"}, UNDO]  # or no longer passive (RULES 1.4.9)
    state = act(state, 0, type="end_turn")
    assert state["active"] == 1 and logged(state, "pass") == [{"seat": 0}]


def test_1_4_7_passive_turns_that_discard_nothing_never_end_the_game():
    """RULES 1.4.7: a passive turn that discards nothing is a legal, harmless turn. At the very start, with
    full hands and full reserves, both players stay passive several times in a row: the game goes on."""
    state = GAME.setup(2, 7, {})
    while state["phase"] == "setup":
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    for turn in range(6):
        seat = state["active"]
        assert seat == turn % 2 and len(state["hand"][seat]) == 5
        state = act(act(state, seat, type="passive"), seat, type="end_turn")
        assert not GAME.finished(state) and GAME.outcome(state) is None
    assert logged(state, "pass") == [{"seat": turn % 2} for turn in range(6)]
    assert any(a["type"] == "place" for a in GAME.legal_actions(state, 0))


def test_1_4_7_a_true_deadlock_ends_the_game_with_the_usual_scoring():
    """RULES 1.4.7: when neither player can ever place again (no room at any group for an influence card he
    holds or can still draw), nothing can change the board: the game ends at the start of the next turn and
    is scored as usual (1.10)."""
    full = {g: "0: 1 1 1 1 / 1: 2 2 2 2" for g in ("senators", "praetors", "quaestors")}  # 8 cards: no room
    state = position(groups=full, left={"aediles": 0, "censors": 0}, hands={0: "1 2 3 4 5", 1: "5"},
                     reserves={0: "1 2", 1: "3"}, won={0: {"aediles": 3, "senators": 1}, 1: {"censors": 3}},
                     missions=("senators", "praetors"))
    assert GAME.legal_actions(state, 0) == [{"type": "passive"}]
    state = act(state, 0, type="passive")
    assert GAME.legal_actions(state, 0)[0]["type"] == "discard"  # he could still discard and draw...
    state = act(state, 0, type="end_turn")
    assert GAME.finished(state) and state["ended"] == "stalemate"  # ...but nothing could change the board
    outcome = GAME.outcome(state)
    # Aediles (censors): 3 of 3, majority, all of them; senators: 1 of 5; both missions missed.
    assert outcome["scores"] == [3 + 1 + 1 + 1, 3 + 1 + 1] and outcome["winners"] == [0]
    assert outcome == GAME.score(state)


def test_1_4_7_no_deadlock_while_one_player_can_still_draw_a_card_that_fits():
    """RULES 1.4.7: a player with no influence card in hand but room and influence cards in his reserve can
    place again later: the game goes on."""
    state = position(groups={"senators": "0: 1 1 1 1 / 1: 2 2 2 2"}, actions={0: "spy"}, hands={1: "5"},
                     reserves={0: "1 2", 1: "3"}, left={"aediles": 0, "censors": 0})
    assert GAME.legal_actions(state, 0) == [{"type": "passive"}]
    state = act(state, 0, type="passive")
    while state["active"] == 0:
        state = act(state, 0, type="draw", pile="influence")
    assert not GAME.finished(state) and hand(state, 0) == [1, 2]


def test_1_4_8_a_group_with_no_patricians_left_takes_no_cards():
    """RULES 1.4.8 (decided): an exhausted group is closed: no placement, no action card targets it."""
    state = position(left={"aediles": 0}, hands={0: "1 2"}, actions={0: "castling wrath"},
                     groups={"senators": "0: 3"}, reserves={0: "1"})
    legal = GAME.legal_actions(state, 0)
    assert not any(a.get("group") == "aediles" or "aediles" in a.get("groups", ()) for a in legal)
    with pytest.raises(IllegalAction, match="no patricians left"):
        act(state, 0, **place(1, "aediles"))
