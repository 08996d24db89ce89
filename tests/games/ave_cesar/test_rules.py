"""Ave César rule tests, one (or more) per numbered rule of games/ave_cesar/RULES.md, which follows
RULES 0 and §2. Each test names its rule number."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.ave_cesar import AveCesar, components, rules
from games.core import LANGS, UNDO, IllegalAction, rng
from games.core.conformance import random_step

from .builder import GAME, act, keys, legal, pass_all, position, types

NO_OPTIONS = {"influence": False, "anti_bad_luck": False}


def view(state, seat):
    return GAME.view(state, seat)


def start_counters(state, seat=None):
    """The active player goes to the Counters and every opponent declines to join."""
    state = act(state, state["active"] if seat is None else seat, "counters")
    return pass_all(state, "decline_counters")


# ============================================================================ 2.1 components

def test_2_1_1_resource_cards_six_types_values_1_to_9_in_three_decks_by_value_band():
    assert len(components.RESOURCES) == 54 == len(set(components.RESOURCES))
    assert Counter(components.RESOURCE_TYPE.values()) == {t: 9 for t in components.RESOURCE_TYPES}
    assert [len(d) for d in components.DECKS] == [18, 18, 18]
    assert [sorted({components.RESOURCE_VALUE[c] for c in d}) for d in components.DECKS] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    # the seed's auction example has Meat 2 and Wheat 9 in the same auction: different decks
    assert components.RESOURCE_BAND["meat2"] != components.RESOURCE_BAND["wheat9"]


def test_2_1_2_fifteen_senate_cards_six_governors_five_censors_two_consuls_two_quaestors():
    assert len(components.SENATE_DECK) == 15
    assert Counter(components.SENATE_DECK) == {**{g: 1 for g in components.GOVERNORS}, "censor": 5, "consul": 2, "quaestor": 2}
    assert {components.GOVERNOR_TYPE[g] for g in components.GOVERNORS} == set(components.RESOURCE_TYPES)
    assert components.card_name("governor_meat")["fr"].startswith("Gouverneur de Gaule")  # the one legible province


def test_2_1_3_twenty_two_events_with_proposed_deficit_amounts():
    assert len(components.EVENT_DECK) == 22
    counts = Counter(components.EVENT_DECK)
    assert counts["war"] == 5 and counts["new_senator"] == 3 and counts["civil_conflict"] == 3
    assert counts["eviction"] == 2 and counts["senate_majority"] == 6
    assert sorted(components.DEFICIT_AMOUNT[d] for d in components.EVENT_DECK if d in components.DEFICIT_AMOUNT) == [10, 15, 20]


def test_2_1_4_nine_influence_cards():
    assert len(components.INFLUENCE) == 9 == len(set(components.INFLUENCE))
    assert all(components.card_name(c) for c in components.INFLUENCE)


def test_2_1_5_every_proposed_number_is_in_one_data_table():
    proposed = components.PROPOSED
    assert proposed["bid_spaces"] == tuple(range(1, 16))
    assert proposed["deficit_amounts"] == (10, 15, 20)
    assert proposed["new_senator_floor"] == 1
    assert proposed["extortion_min_price"] == 1
    assert proposed["war_min_winning_total"] == 1
    assert proposed["deck_values"] == ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    assert len(proposed["provinces"]) == 6


# ============================================================================ 2.2 setup

def test_2_2_1_every_player_starts_with_five_senators():
    for players in (3, 4, 5):
        assert GAME.setup(players, 7, NO_OPTIONS)["senators"] == [5] * players


def test_2_2_2_one_card_of_each_deck_dealt_face_down_as_the_hand():
    state = GAME.setup(4, 3, NO_OPTIONS)
    for seat in range(4):
        assert sorted(components.RESOURCE_BAND[c] for c in state["hands"][seat]) == [0, 1, 2]
    assert [len(d) for d in state["decks"]] == [14, 14, 14]
    other = view(state, 1)
    assert other["table"][0]["hand_size"] == 3 and other["table"][0]["hand_known"] == []
    assert other["table"][0]["hand_hidden_bands"] == [1, 1, 1]  # the dots on the backs
    text = json.dumps(other)
    assert not any(c in text for c in state["hands"][0])
    assert view(state, 0)["you"]["hand"] == state["hands"][0]


def test_2_2_3_senate_and_event_decks_are_shuffled_face_down():
    orders = {tuple(GAME.setup(3, seed, NO_OPTIONS)["senate_deck"]) for seed in range(1, 6)}
    assert len(orders) > 1
    state = GAME.setup(3, 1, NO_OPTIONS)
    assert sorted(state["senate_deck"]) == sorted(components.SENATE_DECK)
    # the first event is already drawn at the start of the first turn
    assert len(state["events"]) + len(state["events_drawn"]) == 22
    spectator = view(state, None)
    assert spectator["senate_deck"] == 15 and spectator["events_left"] == len(state["events"])
    assert "senate_deck_order" not in json.dumps(spectator)


def test_2_2_4_starting_money_10_13_16_19_22_clockwise_from_a_random_first_player():
    firsts = set()
    for seed in range(1, 30):
        state = GAME.setup(5, seed, NO_OPTIONS)
        first = state["first"]
        firsts.add(first)
        for k, expected in enumerate(components.START_MONEY):  # as dealt, before the first event moves any
            seat = (first + k) % 5
            entry = next(e for e in state["log"] if e["key"] == "start_money" and e["to"] == [seat])
            assert entry["args"]["amount"] == expected
        assert state["active"] == first
    assert firsts == set(range(5))


def test_2_2_5_influence_draft_players_plus_one_from_the_right_of_the_first_player_counter_clockwise():
    state = GAME.setup(4, 5, {"influence": True, "anti_bad_luck": False})
    first = state["first"]
    assert state["phase"] == "draft" and len(state["draft"]["offer"]) == 5
    offer = list(state["draft"]["offer"])
    order = []
    for _ in range(4):
        (picker,) = GAME.to_act(state)
        order.append(picker)
        card = legal(state, picker)[0]["card"]
        state = act(state, picker, "draft", card=card)
        assert card in state["influence"][picker]  # face up in front of him
    assert order == [(first - 1) % 4, (first - 2) % 4, (first - 3) % 4, first]
    leftover = [c for c in offer if not any(c in inf for inf in state["influence"])]
    assert len(leftover) == 1 and "draft_leftover" in keys(state)
    assert state["turn"] == 1 and state["active"] == first


# ============================================================================ 2.3 Senate cards

def test_2_3_1_governor_counts_as_any_value_of_its_own_type_in_a_sale():
    state = position(3, hands={0: ["wood2", "wood3"]}, senate={0: ["governor_wood"]})
    state = start_counters(state)
    sale = {"type": "sell", "cards": ["governor_wood", "wood2", "wood3"]}
    assert sale in legal(state, 0)
    state = act(state, 0, "sell", cards=sale["cards"])
    assert state["phase"] == "governor_value"
    assert [a["value"] for a in legal(state, 0) if a["type"] == "governor_value"] == list(range(1, 10))
    before = state["money"][0]
    state = act(state, 0, "governor_value", value=4)  # 2, 3, 4: a run
    assert state["money"][0] - before == 9 + 15
    assert "governor_wood" in state["senate_discard"] and state["senate"][0] == []


def test_2_3_1_governor_in_a_set_of_one_value_takes_that_value_and_only_its_own_type():
    state = position(3, hands={0: ["iron7", "olives7", "wheat5"]}, senate={0: ["governor_wood"]})
    state = start_counters(state)
    sells = [a["cards"] for a in legal(state, 0) if a["type"] == "sell"]
    assert ["governor_wood", "iron7", "olives7"] in sells
    assert ["governor_wood", "iron7", "wheat5"] not in sells  # neither one type nor one value
    before = state["money"][0]
    state = act(state, 0, "sell", cards=["governor_wood", "iron7", "olives7"])
    assert state["money"][0] - before == 21 and state["phase"] == "counters"


def test_2_3_2_censor_steals_a_senator_only_from_a_player_with_strictly_more_senators():
    state = position(4, senators=[4, 6, 4, 3], senate={0: ["censor"]})
    state = start_counters(state)
    targets = [a["target"] for a in legal(state, 0) if a["type"] == "censor"]
    assert targets == [1]  # not seat 2 (equal) nor seat 3 (fewer)
    state = act(state, 0, "censor", target=1)
    assert state["senators"] == [5, 5, 4, 3] and state["senate_discard"] == ["censor"]


def test_2_3_2_censor_cannot_target_the_praetors():
    state = position(3, senators=[4, 6, 7], senate={0: ["censor"]}, influence={1: ["praetors"]})
    state = start_counters(state)
    assert [a["target"] for a in legal(state, 0) if a["type"] == "censor"] == [2]


def test_2_3_3_consul_makes_every_senator_cost_7_during_this_counters():
    state = position(3, money=[30, 30, 30], senate={0: ["consul"]})
    state = start_counters(state)
    state = act(state, 0, "play_consul")
    assert {"type": "play_consul"} not in legal(state, 0)
    for _ in range(4):
        state = act(state, 0, "buy_senator")
    assert state["money"][0] == 2 and state["senators"][0] == 9
    assert {"type": "buy_senator"} not in legal(state, 0)


def test_2_3_3_consul_lasts_only_for_that_counters_action():
    state = position(3, money=[30, 30, 30], senate={1: ["consul"]})
    state = act(state, 0, "counters")
    state = act(state, 1, "join_counters")
    state = act(state, 1, "play_consul")
    state = act(state, 1, "buy_senator")
    assert state["money"][1] == 30 - 5 - 7
    state = act(state, 1, "end_counters")
    state = act(state, 2, "decline_counters")
    state = act(state, 0, "buy_senator")
    assert state["money"][0] == 30 + 5 - 10


def test_2_3_4_quaestor_sells_any_three_cards_for_their_sum_seed_example_1_5_9_is_15():
    state = position(3, hands={0: ["wheat1", "iron5", "wood9"]}, senate={0: ["quaestor"]})
    state = start_counters(state)
    cards = ["iron5", "wheat1", "wood9"]
    assert {"type": "sell", "cards": cards} not in legal(state, 0)
    before = state["money"][0]
    state = act(state, 0, "quaestor_sale", cards=cards)
    assert state["money"][0] - before == 15
    assert state["senate"][0] == [] and state["senate_discard"] == ["quaestor"]


def test_2_3_4_quaestor_sale_has_no_run_bonus_and_may_include_a_governor():
    state = position(3, hands={0: ["wood2", "wood3"]}, senate={0: ["quaestor", "governor_wood"]})
    state = start_counters(state)
    state = act(state, 0, "quaestor_sale", cards=["governor_wood", "wood2", "wood3"])
    assert state["phase"] == "governor_value"
    before = state["money"][0]
    state = act(state, 0, "governor_value", value=4)
    assert state["money"][0] - before == 9  # 2 + 3 + 4, no run bonus
    assert sorted(state["senate_discard"]) == ["governor_wood", "quaestor"]


def test_2_3_5_senate_cards_are_face_up_any_number_single_use():
    state = position(3, senate={1: ["censor", "censor", "consul"]})
    assert view(state, 2)["table"][1]["senate"] == ["censor", "censor", "consul"]
    state = position(3, senators=[3, 6, 6], senate={0: ["censor", "censor"]})
    state = start_counters(state)
    state = act(state, 0, "censor", target=1)
    assert state["senate"][0] == ["censor"] and state["senate_discard"] == ["censor"]


def test_2_3_5_senate_cards_are_played_only_at_the_counters():
    state = position(3, senate={0: ["censor", "consul", "quaestor"]}, senators=[3, 6, 6])
    assert not {"censor", "play_consul", "quaestor_sale"} & types(state, 0)
    state = act(state, 0, "extortion")
    assert not {"censor", "play_consul", "quaestor_sale"} & types(state, 0)


# ============================================================================ 2.4 events

def test_2_4_1_war_is_a_secret_simultaneous_bid_the_highest_gains_a_senator_all_money_to_the_bank():
    state = position(3, phase="event", events=["war"], money=[20, 20, 20])
    assert state["phase"] == "sealed_bid" and GAME.to_act(state) == {0, 1, 2}
    state = act(state, 2, "seal_bid", amount=7)
    assert GAME.to_act(state) == {0, 1}
    state = act(state, 0, "seal_bid", amount=3)
    state = act(state, 1, "seal_bid", amount=5)
    assert state["senators"] == [5, 5, 6] and state["money"] == [17, 15, 13]
    assert state["wars"] == 1 and state["events_drawn"] == ["war"] and state["phase"] == "choose_action"


def test_2_4_1_war_ties_for_the_highest_bid_all_gain_and_cavalry_adds_3_free():
    state = position(3, phase="event", events=["war"], money=[20, 20, 20], influence={1: ["cavalry"]})
    state = act(state, 0, "seal_bid", amount=6)
    state = act(state, 1, "seal_bid", amount=3)
    state = act(state, 2, "seal_bid", amount=6)
    assert state["senators"] == [6, 6, 6]
    assert state["money"] == [14, 17, 14]  # the Cavalry's 3 are free


def test_2_4_2_war_with_every_bid_at_zero_gives_nobody_a_senator():
    state = position(3, phase="event", events=["war"])
    for seat in range(3):
        state = act(state, seat, "seal_bid", amount=0)
    assert state["senators"] == [5, 5, 5] and "war_nobody" in keys(state)


def test_2_4_3_the_fourth_war_is_not_resolved_and_ends_the_game():
    state = position(3, phase="event", events=["war"], wars=3, senators=[5, 7, 6])
    assert GAME.finished(state) and state["wars"] == 4 and state["sealed"] is None
    outcome = GAME.outcome(state)
    assert outcome["winners"] == [1] and outcome["scores"] == [5, 7, 6]


def test_2_4_4_new_senator_descending_auction_from_15_active_first_then_clockwise():
    state = position(3, phase="event", events=["new_senator"], active=1, money=[20, 20, 20])
    assert state["phase"] == "new_senator" and state["offer"]["price"] == 15
    asked = []
    for _ in range(3):
        (seat,) = GAME.to_act(state)
        asked.append(seat)
        state = act(state, seat, "decline_senator")
    assert asked == [1, 2, 0] and state["offer"]["price"] == 14
    state = act(state, 1, "decline_senator")
    state = act(state, 2, "accept_senator")
    assert state["senators"] == [5, 5, 6] and state["money"] == [20, 20, 6] and state["phase"] == "choose_action"


def test_2_4_4_new_senator_price_stops_at_1_and_nobody_at_1_means_no_senator():
    state = position(3, phase="event", events=["new_senator"], money=[0, 0, 0])
    declines = 0
    while state["phase"] == "new_senator":
        (seat,) = GAME.to_act(state)
        assert {"type": "accept_senator"} not in legal(state, seat)  # no coins
        state = act(state, seat, "decline_senator")
        declines += 1
    assert declines == 15 * 3 and state["senators"] == [5, 5, 5] and "offer_unsold" in keys(state)


def test_2_4_5_public_deficit_covered_the_highest_bidders_gain_a_senator():
    state = position(3, phase="event", events=["deficit_15"], money=[20, 20, 20])
    state = act(state, 0, "seal_bid", amount=5)
    state = act(state, 1, "seal_bid", amount=5)
    state = act(state, 2, "seal_bid", amount=5)
    assert state["senators"] == [6, 6, 6] and state["money"] == [15, 15, 15]


def test_2_4_5_public_deficit_short_the_lowest_bidders_lose_a_senator():
    state = position(4, phase="event", events=["deficit_20"], money=[20, 20, 20, 20])
    for seat, amount in enumerate([2, 9, 2, 4]):
        state = act(state, seat, "seal_bid", amount=amount)
    assert state["senators"] == [4, 5, 4, 5]  # total 17 < 20
    assert state["money"] == [18, 11, 18, 16]  # the bids still go to the bank


def test_2_4_5_public_deficit_ignores_the_cavalry():
    state = position(3, phase="event", events=["deficit_10"], money=[20, 20, 20], influence={0: ["cavalry"]})
    for seat, amount in enumerate([4, 5, 0]):
        state = act(state, seat, "seal_bid", amount=amount)
    assert state["senators"] == [5, 5, 4]  # 9 < 10: the lowest (0) loses; the Cavalry adds nothing here


def test_2_4_6_civil_conflict_everyone_pays_5_except_governor_holders():
    state = position(3, phase="event", events=["civil_conflict"], money=[10, 10, 10],
                     senate={2: ["governor_iron"]})
    assert state["money"] == [5, 5, 10] and state["phase"] == "choose_action"


def test_2_4_6_civil_conflict_a_player_short_of_cash_sells_senators_to_pay():
    state = position(3, phase="event", events=["civil_conflict"], money=[3, 10, 10], senators=[2, 5, 5])
    assert state["senators"][0] == 1 and state["money"][0] == 3 + 5 - 5
    assert "senator_sold_debt" in keys(state)


def test_2_4_7_eviction_discards_every_governor_except_under_tribunes_support():
    state = position(3, phase="event", events=["eviction"],
                     senate={0: ["governor_wood", "censor"], 1: ["governor_iron"], 2: ["governor_meat"]},
                     influence={2: ["tribunes"]})
    assert state["senate"] == [["censor"], [], ["governor_meat"]]
    assert sorted(state["senate_discard"]) == ["governor_iron", "governor_wood"]


def test_2_4_8_senate_majority_seed_example_6_4_4_2_senators_earn_6_2_2_0():
    state = position(4, phase="event", events=["senate_majority"], senators=[6, 4, 4, 2], money=[0, 0, 0, 0])
    assert state["money"] == [6, 2, 2, 0]


def test_2_4_8_senate_majority_counts_only_players_still_in_the_game():
    state = position(4, phase="event", events=["civil_conflict", "senate_majority"], senators=[3, 1, 2, 2],
                     money=[10, 0, 10, 10], senate={0: ["governor_iron"]})
    assert state["out"][1]  # could not pay the Civil Conflict
    state = act(state, 0, "extortion")  # nothing to extort: the turn ends
    assert state["money"] == [10 + 3 + 4, 0, 5, 5]  # extortion 3, then 2 × 2: seat 1 no longer counts


def test_2_4_9_anti_bad_luck_two_wars_in_the_upper_ten_three_in_the_lower_twelve():
    for seed in range(1, 20):
        state = GAME.setup(3, seed, {"influence": False, "anti_bad_luck": True})
        deck = state["events_drawn"] + state["events"]
        assert len(deck) == 22
        assert deck[:10].count("war") == 2 and deck[10:].count("war") == 3
        assert sorted(deck) == sorted(components.EVENT_DECK)
    state = GAME.setup(3, 1, {"influence": False, "anti_bad_luck": True})
    assert view(state, 0)["upper_pile_left"] == 10 - len(state["events_drawn"])


# ============================================================================ 2.5 influence cards

def test_2_5_1_vox_populi_gains_a_senator_each_counters_joining_included():
    state = position(3, influence={0: ["vox_populi"]}, active=1)
    state = act(state, 1, "counters")
    state = act(state, 2, "decline_counters")
    state = act(state, 0, "join_counters")
    assert state["senators"][0] == 6 and "vox_populi" in keys(state)
    state = position(3, influence={0: ["vox_populi"]})
    state = start_counters(state)
    assert state["senators"][0] == 6


def test_2_5_2_tribunes_support_keeps_governors_through_eviction():
    state = position(3, phase="event", events=["eviction"], senate={1: ["governor_olives"]},
                     influence={1: ["tribunes"]})
    assert state["senate"][1] == ["governor_olives"] and "evict_protected" in keys(state)


def test_2_5_3_lictors_extortion_pays_8_instead_of_3():
    state = position(3, money=[0, 0, 0], influence={0: ["lictors"]})
    assert act(state, 0, "extortion")["money"][0] == 8
    assert act(position(3, money=[0, 0, 0]), 0, "extortion")["money"][0] == 3


def test_2_5_4_merchants_take_one_lot_for_1_paid_to_its_highest_bidder():
    state = position(3, money=[20, 20, 20], influence={0: ["merchants"]},
                     decks={0: ["wood1"], 1: ["wood5"], 2: ["wood9"]}, senate_deck=["consul"])
    state = act(state, 0, "auction")
    state = act(state, 1, "bid", lot=2, amount=12)
    state = pass_all(state, "end_bids")
    assert {"type": "merchants", "lot": 2} in legal(state, 0)
    state = act(state, 0, "merchants", lot=2)
    assert state["money"][0] == 19 and state["money"][1] == 21 and "wood9" in state["resources"][0]
    assert state["active"] == 1  # the other lots were free: the auction is over


def test_2_5_4_merchants_only_once_per_auction():
    state = position(3, money=[20, 20, 20], influence={0: ["merchants"]},
                     decks={0: ["wood1"], 1: ["wood5"], 2: ["wood9"]}, senate_deck=["consul"])
    state = act(state, 0, "auction")
    state = act(state, 1, "bid", lot=1, amount=3)
    state = act(state, 1, "bid", lot=2, amount=4)
    state = pass_all(state, "end_bids")
    state = act(state, 0, "merchants", lot=1)
    assert "merchants" not in types(state, 0)


def test_2_5_5_cavalry_adds_3_to_a_war_bid():
    state = position(3, phase="event", events=["war"], influence={2: ["cavalry"]})
    state = act(state, 0, "seal_bid", amount=2)
    state = act(state, 1, "seal_bid", amount=2)
    state = act(state, 2, "seal_bid", amount=0)
    assert state["senators"] == [5, 5, 6] and "bid_revealed_cavalry" in keys(state)


def test_2_5_6_pontifex_maximus_adds_9_per_value_1_card_sold_governor_as_1_included():
    state = position(3, hands={0: ["wheat1", "iron1"]}, senate={0: ["governor_wood"]},
                     influence={0: ["pontifex"]})
    state = start_counters(state)
    state = act(state, 0, "sell", cards=["governor_wood", "iron1", "wheat1"])  # a value set: the Governor is 1
    assert state["money"][0] == 30 + 3 + 27
    assert keys(state)[-1] == "sale_pontifex"


def test_2_5_6_pontifex_maximus_also_counts_in_a_quaestor_sale():
    state = position(3, hands={0: ["wheat1", "iron5", "wood9"]}, senate={0: ["quaestor"]},
                     influence={0: ["pontifex"]}, money=[0, 0, 0])
    state = start_counters(state)
    state = act(state, 0, "quaestor_sale", cards=["iron5", "wheat1", "wood9"])
    assert state["money"][0] == 15 + 9


def test_2_5_7_princeps_senatus_takes_3_per_weaker_opponent():
    state = position(4, phase="event", events=["senate_majority"], senators=[6, 4, 4, 2], money=[0, 0, 0, 0],
                     influence={1: ["princeps"]})
    assert state["money"] == [6, 3, 2, 0]


def test_2_5_8_prefects_protect_one_card_before_the_first_extortion_but_not_themselves():
    state = position(3, resources={1: ["wood5"]}, senate={1: ["consul"]}, influence={1: ["prefects"]})
    state = act(state, 0, "extortion")
    assert state["phase"] == "prefects" and GAME.to_act(state) == {1}
    protect = sorted(a["card"] for a in legal(state, 1) if a["type"] == "protect")
    assert protect == ["consul", "wood5"]  # not the Prefects card itself
    state = act(state, 1, "protect", card="wood5")
    targets = sorted(a["card"] for a in legal(state, 0) if a["type"] == "extort")
    assert targets == ["consul", "prefects"]  # the Prefects can still be extorted


def test_2_5_8_prefects_window_opens_even_with_nothing_else_to_protect():
    state = position(3, influence={2: ["prefects"]})
    state = act(state, 0, "extortion")
    assert GAME.to_act(state) == {2}
    assert types(state, 2) == {"no_protection", "sell_senator"}
    state = act(state, 2, "no_protection")
    assert state["phase"] == "extortion_target"


def test_2_5_9_praetors_protect_from_censors():
    state = position(3, senators=[2, 6, 6], senate={0: ["censor"]}, influence={1: ["praetors"], 2: ["praetors"]})
    state = start_counters(state)
    assert "censor" not in types(state, 0)


def test_2_5_10_influence_cards_are_face_up_and_can_be_extorted_never_discarded():
    state = position(3, money=[20, 20, 20], influence={1: ["lictors"]})
    assert view(state, None)["table"][1]["influence"] == ["lictors"]
    state = act(state, 0, "extortion")
    state = act(state, 0, "extort", card="lictors")
    state = act(state, 0, "price", amount=4)
    state = act(state, 1, "give_up")
    assert state["influence"] == [["lictors"], [], []]
    # used at the Counters: never discarded
    state = position(3, influence={0: ["vox_populi"]})
    state = start_counters(state)
    state = act(state, 0, "end_counters")
    assert state["influence"][0] == ["vox_populi"]


# ============================================================================ 2.6 the turn

def test_2_6_1_each_turn_is_an_event_then_exactly_one_action_clockwise_from_the_10_coin_player():
    state = GAME.setup(3, 4, NO_OPTIONS)
    first = state["first"]
    # Play until the first player's action: the first event has been drawn by then.
    while state["phase"] != "choose_action":
        seat = min(GAME.to_act(state))
        state = act(state, seat, legal(state, seat)[0]["type"], **{k: v for k, v in legal(state, seat)[0].items()
                                                                    if k != "type"})
    assert state["active"] == first and len(state["events_drawn"]) == 1
    assert types(state, first) == {"auction", "extortion", "counters", "sell_senator"}
    state = act(state, first, "extortion")
    while state["active"] == first and not GAME.finished(state):
        seat = min(GAME.to_act(state))
        move = next(a for a in legal(state, seat) if a["type"] in ("spare", "no_protection"))
        state = GAME.apply(state, seat, move)
    assert state["active"] == (first + 1) % 3 and len(state["events_drawn"]) == 2


def test_2_6_a1_auction_turns_up_the_top_card_of_each_resource_deck_and_of_the_senate_deck():
    state = position(3, decks={0: ["meat2", "wood1"], 1: ["olives4"], 2: ["wheat9"]}, senate_deck=["consul", "censor"])
    state = act(state, 0, "auction")
    assert [lot["card"] for lot in state["auction"]["lots"]] == ["meat2", "olives4", "wheat9", "consul"]
    assert state["decks"] == [["wood1"], [], []] and state["senate_deck"] == ["censor"]


def test_2_6_a2_others_bid_in_turn_from_the_left_at_most_one_cube_per_lot_each_strictly_higher():
    state = position(4, active=1, money=[30] * 4)
    state = act(state, 1, "auction")
    assert "bid" not in types(state, 1)
    assert GAME.to_act(state) == {2}
    state = act(state, 2, "bid", lot=0, amount=5)
    assert not any(a["type"] == "bid" and a["lot"] == 0 for a in legal(state, 2))
    state = act(state, 2, "end_bids")
    assert GAME.to_act(state) == {3}
    amounts = [a["amount"] for a in legal(state, 3) if a["type"] == "bid" and a["lot"] == 0]
    assert amounts == list(range(6, 16))
    with pytest.raises(IllegalAction, match="strictly higher"):
        act(state, 3, "bid", lot=0, amount=5)
    state = act(state, 3, "end_bids")
    assert GAME.to_act(state) == {0}


def test_2_6_a3_seed_auction_example_cattle_2_free_and_wheat_9_bought_from_player_3_for_3():
    state = position(3, money=[20, 20, 20], decks={0: ["meat2"], 1: ["olives4"], 2: ["wheat9"]},
                     senate_deck=["consul"])
    state = act(state, 0, "auction")
    state = act(state, 1, "bid", lot=1, amount=4)
    state = act(state, 1, "bid", lot=2, amount=2)
    state = act(state, 1, "end_bids")
    state = act(state, 2, "bid", lot=2, amount=3)  # "player 3"
    state = act(state, 2, "bid", lot=3, amount=1)
    state = act(state, 2, "end_bids")
    assert state["phase"] == "auction_settling"
    assert "meat2" in state["resources"][0]  # nobody bid: free
    state = act(state, 0, "buy_lot", lot=2)
    assert state["money"] == [17, 20, 23] and "wheat9" in state["resources"][0]
    state = act(state, 0, "sell_lot", lot=1)
    assert state["money"] == [21, 16, 23] and state["resources"][1] == ["olives4"]
    state = act(state, 0, "sell_lot", lot=3)
    assert state["senate"][2] == ["consul"] and state["money"] == [22, 16, 22]
    assert state["phase"] == "choose_action" and state["active"] == 1


def test_2_6_a3_the_active_player_settles_lots_in_the_order_he_chooses():
    state = position(3, money=[20, 20, 20], decks={0: ["meat2"], 1: ["olives4"], 2: ["wheat9"]},
                     senate_deck=["consul"])
    state = act(state, 0, "auction")
    for lot in range(4):
        state = act(state, 1, "bid", lot=lot, amount=1)
    state = pass_all(state, "end_bids")
    assert {a["lot"] for a in legal(state, 0) if a["type"] == "sell_lot"} == {0, 1, 2, 3}
    state = act(state, 0, "sell_lot", lot=3)
    state = act(state, 0, "sell_lot", lot=0)
    assert {a["lot"] for a in legal(state, 0) if a["type"] == "sell_lot"} == {1, 2}


def test_2_6_a4_auctioned_cards_are_face_up_in_front_of_their_new_owner():
    state = position(3, decks={0: ["meat2"], 1: [], 2: []}, senate_deck=[])
    state = act(state, 0, "auction")
    state = pass_all(state, "end_bids")
    assert view(state, 2)["table"][0]["resources"] == ["meat2"]
    assert state["hands"][0] == []


def test_2_6_a5_bid_spaces_are_1_to_15():
    state = position(3, money=[99, 99, 99])
    state = act(state, 0, "auction")
    amounts = {a["amount"] for a in legal(state, 1) if a["type"] == "bid"}
    assert amounts == set(range(1, 16))
    with pytest.raises(IllegalAction):
        act(state, 1, "bid", lot=0, amount=16)


def test_2_6_a6_a_players_open_bids_may_not_exceed_his_cash():
    state = position(3, money=[20, 10, 20])
    state = act(state, 0, "auction")
    state = act(state, 1, "bid", lot=0, amount=6)
    assert max(a["amount"] for a in legal(state, 1) if a["type"] == "bid") == 4
    with pytest.raises(IllegalAction, match="total more than the coins you hold"):
        act(state, 1, "bid", lot=1, amount=5)


def test_2_6_a7_an_empty_deck_is_rebuilt_from_its_discards_and_an_empty_board_offers_nothing():
    state = position(3, decks={0: [], 1: [], 2: []}, discards={0: ["wood1", "iron2"]}, senate_deck=[])
    state = act(state, 0, "auction")
    assert [lot["card"] for lot in state["auction"]["lots"]][0] in ("wood1", "iron2")
    assert len(state["auction"]["lots"]) == 1 and state["deck_known"][0] is True
    assert "deck_rebuilt" in keys(state) and keys(state).count("board_empty") == 2
    empty = position(3, decks={0: [], 1: [], 2: []}, senate_deck=[])
    assert "auction" not in types(empty, 0)


def test_2_6_a7_an_empty_senate_deck_is_rebuilt_from_the_used_senate_cards():
    state = position(3, decks={0: [], 1: [], 2: []}, senate_deck=[])
    state["senate_discard"] = ["censor", "consul"]
    state = act(state, 0, "auction")
    assert [lot["card"] for lot in state["auction"]["lots"]] in (["censor"], ["consul"])
    assert len(state["senate_deck"]) == 1 and state["senate_discard"] == [] and "senate_rebuilt" in keys(state)


def test_2_6_b1_extortion_takes_3_from_the_bank():
    state = position(3, money=[1, 1, 1])
    state = act(state, 0, "extortion")
    assert state["money"] == [4, 1, 1]


def test_2_6_b2_at_most_one_face_up_card_per_opponent_clockwise_never_from_hands():
    state = position(4, active=2, resources={3: ["wood5", "iron4"], 0: ["meat1"]}, hands={1: ["wheat9"]})
    state = act(state, 2, "extortion")
    assert state["extortion"]["queue"][0] == 3  # clockwise from the left; seat 1 has nothing face up
    assert sorted(a["card"] for a in legal(state, 2) if a["type"] == "extort") == ["iron4", "wood5"]
    state = act(state, 2, "extort", card="wood5")
    state = act(state, 2, "price", amount=2)
    state = act(state, 3, "pay")
    assert state["extortion"]["queue"][0] == 0  # one card per opponent: on to the next one
    state = act(state, 2, "spare")
    assert state["active"] == 3  # seat 1 only has a hand: nothing to extort, the turn is over


def test_2_6_b3_the_target_pays_the_price_or_sells_the_card_for_it():
    state = position(3, money=[10, 10, 10], senate={1: ["consul"], 2: ["censor"]})
    state = act(state, 0, "extortion")
    state = act(state, 0, "extort", card="consul")
    prices = [a["amount"] for a in legal(state, 0) if a["type"] == "price"]
    assert prices == list(range(1, 14))  # at least 1, at most what he could pay
    state = act(state, 0, "price", amount=6)
    assert GAME.to_act(state) == {1} and types(state, 1) == {"pay", "give_up", "sell_senator"}
    state = act(state, 1, "pay")
    assert state["money"] == [19, 4, 10] and state["senate"][1] == ["consul"]
    state = act(state, 0, "extort", card="censor")
    state = act(state, 0, "price", amount=11)
    assert types(state, 2) == {"give_up", "sell_senator"}  # cannot pay 11 from 10 coins
    state = act(state, 2, "give_up")
    assert state["money"] == [8, 4, 21] and state["senate"][0] == ["censor"]


def test_2_6_b4_an_extorted_resource_goes_into_its_owners_hand_face_down_senate_and_influence_stay_up():
    state = position(3, resources={1: ["wood5"], 2: ["iron8"]})
    state = act(state, 0, "extortion")
    state = act(state, 0, "extort", card="wood5")
    state = act(state, 0, "price", amount=1)
    state = act(state, 1, "pay")  # kept: into his own hand
    assert state["resources"][1] == [] and state["hands"][1] == ["wood5"] and state["known"][1] == ["wood5"]
    state = act(state, 0, "extort", card="iron8")
    state = act(state, 0, "price", amount=1)
    state = act(state, 2, "give_up")  # sold: into the active player's hand
    assert state["hands"][0] == ["iron8"] and state["resources"][2] == []
    seen = view(state, 2)["table"][0]
    assert seen["hand_known"] == ["iron8"] and seen["hand_size"] == 1


def test_2_6_c1_opponents_join_the_counters_first_paying_5_clockwise_from_the_left():
    state = position(4, active=2, money=[10, 10, 10, 10])
    state = act(state, 2, "counters")
    assert GAME.to_act(state) == {3}
    state = act(state, 3, "join_counters")
    assert state["money"][3] == 5 and state["money"][2] == 15
    assert state["counters"]["seat"] == 3
    state = act(state, 3, "end_counters")
    assert GAME.to_act(state) == {0}
    state = act(state, 0, "decline_counters")
    state = act(state, 1, "join_counters")
    state = act(state, 1, "end_counters")
    assert state["counters"]["seat"] == 2 and state["money"][2] == 20


def test_2_6_c2_seed_sales_olives_2_4_7_is_13_three_3s_is_9_wood_2_3_4_is_24():
    state = position(3, money=[0, 0, 0], hands={0: ["olives2", "olives4", "wheat3", "iron3", "wood2", "wood3"]},
                     resources={0: ["olives7", "cloth3", "wood4"]})
    state = start_counters(state)
    state = act(state, 0, "sell", cards=["olives2", "olives4", "olives7"])
    assert state["money"][0] == 13
    state = act(state, 0, "sell", cards=["cloth3", "iron3", "wheat3"])
    assert state["money"][0] == 13 + 9
    state = act(state, 0, "sell", cards=["wood2", "wood3", "wood4"])
    assert state["money"][0] == 13 + 9 + 24
    assert state["hands"][0] == [] and state["resources"][0] == []


def test_2_6_c2_only_sets_of_three_of_one_type_or_one_value():
    assert rules.sale_kind(["olives2", "olives4", "olives9"]) == "type"
    assert rules.sale_kind(["olives2", "wheat2", "governor_iron"]) == "value"
    assert rules.sale_kind(["olives2", "olives4", "wheat2"]) is None
    state = position(3, hands={0: ["olives2", "olives4", "wheat2", "iron5"]})
    state = start_counters(state)
    sells = [a["cards"] for a in legal(state, 0) if a["type"] == "sell"]
    assert sells == []
    with pytest.raises(IllegalAction, match="three cards"):
        act(state, 0, "sell", cards=["iron5", "olives2", "olives4"])


def test_2_6_c2_buy_senators_for_10_each_any_number():
    state = position(3, money=[25, 0, 0])
    state = start_counters(state)
    state = act(state, 0, "buy_senator")
    state = act(state, 0, "buy_senator")
    assert state["senators"][0] == 7 and state["money"][0] == 5
    assert "buy_senator" not in types(state, 0)


def test_2_6_c3_sold_cards_and_used_senate_cards_are_discarded_face_up():
    state = position(3, hands={0: ["olives2", "olives4", "olives7"]})
    state = start_counters(state)
    state = act(state, 0, "sell", cards=["olives2", "olives4", "olives7"])
    assert state["discards"] == [["olives2"], ["olives4"], ["olives7"]]
    assert view(state, 1)["markets"][2]["discard"] == ["olives7"]


# ============================================================================ 2.7 hidden information

def test_2_7_money_hands_and_sealed_bids_are_hidden_public_counts_are_shown():
    state = position(3, phase="event", events=["war"], money=[41, 67, 83], hands={1: ["wood5", "iron2"]})
    state = act(state, 1, "seal_bid", amount=59)
    for seat in (0, 2, None):
        seen = view(state, seat)
        assert seen["table"][1]["hand_size"] == 2 and seen["table"][1]["hand_hidden_bands"] == [1, 1, 0]
        assert seen["sealed"]["submitted"] == [1]
        text = json.dumps({k: v for k, v in seen.items() if k != "legal_actions"})
        assert "wood5" not in text and "iron2" not in text and "59" not in text and "67" not in text
    mine = view(state, 1)
    assert mine["you"] == {"money": 67, "hand": ["iron2", "wood5"], "sealed_bid": 59}
    assert mine["events_left"] == len(state["events"]) and mine["wars"] == 1


def test_2_7_no_view_leaks_in_any_phase_resample_for_every_seat_and_the_spectator():
    from games.core.conformance import check_resample_hides
    states = [
        position(4, phase="event", events=["war"], hands={1: ["wood5"], 2: ["iron2", "meat8"]}),
        act(position(4, money=[9, 8, 7, 6]), 0, "auction"),
        act(act(position(4, resources={1: ["wood5"]}), 0, "extortion"), 0, "extort", card="wood5"),
        act(position(4, influence={2: ["prefects"]}, resources={2: ["iron3"]}), 0, "extortion"),
        act(position(4), 0, "counters"),
    ]
    state = act(position(4, phase="event", events=["deficit_10"]), 2, "seal_bid", amount=3)
    states.append(state)
    states.append(position(4, phase="event", events=["new_senator"]))
    states.append(GAME.setup(4, 9, {"influence": True, "anti_bad_luck": True}))  # the draft, both piles
    rebuilt = act(position(4, decks={0: [], 1: ["wood5"], 2: []}, discards={0: ["wood1", "iron2", "meat3"]},
                           hands={1: ["olives4", "iron7"]}), 0, "auction")
    states.append(rebuilt)  # a deck whose content is public again
    gov = act(start_counters(position(4, hands={0: ["wood2", "wood3"]}, senate={0: ["governor_wood"]})),
              0, "sell", cards=["governor_wood", "wood2", "wood3"])
    states.append(gov)  # a sale waiting for its Governor's value
    states.append(position(4, phase="event", events=["war"], wars=3))  # over: everything revealed
    for s in states:
        checks, changed = check_resample_hides(GAME, s, seed=11)
        assert checks == 5 and changed >= (0 if GAME.finished(s) else 1)


def test_2_7_resample_keeps_the_anti_bad_luck_piles_and_a_rebuilt_decks_content():
    state = GAME.setup(3, 2, {"influence": False, "anti_bad_luck": True})
    for seed in range(5):
        other = GAME.resample(state, 0, seed)
        upper = other["upper_left"]
        assert other["events"][:upper].count("war") == 2 - state["wars"]
        assert other["events"][upper:].count("war") == 3
        assert sorted(other["events"]) == sorted(state["events"])
    rebuilt = act(position(3, decks={0: [], 1: [], 2: []}, discards={0: ["wood1", "iron2", "meat3"]},
                           hands={1: ["olives2"]}), 0, "auction")
    for seed in range(5):
        other = GAME.resample(rebuilt, 0, seed)
        assert sorted(other["decks"][0]) == sorted(rebuilt["decks"][0])  # public: the old discards
        assert other["hands"][1] == ["olives2"]  # the only unseen ● card stays where it must be


def test_2_7_resampled_states_play_on_to_the_end_with_no_purse_below_zero():
    from games.core import rng
    from games.core.conformance import random_game, random_step
    for seed in range(1, 7):
        players = 3 + seed % 3
        options = {"influence": True, "anti_bad_luck": seed % 2 == 0}
        _, history = random_game(GAME, players, seed, options, policy_seed=seed)
        state = GAME.setup(players, seed, options)
        for number, (seat, action) in enumerate(history):
            if number % 15 == 0:
                for viewer in [*range(players), None]:
                    other = GAME.resample(state, viewer, seed * 100 + number)
                    holder = {"rng": rng.seed_state(number)}
                    while not GAME.finished(other):
                        assert min(other["money"]) >= 0
                        other = GAME.apply(other, *random_step(GAME, other, holder))
                    assert min(other["money"]) >= 0
            state = GAME.apply(state, seat, action)


def test_2_7_a_resample_during_a_sale_keeps_the_cards_being_sold_in_the_sellers_hand():
    """The cards of a sale under way are shown to the whole table while the seller chooses a Governor's value;
    a resample for any seat or the spectator must keep them where the sale takes them from (it used to deal
    other cards to that hand, and the seller's next action crashed in list.remove)."""
    from games.core.conformance import check_resample_playable, random_game
    during_sale = []
    random_game(GAME, 5, 9, {"influence": False}, policy_seed=9,
                visit=lambda state, _step: during_sale.append(state) if state["phase"] == "governor_value" else None)
    assert during_sale
    for state in during_sale:
        assert check_resample_playable(GAME, state, 9) > 0


def test_2_7_resample_keeps_a_named_extortion_price_payable():
    state = position(3, money=[5, 10, 10], senate={1: ["consul"]})
    state = act(state, 0, "extortion")
    state = act(state, 0, "extort", card="consul")
    state = act(state, 0, "price", amount=8)
    for seed in range(20):
        other = GAME.resample(state, 1, seed)
        assert other["money"][0] >= 8 and other["money"][1] == 10


def test_2_7_resample_keeps_known_hand_cards_and_deck_bands():
    state = position(3, hands={1: ["wood5", "iron2", "meat8"]}, known={1: ["meat8"]})
    other = GAME.resample(state, 0, 3)
    assert "meat8" in other["hands"][1] and len(other["hands"][1]) == 3
    assert sorted(components.RESOURCE_BAND[c] for c in other["hands"][1]) == [0, 1, 2]
    assert other["hands"][0] == state["hands"][0] and other["money"][0] == state["money"][0]


# ============================================================================ 2.8 standing rules

def test_2_8_1_a_senator_can_be_sold_for_5_whenever_a_seat_acts():
    state = position(3, phase="event", events=["new_senator"])
    for _ in range(40):
        if GAME.finished(state):
            break
        for seat in GAME.to_act(state):
            assert {"type": "sell_senator"} in legal(state, seat)
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, legal(state, seat)[0])
    state = position(3, money=[0, 0, 0])
    state = act(state, 0, "sell_senator")
    assert state["senators"][0] == 4 and state["money"][0] == 5 and state["phase"] == "choose_action"


