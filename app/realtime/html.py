"""The HTML side of the table page: regions, presenters and the HTML websocket.

A table page is cut into *regions*: elements with a stable id, each rendered by its own template and each
depending on a few keys of the seat's view. The full page renders every region; afterwards the HTML
websocket (`HtmlConnection`) receives the same JSON messages as every other connection of its seat
(a full view, then JSON Patches, presence, pings; see PROTOCOL.md), applies each patch to its own copy
of the view, re-renders only the regions whose keys changed, and sends them to the browser, where the
htmx websocket extension swaps them in by id (out-of-band swaps). A gap in the versions asks the hub
for a full view; a (re)connection always gets every region.

Templates only ever receive a seat's view (never a state) and the presenter of its game, which turns
the view's `legal_actions` into controls (`Control`): the page offers exactly the legal actions, each
as a form that works without JavaScript.

Presenters hold what a page needs beyond the view: names of cards and phases in both languages, the
"waiting for" sentence, and where each legal action goes on the board (`zone`) and what must be clicked
before it appears (`pick`: a card of the hand, dice, ...).
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import Any, Callable

import jsonpatch
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from games.alea_iacta_est import components as al_cards
from games.ave_cesar import components as ac_data
from games.cesar_cleopatre import components as cc_cards
from games.core import Game

from ..config import project_root
from ..i18n import LANG_NAMES, choice_words, service_message, translator
from .hub import Connection

log = logging.getLogger("tabula.html")

ENV = Environment(
    loader=FileSystemLoader(str(project_root() / "templates")),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


def _compact(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


ENV.filters["compact"] = _compact
ENV.globals["LANG_NAMES"] = LANG_NAMES
ENV.filters["choice"] = choice_words

# Seat colours of the generic shell (the games draw their own pieces in these colours).
SEAT_COLOURS = ("#b8442f", "#2f6f8f", "#c49a2c", "#4f7d3a", "#7b4d8f")


# =========================================================================================== controls

@dataclass
class Control:
    """One legal action as a control: where it goes, its words, and what must be picked first."""

    action: dict[str, Any]
    label: str  # the whole sentence (accessible name)
    text: str  # what the button shows
    zone: str = "prompt"
    pick: str | None = None  # a pick key ("inf:3", "dice:3,5") that must be selected before it shows
    select: str | None = None  # controls sharing this id become one <select> form
    select_label: str = ""
    select_button: str = ""
    style: str = ""

    @property
    def json(self) -> str:
        return _compact(self.action)


@dataclass
class SelectGroup:
    id: str
    label: str
    button: str
    items: list[Control] = field(default_factory=list)
    is_select = True


class Controls:
    """The seat's legal actions as controls, by zone, in the order of `legal_actions`."""

    def __init__(self, items: list[Control]):
        self.items = items

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def zone(self, name: str) -> list[Any]:
        out: list[Any] = []
        groups: dict[str, SelectGroup] = {}
        for c in self.items:
            if c.zone != name:
                continue
            if c.select:
                group = groups.get(c.select)
                if group is None:
                    group = groups[c.select] = SelectGroup(c.select, c.select_label, c.select_button)
                    out.append(group)
                group.items.append(c)
            else:
                out.append(c)
        return out

    def has(self, name: str) -> bool:
        return any(c.zone == name for c in self.items)

    def zones_starting(self, prefix: str) -> bool:
        return any(c.zone.startswith(prefix) for c in self.items)

    def picks(self) -> set[str]:
        return {c.pick for c in self.items if c.pick}

    def pickable(self, key: str) -> bool:
        """Single pick: is there a control waiting for exactly this key?"""
        return key in self.picks()

    def pickable_in(self, group: str, value: Any) -> bool:
        """Multi pick ("dice:1,3,3"): does any control's key contain this value?"""
        value = str(value)
        for pick in self.picks():
            name, _, values = pick.partition(":")
            if name == group and value in values.split(","):
                return True
        return False


# ========================================================================================= regions

@dataclass(frozen=True)
class Region:
    id: str
    template: str
    keys: tuple[str, ...]  # "table.x", a key of the game view, "presence" or "*" (always)


BODY = Region("tb-body", "table/body.html", ("table.status",))
VERSION = Region("tb-version", "table/version.html", ("*",))
SHELL_REGIONS = (
    Region("tb-status", "table/status.html", ("table.status", "table.seats", "to_act", "finished", "outcome")),
    Region("tb-seats", "table/seats.html", ("table.seats", "to_act", "finished", "outcome", "presence")),
    Region("tb-spectators", "table/spectators.html", ("presence",)),
    Region("tb-log", "table/log.html", ("log", "table.seats")),
    Region("tb-outcome", "table/outcome.html", ("outcome", "table.seats")),
)


def _value(view: dict[str, Any] | None, key: str) -> Any:
    if view is None:
        return None
    if key.startswith("table."):
        return view["table"].get(key[6:])
    game = view.get("game")
    return None if game is None else game.get(key)


def changed(old: dict[str, Any] | None, new: dict[str, Any], region: Region) -> bool:
    if old is None or "*" in region.keys:
        return True
    return any(_value(old, k) != _value(new, k) for k in region.keys if k != "presence")


# ====================================================================================== presenters

def seat_names(view: dict[str, Any], tr: Callable[[str, str], str]) -> list[str]:
    return [s["name"] or tr(f"Seat {s['number'] + 1}", f"Place {s['number'] + 1}") for s in view["table"]["seats"]]


def join_names(names: list[str], tr) -> str:
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + tr(" and ", " et ") + names[-1]


