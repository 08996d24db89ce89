"""RULES 3.11 (edge cases, PROPOSED), the action bound, and the game log in both languages."""

import re

import pytest

from games.alea_iacta_est import components, view
from games.alea_iacta_est.messages import MESSAGES
from games.core import LANGS, rng
from games.core.conformance import random_game

from .builder import GAME, act, log_keys, place, position


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_3_11_the_senate_deck_never_runs_out(players):
    """3.11: at most 3 cards are drawn a round, always from the cards never seen, which outnumber the draws
    (18 cards for 6 x 3 draws at 2-3 players, 19 for 5 x 3 at 4-5)."""
    conf = components.SETUP[players]
    assert conf["rounds"] * components.SENATE_DRAW <= len(components.senate_deck(players))


def test_3_11_if_the_deck_ever_ran_out_the_returned_cards_would_come_back():
    """3.11: if the deck were empty, the cards returned under it are drawn next (knowledge of them is dropped),
    and fewer cards are offered if there are fewer than 3."""
    state = position(4, start=0, rolled=[1], unplaced={0: 1, 1: 0, 2: 0, 3: 0}, senatus={3: [5]}, senate_deck=[])
    state["senate_under"] = ["II", "VII"]
    state["senate_known"][1] = [{"cards": ["II"], "slots": ["u0"]}, {"cards": ["VII"], "slots": ["u1"]}]
    state = act(state, 0, place("forum", 1))
    assert state["phase"] == "senate" and state["senate_offer"] == ["II", "VII"]
    assert state["senate_known"][1] == []
    state = act(state, 3, {"type": "keep_senate", "card": "VII"})
    assert state["senate_hands"][3] == ["VII"] and state["senate_under"] == ["II"]
    state = position(4, senate_deck=[])
    state["senate_under"] = ["II", "VII", "XIII"]
    state["senate_known"][2] = [{"cards": ["II", "XIII"], "slots": ["h1.0", "u0"]},
                                {"cards": ["XIII"], "slots": ["u2"]}]
    view.senate_take_from_under(state)
    assert state["senate_deck"] == ["II"] and state["senate_known"][2] == [{"cards": ["XIII"], "slots": ["u1"]}]


def test_3_11_with_both_fortuna_piles_empty_no_tile_is_drawn():
    """3.11: the draw pile is refilled from the discards; with both empty, no tile is drawn."""
    state = position(4, start=0, rolled=[5, 6], fortuna_pile=[], fortuna_discard=[])
    state = act(state, 0, place("templum", 6))
    assert state["templum"][0] == [6] and state["fortuna_drawn"][0] == []
    assert log_keys(state)[:2] == ["place_templum", "fortuna_empty"]
    assert state["log"][0]["args"]["count"] == 0


def test_3_11_province_and_patrician_stocks_suffice():
    """3.11/3.2: 25 provinces cover 5 players x 5 rounds; 36 patricians cover 7 columns x 5 rounds."""
    for players, conf in components.SETUP.items():
        assert conf["rounds"] * conf["provinces"] <= len(components.PROVINCES)
        assert conf["rounds"] * conf["columns"] <= len(components.PATRICIANS)
    final, _ = random_game(GAME, 5, 8, {}, policy_seed=8)
    assert sum(len(p) for p in final["provinces"]) <= 25 and final["province_pile"] == []


def test_3_11_the_order_of_the_patricians_under_the_forum_columns_has_no_effect():
    """3.11/3.7.3: every chooser picks among all revealed patricians, so their order changes nothing."""
    base = position(2, start=0, rolled=[2], unplaced={0: 1, 1: 0}, forum=[(1, 1)],
                    patrician_offer=["gallia-m1", "germania-w2", "hispania-m3", "aegyptus-w1"])
    other = position(2, start=0, rolled=[2], unplaced={0: 1, 1: 0}, forum=[(1, 1)],
                     patrician_offer=["aegyptus-w1", "hispania-m3", "germania-w2", "gallia-m1"])
    a, b = act(base, 0, place("forum", 2)), act(other, 0, place("forum", 2))
    assert sorted(map(str, GAME.legal_actions(a, 1))) == sorted(map(str, GAME.legal_actions(b, 1)))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_action_bound_holds_even_for_a_player_who_always_re_rolls(players):
    """The action bound covers every placement, evaluation choice and re-roll a game can hold."""
    state = GAME.setup(players, 5)
    count = 0
    while not GAME.finished(state):
        seat = sorted(GAME.to_act(state))[0]
        actions = GAME.legal_actions(state, seat)
        rerolls = [a for a in actions if a["type"] == "reroll"]
        state = GAME.apply(state, seat, rerolls[-1] if rerolls else actions[0])
        count += 1
    assert count < GAME.action_bound(players)