def test_2_8_1_selling_a_senator_raises_the_cash_to_pay_an_extortion():
    state = position(3, money=[10, 2, 10], senate={1: ["consul"]})
    state = act(state, 0, "extortion")
    state = act(state, 0, "extort", card="consul")
    state = act(state, 0, "price", amount=6)
    assert "pay" not in types(state, 1)
    state = act(state, 1, "sell_senator")
    state = act(state, 1, "pay")
    assert state["money"][1] == 1 and state["senators"][1] == 4 and state["senate"][1] == ["consul"]


def test_2_8_2_a_player_at_0_senators_is_out_his_cards_discarded_his_turns_skipped():
    state = position(3, phase="event", events=["deficit_20"], senators=[5, 1, 5], money=[10, 10, 10],
                     hands={1: ["wood5"]}, senate={1: ["consul"]}, influence={1: ["cavalry"]})
    for seat in range(3):
        state = act(state, seat, "seal_bid", amount=2 if seat != 1 else 0)
    assert state["out"] == [False, True, False] and state["money"][1] == 0
    assert state["hands"][1] == [] and "wood5" in state["discards"][1] and "consul" in state["senate_discard"]
    assert state["influence"][1] == []  # the influence card leaves the game
    state = act(state, 0, "extortion")
    assert state["active"] == 2  # seat 1's turn is skipped