class Presenter:
    """The generic presenter: every legal action is a button in the prompt (used by test-only games)."""

    slug = ""
    regions: tuple[Region, ...] = (Region("gm-prompt", "games/generic/prompt.html", ("legal_actions",)),)
    status_keys: tuple[str, ...] = ()
    seat_keys: tuple[str, ...] = ()
    board_template = "games/generic/board.html"

    def colour(self, seat: int) -> str:
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    def describe(self, action: dict[str, Any], view: dict[str, Any], tr, names: list[str]) -> Control:
        words = ", ".join(f"{k} {v}" for k, v in action.items() if k != "type")
        text = action["type"].replace("_", " ") + (f" ({words})" if words else "")
        return Control(action, text, text)

    def doing(self, view: dict[str, Any], tr, names: list[str]) -> str:
        """What the game waits for, after the names of the seats that may act."""
        return tr("play", "jouer")

    def seat_line(self, view: dict[str, Any], seat: int, tr) -> str:
        return ""

    def controls(self, view: dict[str, Any], tr, names: list[str]) -> Controls:
        game = view.get("game") or {}
        return Controls([self.describe(a, view, tr, names) for a in game.get("legal_actions", [])])


# --------------------------------------------------------------------------------- César & Cléopâtre

class CesarCleopatrePresenter(Presenter):
    slug = "cesar_cleopatre"
    board_template = "games/cesar_cleopatre/board.html"
    regions = (
        Region("cc-top", "games/cesar_cleopatre/top.html",
               ("hand_counts", "reserve_counts", "discards", "won", "missions", "ended", "table.seats")),
        Region("cc-board", "games/cesar_cleopatre/groups.html",
               ("groups", "won", "legal_actions", "pending", "castling", "table.seats")),
        Region("cc-votes", "games/cesar_cleopatre/votes.html", ("vote_cards",)),
        Region("cc-prompt", "games/cesar_cleopatre/prompt.html",
               ("legal_actions", "phase", "turn_state", "spied_hand", "pending", "castling", "my_setup",
                "table.seats", "hand")),
        Region("cc-bottom", "games/cesar_cleopatre/bottom.html",
               ("hand", "hand_counts", "reserve_counts", "discards", "won", "mission", "missions",
                "my_action_pile", "legal_actions", "table.seats")),
    )
    status_keys = ("phase", "turn_state", "pending", "active")
    seat_keys = ("won", "hand_counts")
    SIDE_COLOURS = ("#1f7a78", "#a3312a")  # Cleopatra (teal), Caesar (crimson)

    def colour(self, seat: int) -> str:
        return self.SIDE_COLOURS[seat % 2]

    # words
    @staticmethod
    def group(name: str, tr, singular: bool = False) -> str:
        words = cc_cards.GROUP_NAMES[name]
        return tr(words[2], words[3]) if singular else tr(words[0], words[1])

    @staticmethod
    def card(value: Any, tr) -> str:
        if isinstance(value, int):
            return tr("Philosopher", "Philosophe") if value == 0 else str(value)
        en, fr = cc_cards.ACTION_NAMES.get(value, (str(value), str(value)))
        return tr(en, fr)

    @staticmethod
    def face(value: int) -> str:
        return "P" if value == 0 else str(value)

    @staticmethod
    def role(value: int, side: str, tr) -> str:
        en, fr = cc_cards.INFLUENCE_NAMES[side][value]
        return tr(en, fr)

    @staticmethod
    def side_name(side: str, tr) -> str:
        en, fr = cc_cards.SIDE_NAMES[side]
        return tr(en, fr)

    @staticmethod
    def vote_card(card: str, tr) -> str:
        en, fr = cc_cards.VOTE_CARD_NAMES[card]
        return tr(en, fr)

    @staticmethod
    def pile(pile: str, tr) -> str:
        en, fr = cc_cards.PILE_NAMES[pile]
        return tr(en, fr)

    ACTION_ICONS = {"assassination": "†", "spy": "◉", "castling": "⇄", "scout": "☀", "wrath": "ϟ", "veto": "⊘"}

    @staticmethod
    def points(won: list[int]) -> int:
        """Points in progress from the patricians won (the missions count only at the end)."""
        total = 0
        for count, size in zip(won, cc_cards.GROUP_SIZE):
            total += count * cc_cards.PATRICIAN_POINTS
            if count >= cc_cards.MAJORITY[size]:
                total += cc_cards.MAJORITY_POINTS
            if count == size:
                total += cc_cards.ALL_POINTS
        return total

    @staticmethod
    def sides(view: dict[str, Any]) -> tuple[int, int]:
        """(top, bottom): the opponent on top, the reader at the bottom (a spectator: Caesar on top)."""
        me = view["table"]["you"]
        bottom = 0 if me is None else me
        return 1 - bottom, bottom

    def seat_line(self, view, seat, tr) -> str:
        g = view["game"]
        won = sum(g["won"][seat])
        side = self.side_name(g["sides"][seat], tr)
        return tr(f"{side} · {won} patrician(s), {self.points(g['won'][seat])} pt",
                  f"{side} · {won} patricien(s), {self.points(g['won'][seat])} pt")

    def doing(self, view, tr, names) -> str:
        g = view["game"]
        t = g["turn_state"]
        phase = g["phase"]
        if phase == "setup":
            return tr("place a face-down card at each group", "poser une carte face cachée devant chaque groupe")
        if phase == "veto":
            card = self.card(g["pending"]["card"], tr) if g["pending"] else ""
            return tr(f"veto the {card} or let it pass", f"opposer son Veto à la carte {card} ou laisser faire")
        if phase == "spy":
            return tr("choose a card of the spied hand", "choisir une carte de la main espionnée")
        if phase == "spy_draw":
            return tr("draw a replacement card", "piocher une carte de remplacement")
        if phase == "castle":
            return tr("redeal the castled cards face down", "répartir face cachée les cartes du Roque")
        if phase == "draw":
            return tr("refill the hand to 5 cards", "compléter sa main à 5 cartes")
        if phase == "exchange":
            return tr("discard cards, then draw (passive turn)", "défausser puis piocher (tour passif)")
        if phase == "final":
            return tr("place every influence card the limits allow (last turn)",
                      "poser toutes les cartes Influence possibles (dernier tour)")
        if t["mode"] == "up" and t["placed"] == 1:
            return tr("place the second face-up card", "poser la seconde carte face visible")
        if t["mode"] and (t["mode"] == "down" or t["placed"] == 2):
            return tr("play an action card or draw", "jouer une carte Manipulation ou piocher")
        return tr("place influence, play an action card or stay passive",
                  "poser de l'influence, jouer une carte Manipulation ou rester passif")

    def describe(self, action, view, tr, names) -> Control:
        kind = action["type"]
        g = view["game"]
        if kind == "setup_place":
            group = self.group(action["group"], tr)
            v = action["value"]
            return Control(action, tr(f"Place your {self.card(v, tr)} face down at the {group}",
                                      f"Poser votre {self.card(v, tr)} face cachée devant les {group}"),
                           self.face(v), zone="setup", style="card-btn")
        if kind == "arrange":
            name = self.card(action["card"], tr)
            return Control(action, tr(f"Put the {name} next on your action pile",
                                      f"Mettre la carte {name} ensuite sur votre réserve de manipulation"),
                           name, zone="arrange")
        if kind == "passive":
            return Control(action, tr("Stay passive this turn: discard cards, then draw",
                                      "Rester passif ce tour : défausser des cartes, puis piocher"),
                           tr("Stay passive", "Rester passif"), style="secondary")
        if kind == "place":
            group = self.group(action["group"], tr)
            v = action["value"]
            down = action["face"] == "down"
            face = tr("face down", "face cachée") if down else tr("face up", "face visible")
            return Control(action, tr(f"Place your {self.card(v, tr)} {face} at the {group}",
                                      f"Poser votre {self.card(v, tr)} {face} devant les {group}"),
                           f"{self.face(v)} {'▼' if down else '▲'} {face}", zone=f"group:{action['group']}",
                           pick=f"inf:{v}", style="place-down" if down else "place-up")
        if kind == "play_action":
            card = action["card"]
            name = self.card(card, tr)
            pick = f"act:{card}"
            if card == "assassination":
                group = self.group(action["group"], tr)
                v = self.card(action["value"], tr)
                return Control(action, tr(f"Assassination: discard the opponent's {v} at the {group}",
                                          f"Assassinat : défausser le {v} adverse devant les {group}"),
                               f"† {self.face(action['value'])}", zone=f"group:{action['group']}", pick=pick,
                               style="danger")
            if card in ("scout", "wrath"):
                group = self.group(action["group"], tr)
                words = (tr(f"Scout: turn the opponent's face-down cards at the {group} face up",
                            f"Courtisan : retourner les cartes cachées adverses devant les {group}")
                         if card == "scout" else
                         tr(f"Wrath of the Gods: discard every card at the {group}",
                            f"Colère des dieux : défausser toutes les cartes devant les {group}"))
                return Control(action, words, f"{self.ACTION_ICONS[card]} {name}", zone=f"group:{action['group']}",
                               pick=pick, style="danger" if card == "wrath" else "")
            if card == "castling":
                a, b = (self.group(x, tr) for x in action["groups"])
                return Control(action, tr(f"Castling: take back your cards at the {a} and the {b} and redeal them",
                                          f"Roque : reprendre vos cartes devant les {a} et les {b} et les répartir"),
                               f"⇄ {a} + {b}", zone="prompt-actions", pick=pick)
            return Control(action, tr("Spy: look at your opponent's hand and choose a card he discards",
                                      "Espion : regarder la main adverse et choisir la carte qu'il défausse"),
                           f"◉ {name}", zone="prompt-actions", pick=pick)
        if kind == "veto":
            return Control(action, tr("Veto: cancel the action card (both cards are discarded)",
                                      "Veto : annuler la carte Manipulation (les deux cartes sont défaussées)"),
                           "⊘ Veto", style="danger")
        if kind == "allow":
            return Control(action, tr("Let the action card pass", "Laisser faire"), tr("Let it pass", "Laisser faire"),
                           style="secondary")
        if kind == "spy_pick":
            c = action.get("value", action.get("card"))
            return Control(action, tr(f"Make your opponent discard the {self.card(c, tr)}",
                                      f"Faire défausser la carte {self.card(c, tr)} à votre adversaire"),
                           self.face(c) if isinstance(c, int) else self.card(c, tr), zone="spy",
                           style="card-btn" if isinstance(c, int) else "")
        if kind == "castle":
            group = self.group(action["group"], tr)
            v = action["value"]
            return Control(action, tr(f"Put your {self.card(v, tr)} face down at the {group}",
                                      f"Poser votre {self.card(v, tr)} face cachée devant les {group}"),
                           f"{self.face(v)} ▼ {tr('here', 'ici')}", zone=f"group:{action['group']}",
                           pick=f"castle:{v}", style="place-down")
        if kind == "draw":
            pile = self.pile(action["pile"], tr)
            return Control(action, tr(f"Draw a card from your {pile}", f"Piocher une carte dans votre {pile}"),
                           tr(f"Draw: {pile}", f"Piocher : {pile}"), zone="draw")
        if kind == "refill":
            hand = g["hand"] or {"influence": [], "action": []}
            need = cc_cards.HAND_SIZE - len(hand["influence"]) - len(hand["action"])
            k = action["influence"]
            return Control(action, tr(f"Refill your hand: {k} influence and {need - k} action card(s)",
                                      f"Compléter votre main : {k} Influence et {need - k} Manipulation"),
                           tr(f"{k} influence + {need - k} action", f"{k} Influence + {need - k} Manipulation"),
                           zone="draw", select="refill", select_label=tr("Draw everything at once:",
                                                                           "Tout piocher d'un coup :"),
                           select_button=tr("Draw", "Piocher"))
        if kind == "discard":
            c = action.get("value", action.get("card"))
            return Control(action, tr(f"Discard your {self.card(c, tr)}", f"Défausser votre {self.card(c, tr)}"),
                           tr(f"Discard {self.card(c, tr)}", f"Défausser {self.card(c, tr)}"), zone="discard")
        if kind == "end_turn":
            return Control(action, tr("End your turn", "Finir votre tour"), tr("End turn", "Finir le tour"))
        return super().describe(action, view, tr, names)


