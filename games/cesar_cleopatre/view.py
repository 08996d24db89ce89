"""What each seat may know (RULES 0.1, 1.7): the view, built as an allow-list, and `resample`, which
redraws everything a seat cannot know.

A seat sees its hand, its own face-down cards with their values, its mission, its setup cards and, when it
arranged it, the order of its action pile; everyone sees every face-up card, every discard, the vote-card
discards, and the counts of everything else (hand sizes by kind, reserve sizes, face-down cards per group
and player, the vote deck). The Spy's player sees the opponent's hand while he chooses. At the end both
missions and every face-down card are shown (RULES 1.9.5).

Knowledge: what one observer knows about the hidden cards of one player, kept by the rules at every move so
that `resample` can redraw those cards consistently with everything the observer has seen.

A player's hidden cards sit in zones: "hand", "reserve", "setup" (his setup series still to place),
"castle" (cards taken back by a Castling, still to redeal), "arrange" (action cards still to stack) and
"d0".."d4" (face-down cards at a group). The observer's knowledge is a list of *pools*: each pool is a
multiset of card values (`cards`) spread over a number of slots per zone (`at`), and the observer knows
that the cards in those slots are exactly that multiset, in some order. At setup, for instance, the
opponent's face-down cards are a permutation of 1..5 and his hand is exactly 1..5.

Every operation keeps the invariant "the true cards can be dealt to the slots so that each pool holds its
multiset". When an observer cannot tell which slot a card left (a card played from a hand that mixes
several pools), the pools concerned are merged: a coarser but still true statement. A reveal removes the
value from its pool. A Spy's look makes the spy's knowledge of the hand exact.

Pools are plain JSON: {"cards": [sorted values], "at": {zone: count}}; zones with no slot are dropped and
so are pools with no slot.
"""

from __future__ import annotations

from typing import Any, Iterable

from games.core import LANGS, State, clone, fill, log_visible, reveal_line, rng

from .components import (ACTION_NAMES, GROUP_SIZE, GROUPS, INFLUENCE_NAMES, MISSIONS, SIDES, VOTE_CARD_NAMES, ZONE_DOWN,
                         cards_of, values_of)

Pool = dict[str, Any]


class KnowledgeError(Exception):
    """The tracked knowledge contradicts the true cards (an engine bug, never a player's doing)."""


def new_pool(cards: Iterable[Any], zone: str) -> Pool:
    cards = sorted(cards)
    return {"cards": cards, "at": {zone: len(cards)}} if cards else {}


def merge(pools: list[Pool], zones: Iterable[str]) -> Pool:
    """Merge every pool with a slot in one of `zones` into one pool (created empty if none) and return it."""
    zones = tuple(zones)
    if len(zones) == 1:  # the common case, at almost every action: kept simple for speed
        zone = zones[0]
        touching = [p for p in pools if p["at"].get(zone)]
    else:
        touching = [p for p in pools if any(p["at"].get(z) for z in zones)]
    if not touching:
        pool: Pool = {"cards": [], "at": {}}
        pools.append(pool)
        return pool
    base = touching[0]
    if len(touching) > 1:
        for other in touching[1:]:
            base["cards"].extend(other["cards"])
            for zone, n in other["at"].items():
                base["at"][zone] = base["at"].get(zone, 0) + n
        base["cards"].sort()
        pools[:] = [p for p in pools if not any(p is o for o in touching[1:])]
    return base


def _tidy(pools: list[Pool], pool: Pool) -> None:
    for zone in [z for z, n in pool["at"].items() if n == 0]:
        del pool["at"][zone]
    if not pool["at"]:
        if pool["cards"]:
            raise KnowledgeError("a pool lost its slots but still holds cards")
        pools[:] = [p for p in pools if p is not pool]


def move(pools: list[Pool], src: str, dst: str, n: int = 1) -> None:
    """`n` unseen cards go from zone `src` to zone `dst`."""
    if n <= 0:
        return
    pool = merge(pools, (src,))
    if pool["at"].get(src, 0) < n:
        raise KnowledgeError(f"no hidden card in {src} to move")
    pool["at"][src] -= n
    pool["at"][dst] = pool["at"].get(dst, 0) + n
    _tidy(pools, pool)