def test_2_8_2_a_bidder_who_leaves_the_game_has_his_bids_withdrawn():
    state = position(3, senators=[5, 1, 5], money=[10, 10, 10])
    state = act(state, 0, "auction")
    state = act(state, 1, "bid", lot=0, amount=3)
    state = act(state, 1, "sell_senator")
    assert state["out"][1] and GAME.to_act(state) == {2}
    assert state["auction"]["lots"][0]["bids"] == []


def test_2_8_2_the_last_player_left_wins_at_once():
    state = position(3, phase="event", events=["civil_conflict"], senators=[1, 1, 3], money=[0, 0, 0])
    assert GAME.finished(state) and GAME.outcome(state)["winners"] == [2]
    assert GAME.outcome(state)["tiebreak"]["en"].startswith("Every other player")


def test_2_8_3_the_bank_never_runs_out():
    state = position(5, phase="event", events=["senate_majority"], senators=[30, 1, 1, 1, 1], money=[200] * 5,
                     influence={0: ["princeps"]})
    assert state["money"][0] == 212 and sum(state["money"]) > 48


def test_2_8_4_the_senator_count_is_not_capped_at_20():
    state = position(3, senators=[20, 5, 5], money=[100, 0, 0])
    state = start_counters(state)
    state = act(state, 0, "buy_senator")
    assert state["senators"][0] == 21 and view(state, 1)["table"][0]["senators"] == 21