# -------------------------------------------------------------------------------------- Ave César

class AveCesarPresenter(Presenter):
    slug = "ave_cesar"
    board_template = "games/ave_cesar/board.html"
    regions = (
        Region("ac-events", "games/ave_cesar/events.html",
               ("event", "wars", "events_left", "events_drawn", "upper_pile_left", "end")),
        Region("ac-boards", "games/ave_cesar/boards.html",
               ("markets", "senate_deck", "senate_discard", "auction", "legal_actions", "table.seats", "active")),
        Region("ac-prompt", "games/ave_cesar/prompt.html",
               ("phase", "legal_actions", "sealed", "new_senator", "extortion", "counters", "draft", "table.seats",
                "active", "you")),
        Region("ac-me", "games/ave_cesar/me.html", ("you", "table", "legal_actions", "table.seats")),
        Region("ac-players", "games/ave_cesar/players.html",
               ("table", "first_player", "active", "extortion", "counters", "legal_actions", "table.seats",
                "final_money", "final_hands", "sealed")),
    )
    status_keys = ("phase", "active", "sealed", "new_senator", "extortion", "counters", "auction", "event")
    seat_keys = ("table",)
    COLOURS = ("#b8442f", "#2f6f8f", "#c49a2c", "#4f7d3a", "#7b4d8f")
    RESOURCE_COLOURS = {"wheat": "#d9b44a", "meat": "#b5483b", "iron": "#6d7a86", "cloth": "#8a5fa8",
                        "wood": "#7a5434", "olives": "#6f8a3a"}

    def colour(self, seat: int) -> str:
        return self.COLOURS[seat % len(self.COLOURS)]

    @staticmethod
    def name(card: str, tr) -> str:
        en, fr = ac_data.card_name(card)
        return tr(en, fr)

    @staticmethod
    def kind(card: str) -> str:
        if card in ac_data.RESOURCE_VALUE:
            return "resource"
        if card in ac_data.SENATE_COUNTS:
            return "senate"
        if card in ac_data.INFLUENCE_NAMES:
            return "influence"
        return "event"

    @staticmethod
    def rtype(card: str) -> str:
        return ac_data.RESOURCE_TYPE.get(card, "")

    @staticmethod
    def rvalue(card: str) -> int:
        return ac_data.RESOURCE_VALUE.get(card, 0)

    @staticmethod
    def rname(card: str, tr) -> str:
        en, fr = ac_data.RESOURCE_NAMES[ac_data.RESOURCE_TYPE[card]]
        return tr(en, fr)

    @staticmethod
    def dots(band: int) -> str:
        return ac_data.BAND_DOTS[band]

    @staticmethod
    def band(card: str) -> int:
        return ac_data.RESOURCE_BAND.get(card, 0)

    def board_name(self, board: int, tr) -> str:
        if board == 3:
            return tr("Senate", "Sénat")
        return tr(f"Market {self.dots(board)}", f"Marché {self.dots(board)}")

    PHASES = {
        "draft": ("choose an influence card", "choisir une carte Influence"),
        "sealed_bid": ("seal a secret bid", "cacher une mise secrète"),
        "new_senator": ("accept or decline the New Senator", "accepter ou refuser le Nouveau Sénateur"),
        "choose_action": ("choose Auction, Extortion or Counters", "choisir Enchères, Extorsion ou Comptoirs"),
        "auction_bidding": ("bid on the lots", "miser sur les lots"),
        "auction_settling": ("settle the lots", "régler les lots"),
        "prefects": ("protect a card with the Prefects, or not", "protéger une carte avec les Préfets, ou non"),
        "extortion_target": ("choose a card to extort", "choisir une carte à extorquer"),
        "extortion_price": ("name the price", "fixer le prix"),
        "extortion_answer": ("pay or give up the card", "payer ou céder la carte"),
        "counters_join": ("join the Counters or not", "rejoindre les Comptoirs ou non"),
        "counters": ("trade at the Counters", "commercer aux Comptoirs"),
        "governor_value": ("choose the Governor's value", "choisir la valeur du Gouverneur"),
    }

    def doing(self, view, tr, names) -> str:
        g = view["game"]
        en, fr = self.PHASES.get(g["phase"], ("play", "jouer"))
        return tr(en, fr)

    def seat_line(self, view, seat, tr) -> str:
        row = view["game"]["table"][seat]
        if row["out"]:
            return tr("out of the game", "sorti du jeu")
        return tr(f"{row['senators']} senator(s) · {row['hand_size']} card(s) in hand",
                  f"{row['senators']} sénateur(s) · {row['hand_size']} carte(s) en main")

    def describe(self, action, view, tr, names) -> Control:
        kind = action["type"]
        g = view["game"]
        if kind == "sell_senator":
            return Control(action, tr("Sell one of your senators to the bank for 5",
                                      "Vendre un de vos sénateurs à la banque pour 5"),
                           tr("Sell a senator (+5)", "Vendre un sénateur (+5)"), zone="me", style="secondary")
        if kind == "draft":
            n = self.name(action["card"], tr)
            return Control(action, tr(f"Take the influence card {n}", f"Prendre la carte Influence {n}"), n,
                           zone="draft")
        if kind == "seal_bid":
            a = action["amount"]
            return Control(action, tr(f"Seal a bid of {a}", f"Miser {a} en secret"), str(a), select="seal",
                           select_label=tr("Your secret bid:", "Votre mise secrète :"),
                           select_button=tr("Seal my bid", "Cacher ma mise"))
        if kind == "accept_senator":
            price = (g.get("new_senator") or {}).get("price")
            return Control(action, tr(f"Buy the New Senator for {price}", f"Acheter le Nouveau Sénateur pour {price}"),
                           tr(f"Accept ({price})", f"Accepter ({price})"))
        if kind == "decline_senator":
            return Control(action, tr("Decline the New Senator", "Refuser le Nouveau Sénateur"),
                           tr("Decline", "Refuser"), style="secondary")
        if kind in ("auction", "extortion", "counters"):
            words = {"auction": (tr("Auction", "Enchères"), tr("Turn up a lot on each board and let the others bid",
                                                                 "Retourner un lot par plateau ; les autres misent")),
                     "extortion": (tr("Extortion", "Extorsion"), tr("Take money from the bank and extort face-up cards",
                                                                     "Prendre de l'argent à la banque et extorquer des cartes")),
                     "counters": (tr("Counters", "Comptoirs"), tr("Sell sets, buy senators and play Senate cards",
                                                                   "Vendre des séries, acheter des sénateurs, jouer des cartes Sénat"))}[kind]
            return Control(action, f"{words[0]}: {words[1]}", words[0], zone="choose", style="big")
        if kind == "bid":
            lot, a = action["lot"], action["amount"]
            card = self._lot_card(g, lot, tr)
            return Control(action, tr(f"Bid {a} on {card}", f"Miser {a} sur {card}"), str(a), zone=f"lot:{lot}",
                           select=f"bid{lot}", select_label=tr("Bid", "Miser"), select_button=tr("Bid", "Miser"))
        if kind == "end_bids":
            return Control(action, tr("Finish your bids", "Terminer vos mises"), tr("Done bidding", "Fin des mises"))
        if kind in ("sell_lot", "buy_lot", "merchants"):
            lot = action["lot"]
            card = self._lot_card(g, lot, tr)
            words = {"sell_lot": (tr(f"Let the highest bidder buy {card}", f"Laisser le meilleur enchérisseur acheter {card}"),
                                  tr("Sell", "Vendre")),
                     "buy_lot": (tr(f"Buy {card} yourself (pay the highest bid to its bidder)",
                                    f"Acheter {card} vous-même (payer la meilleure mise à son auteur)"),
                                 tr("Buy", "Acheter")),
                     "merchants": (tr(f"Merchants: take {card} for 1", f"Marchands : prendre {card} pour 1"),
                                   tr("Merchants (1)", "Marchands (1)"))}[kind]
            return Control(action, words[0], words[1], zone=f"lot:{lot}", style="" if kind != "sell_lot" else "secondary")
        if kind == "protect":
            n = self.name(action["card"], tr)
            return Control(action, tr(f"Protect {n} with the Prefects", f"Protéger {n} avec les Préfets"),
                           tr(f"Protect {n}", f"Protéger {n}"))
        if kind == "no_protection":
            return Control(action, tr("Protect nothing", "Ne rien protéger"), tr("No protection", "Pas de protection"),
                           style="secondary")
        if kind == "extort":
            n = self.name(action["card"], tr)
            target = (g.get("extortion") or {}).get("target")
            who = names[target] if target is not None else ""
            return Control(action, tr(f"Extort {who}'s {n}", f"Extorquer la carte {n} de {who}"),
                           tr(f"Extort {n}", f"Extorquer {n}"), zone=f"seat:{target}", style="danger")
        if kind == "spare":
            return Control(action, tr("Spare this player", "Épargner ce joueur"), tr("Spare", "Épargner"),
                           style="secondary")
        if kind == "price":
            a = action["amount"]
            return Control(action, tr(f"Name the price {a}", f"Fixer le prix à {a}"), str(a), select="price",
                           select_label=tr("Price:", "Prix :"), select_button=tr("Name this price", "Fixer ce prix"))
        if kind == "pay":
            price = (g.get("extortion") or {}).get("price")
            return Control(action, tr(f"Pay {price} and keep the card", f"Payer {price} et garder la carte"),
                           tr(f"Pay {price}", f"Payer {price}"))
        if kind == "give_up":
            return Control(action, tr("Sell the card for the price", "Céder la carte pour ce prix"),
                           tr("Give up the card", "Céder la carte"), style="secondary")
        if kind == "join_counters":
            return Control(action, tr("Join the Counters (pay 5 to the active player)",
                                      "Rejoindre les Comptoirs (payer 5 au joueur actif)"),
                           tr("Join (5)", "Rejoindre (5)"))
        if kind == "decline_counters":
            return Control(action, tr("Do not join the Counters", "Ne pas rejoindre les Comptoirs"),
                           tr("Decline", "Refuser"), style="secondary")
        if kind in ("sell", "quaestor_sale"):
            cards = action["cards"]
            words = ", ".join(self.name(c, tr) for c in cards)
            quaestor = kind == "quaestor_sale"
            label = (tr(f"Quaestor sale: {words}", f"Vente du Questeur : {words}") if quaestor
                     else tr(f"Sell the set {words}", f"Vendre la série {words}"))
            return Control(action, label, label, zone="sell", pick="cards:" + ",".join(cards))
        if kind == "buy_senator":
            return Control(action, tr("Buy a senator", "Acheter un sénateur"), tr("Buy a senator", "Acheter un sénateur"))
        if kind == "play_consul":
            return Control(action, tr("Play the Consul: senators cost 7 during this Counters",
                                      "Jouer le Consul : les sénateurs coûtent 7 pendant ces Comptoirs"),
                           tr("Play the Consul", "Jouer le Consul"))
        if kind == "censor":
            who = names[action["target"]]
            return Control(action, tr(f"Censor: steal a senator from {who}", f"Censeur : voler un sénateur à {who}"),
                           tr(f"Censor {who}", f"Censeur sur {who}"), style="danger")
        if kind == "end_counters":
            return Control(action, tr("Leave the Counters", "Quitter les Comptoirs"), tr("Done", "Terminer"),
                           style="secondary")
        if kind == "governor_value":
            v = action["value"]
            return Control(action, tr(f"The Governor counts as {v}", f"Le Gouverneur vaut {v}"), str(v),
                           select="govval", select_label=tr("Governor's value:", "Valeur du Gouverneur :"),
                           select_button=tr("Choose", "Choisir"))
        return super().describe(action, view, tr, names)

    def _lot_card(self, g, lot: int, tr) -> str:
        auction = g.get("auction")
        return "" if not auction else self.name(auction["lots"][lot]["card"], tr)