def test_every_log_entry_renders_in_english_and_french():
    """The log (RULES 0.5): every key has both sentences and every entry of a game renders fully."""
    names = ["Aulus", "Brutus", "Cassia", "Decimus", "Euphemia"]
    used = set()
    for players in (2, 4, 5):
        final, _ = random_game(GAME, players, 3 + players, {}, policy_seed=players)
        for entry in final["log"]:
            used.add(entry["key"])
            for lang in LANGS:
                text = GAME.render_log(entry, lang, names[:players])
                assert not re.search(r"[{}]", text), text
                assert entry["key"] in MESSAGES and text != entry["key"]
    assert {"round_start", "place", "place_templum", "castrum_take", "forum_take", "chips"} <= used
    for key, sentences in MESSAGES.items():
        assert set(sentences) == set(LANGS), key
    entry = {"key": "chips", "args": {"per_seat": [0, 2, 1]}}
    assert GAME.render_log(entry, "en", names[:3]) == "Latrina: one Repete chip per die there: Brutus 2, Cassia 1."
    entry = {"key": "place", "args": {"seat": 0, "roll": 13566, "dice": 66, "building": "castrum"}}
    assert GAME.render_log(entry, "fr", names) == "Aulus obtient 1-3-5-6-6 et place 6-6 au Castrum."



def check_invariants(state):
    """Components are conserved: 8 dice a player during a round, 30 Fortuna tiles, every Senate card once."""
    if state["phase"] == "turn":
        for seat in range(state["players"]):
            on_board = (state["unplaced"][seat] + len(state["templum"][seat]) + len(state["senatus"][seat])
                        + sum(state["castrum"][seat]) + sum(1 for s, _ in state["forum"] if s == seat)
                        + state["latrina"][seat])
            assert on_board == components.DICE_PER_PLAYER, (seat, state)
    fortuna = (state["fortuna_pile"] + state["fortuna_discard"] + sum(state["fortuna_drawn"], [])
               + sum(state["fortuna_kept"], []))
    assert sorted(fortuna) == (sorted(components.FORTUNA_TILES) if components.SETUP[state["players"]]["templum"] else [])
    assert len(state["fortuna_discard"]) == len(state["fortuna_discard_by"])
    senate = (state["senate_deck"] + state["senate_under"] + sum(state["senate_hands"], [])
              + state["senate_offer"])
    assert sorted(senate) == sorted(components.senate_deck(state["players"]))
    seen = state["province_pile"] + state["province_offer"] + sum(state["provinces"], [])
    assert len(seen) == len(set(seen)) <= 25 and len(state["forum"]) <= components.SETUP[state["players"]]["columns"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_components_are_conserved_through_random_games(players):
    """3.1/3.2: no die, tile or card is ever created or lost, whatever the play (random, and re-rolling
    every third decision when it can)."""
    holder = {"rng": rng.seed_state(players)}
    for seed in range(12):
        state = GAME.setup(players, 100 + seed)
        while not GAME.finished(state):
            check_invariants(state)
            seat = sorted(GAME.to_act(state))[rng.below(holder, len(GAME.to_act(state)))]
            actions = GAME.legal_actions(state, seat)
            rerolls = [a for a in actions if a["type"] == "reroll"]
            pool = rerolls if rerolls and rng.below(holder, 3) == 0 else actions
            state = GAME.apply(state, seat, pool[rng.below(holder, len(pool))])
        check_invariants(state)


def test_3_4_the_lobby_pitch_promises_the_templum_only_with_4_or_5_players():
    """RULES 3.4: the Templum (and Fortuna with it) is in play at 4 and 5 players only; the lobby may not
    promise it to a table of 2 or 3."""
    for lang, text in GAME.pitch.items():
        for building in ("Templum", "Fortuna"):
            if building in text:
                assert re.search(r"4 (or|ou|o) 5", text), (lang, text)