# ============================================================================ 2.9 end and winner

def test_2_9_1_the_game_ends_when_the_4th_war_is_drawn():
    state = position(3, phase="event", events=["war"], wars=3)
    assert GAME.finished(state) and GAME.to_act(state) == frozenset() and state["end"] == "war"


def test_2_9_2_most_senators_wins_ties_go_to_the_richest():
    state = position(3, phase="event", events=["war"], wars=3, senators=[7, 7, 6], money=[10, 12, 30])
    outcome = GAME.outcome(state)
    assert outcome["winners"] == [1] and outcome["tiebreak"]["en"].startswith("Tied on senators")
    assert [sum(line["points"] for line in lines) for lines in outcome["breakdown"]] == [7, 7, 6]
    assert view(state, 0)["final_money"] == [10, 12, 30]


def test_2_9_3_tied_on_senators_and_money_the_victory_is_shared():
    state = position(3, phase="event", events=["war"], wars=3, senators=[7, 7, 6], money=[12, 12, 30])
    outcome = GAME.outcome(state)
    assert outcome["winners"] == [0, 1] and "shared" in outcome["tiebreak"]["en"]


def test_2_9_3_players_who_leave_together_last_share_the_victory():
    state = position(3, phase="event", events=["deficit_20"], senators=[1, 1, 1], money=[0, 0, 0])
    for seat in range(3):
        state = act(state, seat, "seal_bid", amount=0)
    outcome = GAME.outcome(state)
    assert GAME.finished(state) and outcome["winners"] == [0, 1, 2]