# -------------------------------------------------------------------------------- Alea Iacta Est

class AleaPresenter(Presenter):
    slug = "alea_iacta_est"
    board_template = "games/alea_iacta_est/board.html"
    regions = (
        Region("al-roll", "games/alea_iacta_est/roll.html",
               ("rolled", "turn_seat", "chips", "legal_actions", "unplaced", "round", "phase", "table.seats")),
        Region("al-buildings", "games/alea_iacta_est/buildings.html",
               ("templum", "senatus", "castrum", "forum", "latrina", "patrician_offer", "province_offer",
                "legal_actions", "castrum_queue", "forum_queue", "table.seats", "province_pile", "patrician_pile",
                "fortuna_pile", "fortuna_discard", "senate_deck")),
        Region("al-prompt", "games/alea_iacta_est/prompt.html",
               ("legal_actions", "phase", "senate_offer", "senate_holder", "own_fortuna", "fortuna_keep",
                "table.seats")),
        Region("al-me", "games/alea_iacta_est/me.html",
               ("own_senate", "own_fortuna", "fortuna_kept", "provinces", "patricians", "chips", "table.seats")),
        Region("al-players", "games/alea_iacta_est/players.html",
               ("unplaced", "chips", "provinces", "patricians", "fortuna_kept", "fortuna_drawn", "senate_counts",
                "latrina", "start_seat", "turn_seat", "table.seats")),
    )
    status_keys = ("phase", "turn_seat", "round", "senate_holder", "ending")
    seat_keys = ("unplaced", "chips", "provinces", "patricians")
    DIE_CSS = {"grey": "#8d8d8d", "brown": "#8a5a36", "blue": "#2f6f9f", "green": "#3f8a4a", "yellow": "#d8b42a"}
    PIPS = {1: ((50, 50),), 2: ((28, 28), (72, 72)), 3: ((26, 26), (50, 50), (74, 74)),
            4: ((28, 28), (72, 28), (28, 72), (72, 72)),
            5: ((26, 26), (74, 26), (50, 50), (26, 74), (74, 74)),
            6: ((28, 24), (72, 24), (28, 50), (72, 50), (28, 76), (72, 76))}

    def colour(self, seat: int) -> str:
        return self.DIE_CSS[al_cards.DIE_COLOURS[seat % len(al_cards.DIE_COLOURS)]]

    def die(self, value: int, seat: int | None, size: int = 34, extra: str = "") -> Markup:
        """A die as an inline SVG in the seat's colour (pips drawn, value also in the title)."""
        fill = self.colour(seat) if seat is not None else "#f4efe4"
        pip = "#fff" if seat is not None and al_cards.DIE_COLOURS[seat % 5] not in ("yellow",) else "#2b2118"
        if seat is None:
            pip = "#2b2118"
        circles = "".join(f'<circle cx="{x}" cy="{y}" r="9" fill="{pip}"/>' for x, y in self.PIPS[value])
        return Markup(
            f'<svg class="die {extra}" viewBox="0 0 100 100" width="{size}" height="{size}" role="img" '
            f'aria-label="{value}"><rect x="4" y="4" width="92" height="92" rx="18" fill="{fill}" '
            f'stroke="#2b2118" stroke-width="4"/>{circles}</svg>')

    @staticmethod
    def building(key: str) -> str:
        return al_cards.BUILDING_NAMES[key]

    @staticmethod
    def province(pid: str) -> str:
        return al_cards.province_label(pid)

    @staticmethod
    def patrician(pid: str) -> str:
        return al_cards.patrician_label(pid)

    @staticmethod
    def province_info(pid: str) -> dict[str, Any]:
        colour, value = al_cards.PROVINCE_INFO[pid]
        css = "#8f8f8f" if colour is None else next(c["css"] for c in al_cards.COLOURS if c["key"] == colour)
        return {"colour": colour, "value": value, "roman": al_cards.ROMAN[value], "css": css,
                "name": "Joker" if colour is None else al_cards.COLOUR_NAMES[colour]}

    @staticmethod
    def patrician_info(pid: str) -> dict[str, Any]:
        colour, gender, value = al_cards.PATRICIAN_INFO[pid]
        css = next(c["css"] for c in al_cards.COLOURS if c["key"] == colour)
        return {"colour": colour, "gender": gender, "value": value, "roman": al_cards.ROMAN[value], "css": css,
                "name": al_cards.COLOUR_NAMES[colour], "sign": "♂" if gender == "m" else "♀"}

    @staticmethod
    def senate_text(card: str, tr) -> str:
        info = al_cards.SENATE_CARD[card]
        return tr(info["en"], info["fr"])

    @staticmethod
    def roman(v: int) -> str:
        return al_cards.ROMAN[v]

    @staticmethod
    def dice_words(dice: list[int]) -> str:
        return "-".join(str(d) for d in dice)

    def doing(self, view, tr, names) -> str:
        g = view["game"]
        phase = g["phase"]
        if phase == "turn":
            return tr("place dice in a building", "placer des dés dans un bâtiment")
        if phase == "fortuna":
            return tr("keep Fortuna tiles", "garder des jetons « faveur divine »")
        if phase == "senate":
            return tr("keep a Senate card", "garder une carte sénat")
        if phase == "castrum":
            return tr("choose a province", "choisir une province")
        if phase == "forum":
            return tr("choose a patrician", "choisir un habitant")
        return tr("play", "jouer")

    def seat_line(self, view, seat, tr) -> str:
        g = view["game"]
        return tr(f"{g['unplaced'][seat]} dice to place · {g['chips'][seat]} chip(s) · "
                  f"{len(g['provinces'][seat])} province(s), {len(g['patricians'][seat])} patrician(s)",
                  f"{g['unplaced'][seat]} dé(s) à placer · {g['chips'][seat]} jeton(s) relance · "
                  f"{len(g['provinces'][seat])} province(s), {len(g['patricians'][seat])} habitant(s)")

    def describe(self, action, view, tr, names) -> Control:
        kind = action["type"]
        if kind == "reroll":
            dice = action["dice"]
            words = self.dice_words(dice)
            return Control(action, tr(f"Spend a Repete chip to re-roll {words}",
                                      f"Dépenser un jeton « relance » pour relancer {words}"),
                           tr(f"Re-roll {words} (1 chip)", f"Relancer {words} (1 jeton)"), zone="roll",
                           pick="dice:" + ",".join(str(d) for d in dice), style="secondary")
        if kind == "place":
            dice = action["dice"]
            b = self.building(action["building"])
            words = self.dice_words(dice)
            return Control(action, tr(f"Place {words} in the {b}", f"Placer {words} au {b}"),
                           tr(f"Place {words} here", f"Placer {words} ici"), zone=f"b:{action['building']}",
                           pick="dice:" + ",".join(str(d) for d in dice), style="place")
        if kind == "latrina":
            d = action["die"]
            return Control(action, tr(f"No placement is possible: put a {d} in the Latrina",
                                      f"Aucun placement possible : mettre un {d} aux latrines"),
                           tr(f"{d} to the Latrina", f"{d} aux latrines"))
        if kind == "keep_fortuna":
            tiles = " + ".join(self.roman(t) for t in action["tiles"])
            return Control(action, tr(f"Keep the Fortuna tiles {tiles}", f"Garder les jetons {tiles}"),
                           tr(f"Keep {tiles}", f"Garder {tiles}"), zone="fortuna")
        if kind == "keep_senate":
            card = action["card"]
            return Control(action, tr(f"Keep the Senate card {card}: {self.senate_text(card, tr)}",
                                      f"Garder la carte sénat {card} : {self.senate_text(card, tr)}"),
                           tr(f"Keep {card}", f"Garder {card}"), zone="senate")
        if kind == "take_province":
            p = self.province(action["province"])
            return Control(action, tr(f"Take the province {p}", f"Prendre la province {p}"),
                           tr("Take", "Prendre"), zone=f"province:{action['province']}")
        if kind == "take_patrician":
            p = self.patrician(action["patrician"])
            return Control(action, tr(f"Take the patrician {p}", f"Prendre l'habitant {p}"),
                           tr("Take", "Prendre"), zone=f"patrician:{action['patrician']}")
        return super().describe(action, view, tr, names)


