"""César & Cléopâtre: hidden information (RULES 0.1, 1.7), the resample every bot relies on, the game log,
and invariants checked at every step of random games."""

from __future__ import annotations

from collections import Counter

import pytest

from games.cesar_cleopatre import view as kn
from games.cesar_cleopatre.components import (
    GROUP_LIMIT,
    GROUP_SIZE,
    GROUPS,
    HAND_SIZE,
    OWN_LIMIT,
    VOTE_CARDS,
    action_deck,
    influence_deck,
    influence_reserve,
    values_of,
)
from games.cesar_cleopatre.view import hidden_zones
from games.core import LANGS, IllegalAction, rng
from games.core.conformance import check_resample_hides, random_game, random_step

from .position import GAME, act, group, hand, position, reserve

OPTION_SETS = [
    {},
    {"action_pile": "arrange", "two_face_down": True},
    {"orgy_removed_on_exhaustion": True, "orgy_removed_before": True, "tiebreak_patricians": True},
]


def game_states(seed, options):
    states = []
    random_game(GAME, 2, seed, options, policy_seed=seed + 1000, visit=lambda s, i: states.append(s))
    return states


def knowledge_matches(state):
    for p in (0, 1):
        influence, action = hidden_zones(state, 1 - p)
        assert kn.consistent(state["knowledge"][p]["influence"], influence), f"seat {p}'s influence knowledge"
        assert kn.consistent(state["knowledge"][p]["action"], action), f"seat {p}'s action knowledge"


def check_invariants(state):
    """Every card is somewhere, exactly once; the limits hold."""
    for p in (0, 1):
        influence = state["hand"][p] + state["reserve"][p] + state["setup"][p] + state["discard"][p]
        influence += "".join(state["up"][p]) + "".join(state["down"][p])
        if state["castle"] and state["castle"]["seat"] == p:
            influence += state["castle"]["cards"]
        assert sorted(values_of(influence)) == influence_deck()
        actions = state["hand_actions"][p] + state["action_reserve"][p] + state["arrange"][p]
        assert sorted(actions + state["action_discard"][p]) == sorted(action_deck())
        assert len(state["hand"][p]) + len(state["hand_actions"][p]) <= HAND_SIZE or state["phase"] == "setup"
    for gi, name in enumerate(GROUPS):
        g = group(state, name)
        assert g["left"] + state["won"][0][gi] + state["won"][1][gi] == GROUP_SIZE[gi]
        for p in (0, 1):
            assert len(g["up"][p]) + len(g["down"][p]) <= OWN_LIMIT
            assert g["up"][p] == sorted(g["up"][p]) and g["down"][p] == sorted(g["down"][p])
        assert sum(len(g[k][p]) for k in ("up", "down") for p in (0, 1)) <= GROUP_LIMIT
        if not g["left"]:
            assert g["up"] == [[], []] and g["down"] == [[], []]
    votes = state["vote_deck"] + state["vote_discard"] + state["vote_removed"]
    assert Counter(votes) == Counter(VOTE_CARDS)


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "arrange-italian", "author-options"])
def test_1_7_every_view_survives_the_resample_leak_test_at_every_step(options):
    """RULES 0.1, 1.7: at every step of whole games, for both seats and a spectator, redrawing everything
    the viewer cannot know leaves its view (log and legal actions included) unchanged, and the redraw
    depends only on what the viewer knows."""
    changed = 0
    for seed in (3, 4):
        for i, state in enumerate(game_states(seed, options)):
            checks, really = check_resample_hides(GAME, state, seed=seed * 100 + i)
            changed += really
    assert changed > 0


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "arrange-italian", "author-options"])
def test_1_7_cards_and_knowledge_stay_consistent_through_whole_games(options):
    """RULES 1.1, 1.4.3, 1.7: at every step every card is in exactly one place, the limits hold, and what
    each seat is tracked to know of the other's hidden cards agrees with the true cards."""
    for seed in (5, 6, 7):
        for state in game_states(seed, options):
            check_invariants(state)
            knowledge_matches(state)