# ============================================================================ §0 decisions for all games

def test_0_1_refusals_speak_only_of_the_actors_own_coins():
    state = position(3, money=[10, 2, 10], senate={1: ["consul"]})
    state = act(state, 0, "extortion")
    state = act(state, 0, "extort", card="consul")
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, "price", amount=40)
    assert "10" not in str(refused.value) and "2" not in str(refused.value)
    state = act(state, 0, "price", amount=5)
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 2, "pay")


def test_0_1_refusals_name_the_rule_broken():
    state = position(3, money=[10, 3, 10])
    with pytest.raises(IllegalAction, match="Auction, Extortion or Counters"):
        act(state, 0, "bid", lot=0, amount=1)
    state = act(state, 0, "auction")
    with pytest.raises(IllegalAction, match="no such lot"):
        act(state, 1, "bid", lot=9, amount=1)
    state = act(state, 1, "bid", lot=0, amount=3)
    with pytest.raises(IllegalAction, match="already have a cube"):
        act(state, 1, "bid", lot=0, amount=4)
    state = pass_all(state, "end_bids")
    state = act(state, 0, "sell_lot", lot=0)
    state = position(3, money=[0, 10, 10])
    state = act(state, 0, "auction")
    state = act(state, 1, "bid", lot=0, amount=9)
    state = pass_all(state, "end_bids")
    with pytest.raises(IllegalAction, match="enough coins to buy"):
        act(state, 0, "buy_lot", lot=0)
    state = position(3, money=[10, 0, 10], senators=[5, 6, 5], senate={0: ["censor"], 1: ["consul"]})
    state = act(state, 0, "counters")
    with pytest.raises(IllegalAction, match="enough coins"):
        act(state, 1, "join_counters")
    state = act(state, 1, "decline_counters")
    state = act(state, 2, "decline_counters")
    with pytest.raises(IllegalAction, match="Censor targets"):
        act(state, 0, "censor", target=2)