PRESENTERS: dict[str, Presenter] = {
    "cesar_cleopatre": CesarCleopatrePresenter(),
    "ave_cesar": AveCesarPresenter(),
    "alea_iacta_est": AleaPresenter(),
}
GENERIC = Presenter()


def presenter_for(slug: str) -> Presenter:
    return PRESENTERS.get(slug, GENERIC)


# ========================================================================================= context

@dataclass
class PageState:
    """Everything a table page is rendered from: the seat's view and public facts (never a state)."""

    view: dict[str, Any]
    version: int
    lang: str
    game: Game
    presence: dict[str, Any]
    links: dict[str, str | None]
    flash: str | None = None
    title_en: str = ""
    title_fr: str = ""


def context(page: PageState) -> dict[str, Any]:
    tr = translator(page.lang)
    view = page.view
    table = view["table"]
    presenter = presenter_for(table["game"])
    names = seat_names(view, tr)
    gview = view.get("game")
    me = table["you"]
    controls = presenter.controls(view, tr, names) if gview else Controls([])
    connected = set(page.presence.get("connected", []))
    to_act = list(gview["to_act"]) if gview else []
    if gview and gview["finished"]:
        waiting = tr("The game is over.", "La partie est terminée.")
    elif gview:
        doing = presenter.doing(view, tr, names)
        if me is not None and me in to_act:
            others = [names[s] for s in to_act if s != me]
            waiting = (tr("Your turn: ", "À vous : ") if not others else
                       tr(f"You and {join_names(others, tr)}: ", f"Vous et {join_names(others, tr)} : ")) + doing
        else:
            who = join_names([names[s] for s in to_act], tr)
            waiting = tr(f"Waiting for {who}: ", f"À {who} : ") + doing if who else ""
    else:
        free = sum(1 for s in table["seats"] if s["name"] is None)
        waiting = tr(f"Waiting for {free} more player(s)", f"Encore {free} joueur(s) attendu(s)")
    my_turn = bool(gview) and me is not None and me in to_act and not gview["finished"]
    title = tr(page.title_en, page.title_fr)
    tab_title = (("▶ " + tr("Your turn", "À vous") + " · ") if my_turn else "") + f"{title} · Tabula"
    return {
        "view": view, "g": gview, "tbl": table, "me": me, "names": names, "lang": page.lang, "tr": tr,
        "P": presenter, "controls": controls, "game": page.game, "presence": page.presence, "connected": connected,
        "links": page.links, "version": page.version, "table_id": table["id"], "flash": page.flash,
        "waiting": waiting, "my_turn": my_turn, "tab_title": tab_title, "title": title,
        "to_act": to_act, "spectator": me is None,
    }