def reveal(pools: list[Pool], zone: str, values: Iterable[Any]) -> None:
    """Cards of `zone` become known (played face up, discarded, turned face up) and leave the hidden zones."""
    values = list(values)
    if not values:
        return
    pool = merge(pools, (zone,))
    if pool["at"].get(zone, 0) < len(values):
        raise KnowledgeError(f"fewer hidden cards in {zone} than revealed")
    for v in values:
        try:
            pool["cards"].remove(v)
        except ValueError:
            raise KnowledgeError(f"{v!r} revealed from {zone}, which could not hold it") from None
    pool["at"][zone] -= len(values)
    _tidy(pools, pool)


def learn(pools: list[Pool], zone: str, values: Iterable[Any]) -> None:
    """The observer now knows exactly the cards of `zone` (a Spy's look at a hand)."""
    values = sorted(values)
    pool = merge(pools, (zone,))
    if pool["at"].get(zone, 0) != len(values):
        raise KnowledgeError(f"the size of {zone} does not match what was seen")
    for v in values:
        try:
            pool["cards"].remove(v)
        except ValueError:
            raise KnowledgeError(f"{v!r} seen in {zone}, which could not hold it") from None
    pool["at"][zone] = 0
    _tidy(pools, pool)
    if values:
        pools.append(new_pool(values, zone))


def gather(pools: list[Pool], zones: Iterable[str], dst: str, known: Iterable[Any]) -> None:
    """Castling: every hidden card of `zones` and the `known` (face-up) cards go, mixed, to zone `dst`."""
    zones = tuple(zones)
    known = list(known)
    pool = merge(pools, zones)
    moved = sum(pool["at"].pop(z, 0) for z in zones) + len(known)
    pool["cards"].extend(known)
    pool["cards"].sort()
    if moved:
        pool["at"][dst] = pool["at"].get(dst, 0) + moved
    _tidy(pools, pool)


def deal(pools: list[Pool], holder: dict[str, Any]) -> dict[str, list[Any]]:
    """A random assignment of every pool's cards to its slots: zone -> cards (in dealing order)."""
    out: dict[str, list[Any]] = {}
    for pool in pools:
        cards = sorted(pool["cards"])
        rng.shuffle(holder, cards)
        i = 0
        for zone in sorted(pool["at"]):
            n = pool["at"][zone]
            out.setdefault(zone, []).extend(cards[i:i + n])
            i += n
    return out


def consistent(pools: list[Pool], truth: dict[str, list[Any]]) -> bool:
    """Can the true cards (zone -> cards) be dealt to the slots so that every pool holds its multiset?

    Used by the tests. Exact for the shapes the engine produces: a depth-first search over the zones shared
    by several pools (small: at most a handful of pools and six card values)."""
    zones = {z for p in pools for z in p["at"]} | {z for z, c in truth.items() if c}
    for z in zones:
        if sum(p["at"].get(z, 0) for p in pools) != len(truth.get(z, ())):
            return False
    need = [_count(p["cards"]) for p in pools]
    for i, p in enumerate(pools):
        if sum(need[i].values()) != sum(p["at"].values()):
            return False
    order = sorted(zones)

    def fill(zi: int) -> bool:
        if zi == len(order):
            return all(not any(n.values()) for n in need)
        zone = order[zi]
        holders = [i for i, p in enumerate(pools) if p["at"].get(zone)]
        return split(_count(truth.get(zone, ())), holders, 0, zi)

    def split(cards: dict[Any, int], holders: list[int], hi: int, zi: int) -> bool:
        if hi == len(holders) - 1 or not holders:
            i = holders[hi] if holders else None
            if i is None:
                return not any(cards.values()) and fill(zi + 1)
            cards = {v: n for v, n in cards.items() if n}
            if any(need[i].get(v, 0) < n for v, n in cards.items()):
                return False
            for v, n in cards.items():
                need[i][v] -= n
            ok = fill(zi + 1)
            for v, n in cards.items():
                need[i][v] += n
            return ok
        i = holders[hi]
        size = pools[i]["at"][order[zi]]
        for take in _sub_multisets(cards, size, need[i]):
            rest = {v: cards[v] - take.get(v, 0) for v in cards if cards[v] - take.get(v, 0)}
            for v, n in take.items():
                need[i][v] -= n
            ok = split(rest, holders, hi + 1, zi)
            for v, n in take.items():
                need[i][v] += n
            if ok:
                return True
        return False

    return fill(0)