def test_0_2_the_join_window_opens_for_every_opponent_whatever_his_cash():
    state = position(3, money=[10, 0, 0])
    state = act(state, 0, "counters")
    assert GAME.to_act(state) == {1}
    assert types(state, 1) == {"decline_counters", "sell_senator"}
    state = act(state, 1, "decline_counters")
    assert GAME.to_act(state) == {2}


def test_0_3_sealed_bids_reveal_nothing_until_all_are_in_and_nothing_of_their_order():
    state = position(3, phase="event", events=["war"])
    state = act(state, 2, "seal_bid", amount=4)
    state = act(state, 0, "seal_bid", amount=1)
    public = [e for e in state["log"] if "to" not in e]
    assert not any(e["key"].startswith("bid_revealed") for e in public)
    state = act(state, 1, "seal_bid", amount=2)
    revealed = [e["args"]["seat"] for e in state["log"] if e["key"] == "bid_revealed"]
    assert revealed == [0, 1, 2]  # in seat order from the active player, not in submission order


def test_0_4_public_counts_stay_public():
    state = position(4, hands={2: ["wood5", "iron2"]}, senate={1: ["censor"]})
    seen = view(state, None)
    assert [t["hand_size"] for t in seen["table"]] == [0, 0, 2, 0]
    assert [m["deck"] for m in seen["markets"]] == [len(d) for d in state["decks"]]
    assert seen["senate_deck"] == 14 and seen["events_left"] == 22 and seen["wars"] == 0