def render_region(region: Region, ctx: dict[str, Any]) -> str:
    return ENV.get_template(region.template).render(ctx)


def regions_for(view: dict[str, Any]) -> tuple[Region, ...]:
    """The regions inside the body for this view (the lobby shows only the seats)."""
    if view.get("game") is None:
        return (SHELL_REGIONS[1], SHELL_REGIONS[2])
    return SHELL_REGIONS + presenter_for(view["table"]["game"]).regions


def log_lines(game: Game, g: dict[str, Any] | None, lang: str, names: list[str], limit: int = 300) -> list[str]:
    """The seat's visible log in words, newest first."""
    entries = (g or {}).get("log", [])
    out = []
    for entry in reversed(entries[-limit:]):
        try:
            out.append(game.render_log(entry, lang, names))
        except Exception:  # a log line that does not render must not break the page
            log.exception("log entry %r did not render", entry.get("key"))
            out.append(entry.get("key", ""))
    return out


ENV.globals["log_lines"] = log_lines


def render_update(old: dict[str, Any] | None, page: PageState, presence_changed: bool = False,
                  full: bool = False) -> list[tuple[str, str]]:
    """(region id, html) of every region to send after the view went from `old` to `page.view`."""
    ctx = context(page)
    out = [(VERSION.id, render_region(VERSION, ctx))]
    if full or old is None or changed(old, page.view, BODY):
        out.append((BODY.id, render_region(BODY, ctx)))
        return out
    for region in regions_for(page.view):
        if changed(old, page.view, region) or (presence_changed and "presence" in region.keys):
            out.append((region.id, render_region(region, ctx)))
    return out


