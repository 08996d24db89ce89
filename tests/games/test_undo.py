"""Undo and confirmations (RULES 0.6 of every game): the properties over random games of every game, every
seat and the spectator, and one rule test per game for what may be taken back and what asks first.

The properties (games.core.conformance.run_undo_checks): after every step of random games that now and then
take a move back, undo is offered only to the seat that just acted, and only if that step drew nothing at
random, left that seat alone to act and showed it nothing new; at a few such steps per game, undo gives the
earlier state back exactly (but for one public log line), so every view and every legal action, and, in a
world resampled for any other viewer, shows that viewer nothing it had not seen."""

from __future__ import annotations

import pytest

from games import REGISTRY
from games.core import LANGS, UNDO, IllegalAction
from games.core.conformance import option_sets, random_step, run_undo_checks
from games.core.game import CORE_CONFIRMATIONS
from games.core import rng
from tests.games.cesar_cleopatre.position import position
from tests.games.test_refusals import codes_in_source, game_prefix, package_of

GAMES_PER_RUN = 200  # per game, spread over player counts and option sets


def cases():
    for slug, game in REGISTRY.items():
        configs = [(p, o) for p in range(game.min_players, game.max_players + 1) for o in option_sets(game)]
        per_config = -(-GAMES_PER_RUN // len(configs))
        for players, options in configs:
            label = "-".join(f"{k}={v}" for k, v in options.items()) or "default"
            yield pytest.param(slug, players, options, per_config, id=f"{slug}-{players}p-{label}")


@pytest.mark.parametrize("slug,players,options,count", list(cases()))
def test_0_6_undo_is_offered_only_when_nothing_became_known_and_restores_exactly(slug, players, options, count):
    report = run_undo_checks(REGISTRY[slug], players, options, seeds=range(1, count + 1))
    assert report.games == count
    assert report.offered and report.restored, f"{slug}: undo was never offered, so nothing was checked"


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_0_6_random_games_take_moves_back_and_still_end(slug):
    game = REGISTRY[slug]
    report = run_undo_checks(game, game.max_players, {}, seeds=range(1, 21), full_checks_per_game=0)
    assert report.taken > 0 and report.games == 20


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_0_6_confirmation_codes_are_those_of_the_source_with_english_and_french_text(slug):
    """Derived, not listed: every confirmation code the engine's source names has a text and every text is
    named by the source (the tables themselves left out); random games meet only those codes."""
    game = REGISTRY[slug]
    own = {game_prefix(game)} - {None}
    named = codes_in_source(package_of(game), own) & set(game.confirmations)
    assert set(game.confirmations) - set(CORE_CONFIRMATIONS) == named, f"{slug}: confirmation texts nothing uses"
    for code, texts in game.confirmations.items():
        assert set(texts) == set(LANGS) and all(texts[lang].strip() for lang in LANGS), code
    met: set[str] = set()
    for players in range(game.min_players, game.max_players + 1):
        met |= run_undo_checks(game, players, {}, seeds=range(1, 6), full_checks_per_game=0).confirmations
    assert met and met <= named


def test_0_6_undo_restores_the_state_and_every_view_exactly():
    game = REGISTRY["cesar_cleopatre"]
    state = position(hands={0: "1 2 3 4 5", 1: "1 2 3"}, reserves={0: "1 2 3", 1: "4 5"}, active=0)
    place = {"type": "place", "value": 3, "group": "aediles", "face": "down"}
    placed = game.apply(state, 0, place)
    assert UNDO in game.legal_actions(placed, 0) and UNDO not in game.legal_actions(placed, 1)
    undone = game.apply(placed, 0, UNDO)
    assert {k: v for k, v in undone.items() if k != "log"} == {k: v for k, v in state.items() if k != "log"}
    assert undone["log"] == state["log"] + [{"key": "core.undo", "args": {"seat": 0}}]
    for seat in (0, 1, None):
        was, now = game.view(state, seat), game.view(undone, seat)
        assert {**now, "log": was["log"]} == was
        assert game.render_log(now["log"][-1], "fr", ["Cléopâtre", "César"]) == "Cléopâtre a repris un coup."
    with pytest.raises(IllegalAction) as refused:
        game.apply(undone, 0, UNDO)  # nothing left to take back
    assert refused.value.code == "core.no_undo"


# ------------------------------------------------------------------------------- César & Cléopâtre


CC = REGISTRY["cesar_cleopatre"]


def cc_turn():
    return position(hands={0: "2 3 4 5", 1: "1 2 3"}, actions={0: "spy"}, reserves={0: "1 2 3", 1: "4 5"},
                    action_reserves={0: "scout"}, active=0)


def test_1_4_9_a_face_down_placement_can_be_taken_back():
    state = cc_turn()
    placed = CC.apply(state, 0, {"type": "place", "value": 5, "group": "senators", "face": "down"})
    assert CC.legal_actions(placed, 0)[-1] == UNDO
    again = CC.apply(CC.apply(placed, 0, UNDO), 0, {"type": "place", "value": 2, "group": "senators", "face": "down"})
    assert "5" in again["hand"][0] and "2" not in again["hand"][0]


def test_1_4_9_a_face_up_placement_cannot_be_taken_back():
    state = cc_turn()
    up = CC.apply(state, 0, {"type": "place", "value": 5, "group": "senators", "face": "up"})
    assert UNDO not in CC.legal_actions(up, 0)
    with pytest.raises(IllegalAction) as refused:
        CC.apply(up, 0, UNDO)
    assert refused.value.code == "core.no_undo"


def test_1_4_9_drawing_with_an_action_card_unused_asks_first():
    placed = CC.apply(cc_turn(), 0, {"type": "place", "value": 5, "group": "senators", "face": "down"})
    view = CC.view(placed, 0)
    marked = {a["type"] for a, c in zip(view["legal_actions"], view["confirm"]) if c == "cc.turn_with_actions_unused"}
    assert "draw" in marked and "play_action" not in marked
    assert view["confirm"][view["legal_actions"].index(UNDO)] is None
    drawn = CC.apply(placed, 0, next(a for a in view["legal_actions"] if a["type"] == "draw"))
    assert UNDO not in CC.legal_actions(drawn, 0)  # a draw shows a card


# ------------------------------------------------------------------------------------ Alea Iacta Est


AIE = REGISTRY["alea_iacta_est"]


def first_placement(state, building: str):
    seat = state["turn"]
    return seat, next(a for a in AIE.legal_actions(state, seat) if a["type"] == "place" and a["building"] == building)


def test_3_3_5_a_placement_can_be_taken_back_before_the_dice_are_passed():
    state = AIE.setup(2, 5, {})
    seat, place = first_placement(state, "forum")
    placed = AIE.apply(state, seat, place)
    assert placed["turn"] == seat and AIE.legal_actions(placed, seat) == [{"type": "end_turn"}, UNDO]
    undone = AIE.apply(placed, seat, UNDO)
    assert undone["rolled"] == state["rolled"] and undone["forum"] == state["forum"] == []
    with pytest.raises(IllegalAction) as refused:
        AIE.apply(placed, seat, {"type": "place", "building": "forum", "dice": place["dice"]})
    assert refused.value.code == "aie.now_end_turn"


def test_3_3_5_no_undo_after_the_roll():
    state = AIE.setup(3, 8, {})
    seat, place = first_placement(state, "castrum")
    passed = AIE.apply(AIE.apply(state, seat, place), seat, {"type": "end_turn"})
    assert passed["turn"] != seat and passed["rolled"] and passed["rng"] != state["rng"]
    assert all(UNDO not in AIE.legal_actions(passed, s) for s in range(3))
    with pytest.raises(IllegalAction):
        AIE.apply(passed, seat, UNDO)


def test_3_3_5_a_templum_placement_asks_first():
    state = AIE.setup(4, 2, {})
    seat, place = first_placement(state, "templum")
    view = AIE.view(state, seat)
    assert view["confirm"][view["legal_actions"].index(place)] == "aie.templum_final"
    placed = AIE.apply(state, seat, place)
    assert placed["turn"] != seat and all(UNDO not in AIE.legal_actions(placed, s) for s in range(4))


def test_0_6_several_undos_in_a_row_walk_back_several_steps():
    from tests.games.ave_cesar.test_rules import ac_state_with_one_seat_to_act

    game = REGISTRY["ave_cesar"]
    start, seat = ac_state_with_one_seat_to_act()
    assert start["senators"][seat] >= 3
    state = start
    for _ in range(2):
        state = game.apply(state, seat, {"type": "sell_senator"})
    assert len(state["undo"]) == 2
    once = game.apply(state, seat, UNDO)
    assert once["senators"][seat] == start["senators"][seat] - 1 and UNDO in game.legal_actions(once, seat)
    twice = game.apply(once, seat, UNDO)
    assert {k: v for k, v in twice.items() if k != "log"} == {k: v for k, v in start.items() if k != "log"}
    assert UNDO not in game.legal_actions(twice, seat)


def test_0_6_bots_never_take_a_move_back():
    """Bots decide on the state without its undo window (InformationSet): with a placement that may be taken
    back, their only move is passing the dice."""
    from games.core.bots import Budget, Novice, Strong

    state = AIE.setup(2, 5, {})
    seat, place = first_placement(state, "forum")
    placed = AIE.apply(state, seat, place)
    assert UNDO in AIE.legal_actions(placed, seat)
    for bot in (Novice(seed=1), Strong(seed=1, budget=Budget(iterations=20, seconds=None))):
        assert bot.choose(AIE, placed, seat) == {"type": "end_turn"}