def test_0_5_french_and_english_names_in_the_log():
    state = position(3, phase="event", events=["civil_conflict"])
    entry = next(e for e in state["log"] if e["key"] == "event")
    names = ["Ana", "Bo", "Cy"]
    assert GAME.render_log(entry, "en", names) == "Ana reveals the event Civil Conflict."
    assert GAME.render_log(entry, "fr", names) == "Ana révèle l'événement Conflit civil."
    assert set(AveCesar.messages) >= set(keys(state))


def test_0_5_every_log_entry_renders_in_both_languages():
    from games.core.conformance import random_game
    seen = set()
    for seed in range(1, 9):
        final, _ = random_game(GAME, 3 + seed % 3, seed, {"influence": True, "anti_bad_luck": seed % 2 == 0},
                               policy_seed=seed)
        for entry in final["log"]:
            seen.add(entry["key"])
            for lang in LANGS:
                text = GAME.render_log(entry, lang, ["Ana", "Bo", "Cy", "Di", "Ed"])
                assert "{" not in text and "_" not in text, text
    assert seen <= set(AveCesar.messages) and len(seen) > 40


# ============================================================================ engine decisions (RULES.md 2.10)

def test_2_10_1_the_extortion_price_is_at_most_the_active_players_own_cash():
    state = position(3, money=[0, 10, 10], senate={1: ["consul"]})
    state = act(state, 0, "extortion")
    state = act(state, 0, "extort", card="consul")
    assert max(a["amount"] for a in legal(state, 0) if a["type"] == "price") == 3