def _count(cards: Iterable[Any]) -> dict[Any, int]:
    out: dict[Any, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


def _sub_multisets(cards: dict[Any, int], size: int, cap: dict[Any, int]):
    keys = sorted(cards, key=repr)

    def rec(i: int, left: int, acc: dict[Any, int]):
        if left == 0:
            yield dict(acc)
            return
        if i == len(keys):
            return
        k = keys[i]
        for n in range(min(cards[k], cap.get(k, 0), left), -1, -1):
            if n:
                acc[k] = n
            yield from rec(i + 1, left - n, acc)
            acc.pop(k, None)

    yield from rec(0, size, {})


# ------------------------------------------------------------------------------------- the view

RESAMPLE_RNG_SALT = 0x5EED_C1E0


def observe(state: State, seat: int | None) -> dict[str, Any]:
    finished = state["ended"] is not None
    own = seat is not None
    up, down = state["up"], state["down"]
    groups = []
    for gi, name in enumerate(GROUPS):
        groups.append({
            "name": name,
            "size": GROUP_SIZE[gi],
            "left": state["left"][gi],
            "up": [values_of(up[0][gi]), values_of(up[1][gi])],
            "down": [len(down[0][gi]), len(down[1][gi])],
            "mine": values_of(down[seat][gi]) if own else None,
        })
    t = state["t"]
    pending = state["pending"]
    castle = state["castle"]
    phase = state["phase"]
    arranged = state["options"]["action_pile"] == "arrange"
    spying = phase == "spy" and own and seat == state["active"]
    opp = 1 - seat if own else None
    return {
        "sides": list(SIDES),
        "phase": phase,
        "active": None if phase == "setup" else state["active"],
        "turn_number": state["turn"],
        "turn_state": {
            "started": t["started"], "mode": t["mode"], "placed": t["placed"], "action": t["action"],
            "passive": t["passive"], "discarded": t["discarded"], "drawn": len(t["drew"]), "final": t["final"],
        },
        "groups": groups,
        "won": [list(state["won"][0]), list(state["won"][1])],
        "hand": {"influence": values_of(state["hand"][seat]), "action": list(state["hand_actions"][seat])}
        if own else None,
        "hand_counts": [{"influence": len(state["hand"][p]), "action": len(state["hand_actions"][p])} for p in (0, 1)],
        "reserve_counts": [{"influence": len(state["reserve"][p]), "action": len(state["action_reserve"][p])}
                           for p in (0, 1)],
        "my_action_pile": list(reversed(state["action_reserve"][seat])) if own and arranged else None,
        "discards": [{"influence": values_of(state["discard"][p]), "action": list(state["action_discard"][p])}
                     for p in (0, 1)],
        "vote_cards": {"deck": len(state["vote_deck"]), "discard": list(state["vote_discard"]),
                       "removed": list(state["vote_removed"])},
        "mission": state["missions"][seat] if own else None,
        "missions": list(state["missions"]) if finished else None,
        "setup": [{"to_place": len(state["setup"][p]), "to_arrange": len(state["arrange"][p])} for p in (0, 1)],
        "my_setup": {"to_place": values_of(state["setup"][seat]), "to_arrange": list(state["arrange"][seat])}
        if own else None,
        "pending": dict(pending) if pending else None,
        "spied_hand": {"influence": values_of(state["hand"][opp]), "action": list(state["hand_actions"][opp])}
        if spying else None,
        "castling": {
            "seat": castle["seat"],
            "groups": [GROUPS[gi] for gi in castle["groups"]],
            "left": len(castle["cards"]),
            "cards": values_of(castle["cards"]) if own and seat == castle["seat"] else None,
        } if castle else None,
        "ended": state["ended"],
        "options": dict(state["options"]),
    }


def hidden_zones(state: State, owner: int) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """The true hidden cards of `owner`, zone by zone (influence values, then action names)."""
    influence: dict[str, list[Any]] = {"hand": values_of(state["hand"][owner]),
                                       "reserve": values_of(state["reserve"][owner]),
                                       "setup": values_of(state["setup"][owner])}
    for gi, cards in enumerate(state["down"][owner]):
        influence[ZONE_DOWN[gi]] = values_of(cards)
    if state["castle"] and state["castle"]["seat"] == owner:
        influence["castle"] = values_of(state["castle"]["cards"])
    action = {"hand": state["hand_actions"][owner], "reserve": state["action_reserve"][owner],
              "arrange": state["arrange"][owner]}
    return influence, action


def public_knowledge(state: State, owner: int) -> dict[str, list[Pool]]:
    """What a spectator knows of `owner`'s hidden cards: their multiset (his whole deck minus his face-up
    cards and discards, all public) and how many sit in each zone. One pool per kind of card."""
    out = {}
    for kind, zones in zip(("influence", "action"), hidden_zones(state, owner)):
        cards = sorted(c for cards in zones.values() for c in cards)
        out[kind] = [{"cards": cards, "at": {z: len(c) for z, c in zones.items() if c}}] if cards else []
    return out


def mission_pool(state: State, known_seats: list[int]) -> list[str]:
    pool = list(MISSIONS)
    for q in known_seats:
        pool.remove(state["missions"][q])
    return sorted(pool)


def resample(state: State, seat: int | None, seed: int) -> State:
    """A state `seat` cannot tell apart from `state`, with everything it cannot know drawn anew from `seed`:
    the opponent's hand, reserves, face-down cards, setup cards, action pile and mission (for a spectator:
    both players'), the order of the seat's own reserves (unknown to it unless it arranged its action pile),
    the vote deck order and the PRNG. The opponent's cards are dealt from the seat's knowledge pools, so the
    result agrees with everything the seat has seen (the knowledge pools above). Log entries the seat cannot see are
    dropped; the others are shared with `state` (log entries are never changed once written)."""
    light = dict(state)
    light["log"] = []
    new = clone(light)
    holder = {"rng": rng.seed_state(seed)}
    arranged = new["options"]["action_pile"] == "arrange"
    if seat is None:
        # A spectator knows only the public counts; the seats' knowledge in the new world is the same.
        public = [public_knowledge(new, 0), public_knowledge(new, 1)]
        new["knowledge"] = [clone(public[1]), clone(public[0])]
    for owner in (0, 1):
        if owner == seat:
            reserve = sorted(new["reserve"][owner])
            rng.shuffle(holder, reserve)
            new["reserve"][owner] = "".join(reserve)
            if not arranged:
                pile = sorted(new["action_reserve"][owner])
                rng.shuffle(holder, pile)
                new["action_reserve"][owner] = pile
            continue
        pools = public[owner] if seat is None else new["knowledge"][seat]
        zones = deal(pools["influence"], holder)
        new["hand"][owner] = cards_of(zones.get("hand", ()))
        new["reserve"][owner] = "".join(map(str, zones.get("reserve", ())))  # in dealing order
        new["setup"][owner] = cards_of(zones.get("setup", ()))
        for gi in range(len(GROUPS)):
            new["down"][owner][gi] = cards_of(zones.get(ZONE_DOWN[gi], ()))
        if new["castle"] and new["castle"]["seat"] == owner:
            new["castle"]["cards"] = cards_of(zones.get("castle", ()))
        zones = deal(pools["action"], holder)
        new["hand_actions"][owner] = sorted(zones.get("hand", []))
        new["action_reserve"][owner] = zones.get("reserve", [])
        new["arrange"][owner] = sorted(zones.get("arrange", []))
    if new["ended"] is None:  # at the end both missions are shown
        known = [q for q in (0, 1) if q == seat]
        missions = mission_pool(new, known)
        rng.shuffle(holder, missions)
        for q in (0, 1):
            if q != seat:
                new["missions"][q] = missions.pop()
    deck = sorted(new["vote_deck"])
    rng.shuffle(holder, deck)
    new["vote_deck"] = deck
    new["log"] = [e for e in state["log"] if log_visible(e, seat)]
    new["rng"] = rng.seed_state(seed ^ RESAMPLE_RNG_SALT)
    return new


def unseen(state: State) -> list[dict[str, Any]]:
    """What no seat's view shows, for the replay of a finished game: the vote deck and both players' reserves
    in their order (a seat sees its own hand, face-down cards and mission in its view)."""
    lines = [reveal_line({"en": "Vote deck, in order", "fr": "Pioche des votes, dans l'ordre",
                          "it": "Mazzo dei Suffragi, in ordine"},
                         [VOTE_CARD_NAMES[card] for card in state["vote_deck"]])]
    for p in (0, 1):
        names = INFLUENCE_NAMES[SIDES[p]]
        lines.append(reveal_line(
            fill({"en": "Influence reserve of player {n}, in order", "fr": "Réserve d'influence du joueur {n}, "
                  "dans l'ordre", "it": "Riserva di Influenza del giocatore {n}, in ordine"}, n=p + 1),
            [fill({lang: "{name} ({v})" for lang in LANGS}, name=names[v], v=v)
             for v in values_of(state["reserve"][p])]))
        lines.append(reveal_line(fill({"en": "Action reserve of player {n}, in order",
                                       "fr": "Réserve d'action du joueur {n}, dans l'ordre",
                                       "it": "Riserva di Manipolazione del giocatore {n}, in ordine"}, n=p + 1),
                                 [ACTION_NAMES[card] for card in state["action_reserve"][p]]))
    return lines