# ===================================================================================== websocket

PING_HTML = '<span id="tb-ping" hidden></span>'


class HtmlConnection(Connection):
    """A browser tab on the HTML websocket: receives the seat's JSON messages from the hub and sends the
    changed regions as HTML instead (only regions whose HTML differs from what it last sent)."""

    def __init__(self, ws, table_id: str, seat: int | None, token_hash: str | None, *, lang: str, game: Game,
                 links: dict[str, str | None], presence: dict[str, Any], title: tuple[str, str],
                 view: dict[str, Any] | None = None, version: int | None = None):
        super().__init__(ws, table_id, seat, token_hash)
        self.lang = lang
        self.game = game
        self.links = links
        self.presence = presence
        self.title = title
        self.view = view
        self.version = version
        self.sent: dict[str, str] = {}
        self.resync: Callable[[], Any] | None = None

    def _page(self) -> PageState:
        return PageState(self.view, self.version, self.lang, self.game, self.presence, self.links,
                         title_en=self.title[0], title_fr=self.title[1])

    async def send(self, message: str) -> None:
        try:
            html = self._translate(message)
        except Exception:
            log.exception("HTML rendering failed at table %s", self.table_id)
            html = None
        if html:
            await super().send(html)

    def _translate(self, message: str) -> str | None:
        msg = json.loads(message)
        kind = msg.get("type")
        if kind == "full":
            self.view, self.version = msg["view"], msg["version"]
            self.sent.clear()
            return self._emit(render_update(None, self._page(), full=True))
        if kind == "patch":
            if self.view is None or msg["from"] != self.version:
                if self.resync is not None:  # a gap: ask for a full view (never under the channel's lock)
                    asyncio.get_running_loop().create_task(self.resync())
                return None
            old = self.view
            self.view = jsonpatch.apply_patch(old, msg["patch"])
            self.version = msg["version"]
            return self._emit(render_update(old, self._page()))
        if kind == "presence":
            presence = {"connected": msg.get("connected", []), "spectators": msg.get("spectators", 0)}
            if presence == self.presence or self.view is None:
                self.presence = presence
                return None
            self.presence = presence
            ctx = context(self._page())
            updates = [(r.id, render_region(r, ctx)) for r in regions_for(self.view) if "presence" in r.keys]
            return self._emit(updates)
        if kind == "ping":
            return PING_HTML
        if kind == "error":
            tr = translator(self.lang)
            text = service_message(msg.get("error", ""), self.lang)
            return ENV.get_template("table/flash.html").render({"flash": text, "tr": tr})
        return None

    def _emit(self, updates: list[tuple[str, str]]) -> str | None:
        parts = []
        for region_id, html in updates:
            if region_id == BODY.id:
                # The body holds every region: remember each one's HTML, so that later updates send a
                # region only when its HTML really changed.
                ctx = context(self._page())
                self.sent = {r.id: render_region(r, ctx) for r in regions_for(self.view)}
                self.sent[BODY.id] = html
                parts.append(html)
                continue
            if self.sent.get(region_id) == html:
                continue
            self.sent[region_id] = html
            parts.append(html)
        return "".join(parts) or None