def test_2_10_2_free_lots_go_to_the_active_player_as_soon_as_the_bidding_ends():
    state = position(3, decks={0: ["meat2"], 1: ["olives4"], 2: []}, senate_deck=[])
    state = act(state, 0, "auction")
    state = act(state, 1, "bid", lot=1, amount=2)
    state = pass_all(state, "end_bids")
    assert state["resources"][0] == ["meat2"] and types(state, 0) >= {"sell_lot", "buy_lot"}


def test_2_10_3_the_active_player_leaving_during_his_auction_discards_the_unsettled_lots():
    state = position(3, senators=[1, 5, 5], decks={0: ["meat2"], 1: [], 2: []}, senate_deck=["consul"])
    state = act(state, 0, "auction")
    state = act(state, 1, "bid", lot=0, amount=2)
    state = act(state, 1, "bid", lot=1, amount=2)
    state = pass_all(state, "end_bids")
    state = act(state, 0, "sell_senator")
    assert state["out"][0] and state["discards"][0] == ["meat2"] and state["active"] == 1
    assert state["senate_discard"] == ["consul"] and "lot_discarded" in keys(state)


def test_2_10_4_a_joining_player_who_leaves_ends_only_his_own_counters():
    state = position(3, senators=[5, 1, 5], money=[10, 10, 10])
    state = act(state, 0, "counters")
    state = act(state, 1, "join_counters")
    state = act(state, 1, "sell_senator")
    assert state["out"][1] and GAME.to_act(state) == {2}


def test_2_10_5_a_prefects_holder_who_leaves_in_his_window_lets_the_extortion_go_on():
    state = position(3, senators=[5, 1, 5], influence={1: ["prefects"]}, senate={2: ["censor"]})
    state = act(state, 0, "extortion")
    state = act(state, 1, "sell_senator")
    assert state["out"][1] and state["phase"] == "extortion_target" and state["extortion"]["prefects"] is None


def test_2_10_5_a_target_who_leaves_ends_his_extortion():
    state = position(3, senators=[5, 1, 5], senate={1: ["consul"], 2: ["censor"]})
    state = act(state, 0, "extortion")
    state = act(state, 0, "extort", card="consul")
    state = act(state, 0, "price", amount=3)
    state = act(state, 1, "sell_senator")
    assert state["out"][1] and state["extortion"]["queue"] == [2] and state["phase"] == "extortion_target"


def test_2_10_6_three_governors_sell_as_one_value():
    state = position(3, senate={0: ["governor_wood", "governor_iron", "governor_meat"]}, money=[0, 0, 0])
    state = start_counters(state)
    state = act(state, 0, "sell", cards=["governor_iron", "governor_meat", "governor_wood"])
    state = act(state, 0, "governor_value", value=9)
    assert state["money"][0] == 27 and state["phase"] == "counters"


def test_2_10_7_action_bound_holds_and_random_playouts_are_reasonable():
    from games.core.conformance import random_game
    for players in (3, 5):
        final, history = random_game(GAME, players, 5, NO_OPTIONS, policy_seed=5)
        assert len(history) < GAME.action_bound(players) and GAME.finished(final)
    assert GAME.playout_weight(position(3), 0, {"type": "sell_senator"}) < 0.1


# ------------------------------------------------------------------- undo and confirmations (2.8.5, 0.6)


def ac_state_with_one_seat_to_act(seed: int = 3):
    """A random 4-player game played until a single seat is to act outside a sealed bid."""
    state = GAME.setup(4, seed, {"influence": False, "anti_bad_luck": False})
    holder = {"rng": rng.seed_state(seed)}
    while len(GAME.to_act(state)) != 1 or state["phase"] == "sealed_bid":
        state = GAME.apply(state, *random_step(GAME, state, holder))
    return state, next(iter(GAME.to_act(state)))


def test_2_8_5_a_senator_sale_can_be_taken_back():
    state, seat = ac_state_with_one_seat_to_act()
    assert state["senators"][seat] > 1
    sold = GAME.apply(state, seat, {"type": "sell_senator"})
    assert sold["senators"][seat] == state["senators"][seat] - 1
    assert UNDO in GAME.legal_actions(sold, seat)
    undone = GAME.apply(sold, seat, UNDO)
    assert undone["senators"] == state["senators"] and undone["money"] == state["money"]


def test_2_8_5_selling_the_last_senator_and_a_sealed_bid_ask_first():
    state, seat = ac_state_with_one_seat_to_act()
    last = {**state, "senators": [1 if s == seat else n for s, n in enumerate(state["senators"])]}
    view = GAME.view(last, seat)
    assert view["confirm"][view["legal_actions"].index({"type": "sell_senator"})] == "ac.last_senator"
    out = GAME.apply(last, seat, {"type": "sell_senator"})
    assert out["out"][seat] and all(UNDO not in GAME.legal_actions(out, s) for s in range(4))
    assert GAME.confirmation_text("ac.last_senator", {}, "fr").startswith("C'est votre dernier sénateur")
    holder = {"rng": rng.seed_state(1)}
    state = GAME.setup(3, 1, {"influence": False, "anti_bad_luck": False})
    while state["phase"] != "sealed_bid":
        state = GAME.apply(state, *random_step(GAME, state, holder))
    seat = min(GAME.to_act(state))
    view = GAME.view(state, seat)
    assert all(c == "ac.sealed_bid" for a, c in zip(view["legal_actions"], view["confirm"]) if a["type"] == "seal_bid")