def test_1_7_resampled_states_are_whole_games_that_play_on():
    """RULES 1.7: a resampled state (bots search them) keeps every constraint and can be played to the end,
    the tracked knowledge staying true all along."""
    for seed in (8, 9):
        states = game_states(seed, {"action_pile": "arrange"})
        for state in states[:: max(1, len(states) // 6)]:
            if GAME.finished(state):
                continue
            for seat in (0, 1, None):
                other = GAME.resample(state, seat, seed=seed)
                check_invariants(other)
                knowledge_matches(other)
                holder = {"rng": rng.seed_state(seed)}
                steps = 0
                while not GAME.finished(other):
                    who, action = random_step(GAME, other, holder)
                    other = GAME.apply(other, who, action)
                    steps += 1
                    assert steps < GAME.action_bound(2)
                check_invariants(other)
                knowledge_matches(other)


def test_1_3_4_resample_keeps_what_the_setup_tells_about_the_opponent():
    """RULES 1.3.4: a seat knows the opponent's face-down cards are one series 1..5 and his hand the other,
    and a resample keeps that."""
    state = GAME.setup(2, 21, {})
    for p in (0, 1):
        for v in (5, 4, 3, 2):
            state = act(state, p, type="setup_place", group=GROUPS[5 - len(state["setup"][p])], value=v)
    seen = set()
    for seed in range(30):
        other = GAME.resample(state, 0, seed)
        downs = [group(other, g)["down"][1] for g in GROUPS]
        assert sorted(d[0] for d in downs) == [1, 2, 3, 4, 5] and all(len(d) == 1 for d in downs)
        assert hand(other, 1) == [1, 2, 3, 4, 5] and sorted(reserve(other, 1)) == influence_reserve()
        assert [group(other, g)["down"][0] for g in GROUPS] == [[5], [4], [3], [2], [1]]
        seen.add(tuple(d[0] for d in downs))
    assert len(seen) > 5  # the opponent's arrangement really is redrawn


def test_1_8_3_resample_keeps_what_the_spy_saw():
    """RULES 1.8.3: the spy knows the opponent's hand while choosing, and the rest of it afterwards."""
    state = position(hands={0: "1", 1: "2 5 P 3"}, actions={0: "spy", 1: "veto"}, reserves={0: "1", 1: "3 4 4"},
                     action_reserves={1: "wrath scout"})
    state = act(act(state, 0, type="play_action", card="spy"), 1, type="allow")
    for seed in range(10):
        spied = GAME.resample(state, 0, seed)
        assert hand(spied, 1) == [0, 2, 3, 5] and spied["hand_actions"][1] == ["veto"]
    assert len({GAME.resample(state, None, s)["hand"][1] for s in range(10)}) > 1
    state = act(act(state, 0, type="spy_pick", value=5), 1, type="draw", pile="influence")
    hands = set()
    for seed in range(20):
        cards = hand(GAME.resample(state, 0, seed), 1)
        assert Counter(cards) >= Counter([0, 2, 3]) and len(cards) == 4
        hands.add(tuple(cards))
    assert len(hands) > 1  # the replacement card is unknown


def test_1_3_3_resample_keeps_an_arranged_pile_for_its_owner_only():
    """RULES 1.3.3: the owner of an arranged pile knows its order; a shuffled pile's order nobody knows."""
    state = GAME.setup(2, 23, {"action_pile": "arrange"})
    for p in (0, 1):
        for v in (5, 4, 3, 2):
            state = act(state, p, type="setup_place", group=GROUPS[5 - len(state["setup"][p])], value=v)
        while state["arrange"][p]:
            state = act(state, p, type="arrange", card=state["arrange"][p][-1])
    assert GAME.resample(state, 0, 1)["action_reserve"][0] == state["action_reserve"][0]
    assert len({tuple(GAME.resample(state, 0, s)["action_reserve"][1]) for s in range(5)}) > 1
    shuffled = GAME.setup(2, 23, {})
    assert len({tuple(GAME.resample(shuffled, 0, s)["action_reserve"][0]) for s in range(5)}) > 1


def test_1_7_resample_drops_the_log_lines_the_seat_cannot_see():
    """RULES 0.1: the redrawn world carries no private line of the other seat (a bot reads nothing secret)."""
    state = position(hands={0: "1 2"}, reserves={0: "3", 1: "3"})
    state = act(state, 0, type="place", value=2, group="senators", face="down")
    assert any(e.get("to") == [0] for e in state["log"])
    assert not any(e.get("to") == [0] for e in GAME.resample(state, 1, 4)["log"])
    assert any(e.get("to") == [0] for e in GAME.resample(state, 0, 4)["log"])


def test_0_1_public_log_lines_never_name_a_face_down_card():
    """RULES 0.1: a face-down placement is public only as a count; the value goes to its owner's line."""
    state = position(hands={0: "4 2"}, reserves={0: "3", 1: "3"})
    state = act(state, 0, type="place", value=4, group="praetors", face="down")
    public = [e for e in state["log"] if e["key"] == "place_down"]
    private = [e for e in state["log"] if e["key"] == "place_down_own"]
    assert public == [{"key": "place_down", "args": {"seat": 0, "group": "praetors"}, "hide": [0]}]
    assert private == [{"key": "place_down_own", "args": {"seat": 0, "group": "praetors", "value": 4}, "to": [0]}]
    assert GAME.render_log(private[0], "fr", ["Ana", "Bo"]) == "Vous posez votre 4 face cachée devant les Préteurs."
    assert GAME.render_log(public[0], "en", ["Ana", "Bo"]) == "Ana places a card face down at the Praetors."


def test_every_log_line_renders_in_both_languages():
    """RULES 0.5: every log line of whole games is a full sentence in English and in French, with the
    French names in French (no missing argument)."""
    keys = set()
    for seed, options in ((11, {}), (12, OPTION_SETS[1]), (13, OPTION_SETS[2])):
        final = game_states(seed, options)[-1]
        for entry in final["log"]:
            keys.add(entry["key"])
            for lang in LANGS:
                text = GAME.render_log(entry, lang, ["Ana", "Bo"])
                assert "{" not in text and "}" not in text and text != entry["key"], text
    assert {"turn", "place_down", "vote_card", "game_over"} <= keys
    assert set(GAME.messages) >= keys


def test_refusals_are_precise_and_reveal_nothing():
    """RULES 0.1 (no error text leaks): a refused action gets a sentence about the seat's own cards or
    public facts, never the opponent's."""
    state = position(groups={"praetors": "1: 4"}, hands={0: "1 2"}, actions={0: "assassination"},
                     reserves={0: "1", 1: "1"})
    with pytest.raises(IllegalAction, match="no such influence card"):
        act(state, 0, type="place", value=5, group="senators", face="down")
    with pytest.raises(IllegalAction, match="no such group"):
        act(state, 0, type="place", value=1, group="forum", face="down")
    with pytest.raises(IllegalAction, match="Place your influence before drawing"):
        act(state, 0, type="draw", pile="influence")
    with pytest.raises(IllegalAction, match="only in a passive turn"):
        act(state, 0, type="discard", value=1)
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 1, type="passive")


ODD_ACTIONS = [
    {"type": "place", "group": ["senators"], "value": {}, "face": None},
    {"type": "place", "group": "senators", "value": [1], "face": "sideways"},
    {"type": "play_action", "card": ["spy"]},
    {"type": "play_action", "card": "castling", "groups": "senators"},
    {"type": "spy_pick", "value": None},
    {"type": "castle", "value": "5", "group": 3},
    {"type": "draw", "pile": {}},
    {"type": "refill", "influence": -1},
    {"type": "discard", "card": ["veto"]},
    {"type": "veto", "extra": True},
]


def test_0_1_odd_input_is_refused_with_a_sentence_in_every_phase():
    """RULES 0.1: whatever a client sends, in any phase, the answer is a refusal sentence (never a crash),
    and the state is untouched."""
    phases = set()
    for state in game_states(14, {"action_pile": "arrange", "two_face_down": True}):
        if GAME.finished(state):
            continue
        phases.add(state["phase"])
        before = GAME.encode(state)
        for seat in GAME.to_act(state):
            for action in ODD_ACTIONS:
                with pytest.raises(IllegalAction) as refused:
                    GAME.apply(state, seat, action)
                assert str(refused.value)
        assert GAME.encode(state) == before
    assert {"setup", "turn", "veto", "draw"} <= phases
