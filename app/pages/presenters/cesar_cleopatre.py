"""How César & Cléopâtre is drawn: words of its cards and actions, and where each legal action goes."""

from __future__ import annotations

from typing import Any

from games import ALL_GAMES

from ..controls import Control
from . import Presenter

cc_cards = ALL_GAMES["cesar_cleopatre"].components  # the game's cards and their names, as data


class CesarCleopatrePresenter(Presenter):
    slug = "cesar_cleopatre"
    board_template = "games/cesar_cleopatre/board.html"
    SIDE_COLOURS = ("#1f7a78", "#a3312a")  # Cleopatra (teal), Caesar (crimson)

    def colour(self, seat: int) -> str:
        return self.SIDE_COLOURS[seat % 2]

    # words
    @staticmethod
    def group(name: str, _, singular: bool = False) -> str:
        return _.pick(cc_cards.GROUP_NAMES[name]["one" if singular else "many"])

    @staticmethod
    def group_key(index: int) -> str:
        """The name of the group at `index` of the view's groups (the rules' order)."""
        return cc_cards.GROUPS[index]

    @staticmethod
    def card(value: Any, _) -> str:
        if isinstance(value, int):
            return _("Philosopher") if value == 0 else str(value)
        return _.pick(cc_cards.ACTION_NAMES[value]) if value in cc_cards.ACTION_NAMES else str(value)

    @staticmethod
    def face(value: int) -> str:
        return "P" if value == 0 else str(value)

    @staticmethod
    def role(value: int, side: str, _) -> str:
        return _.pick(cc_cards.INFLUENCE_NAMES[side][value])

    @staticmethod
    def side_name(side: str, _) -> str:
        return _.pick(cc_cards.SIDE_NAMES[side])

    @staticmethod
    def vote_card(card: str, _) -> str:
        return _.pick(cc_cards.VOTE_CARD_NAMES[card])

    @staticmethod
    def pile(pile: str, _) -> str:
        return _.pick(cc_cards.PILE_NAMES[pile])

    ACTION_ICONS = {"assassination": "†", "spy": "◉", "castling": "⇄", "scout": "☀", "wrath": "ϟ", "veto": "⊘"}

    @staticmethod
    def sides(view: dict[str, Any]) -> tuple[int, int]:
        """(top, bottom): the opponent on top, the reader at the bottom (a spectator: Caesar on top)."""
        me = view["table"]["you"]
        bottom = 0 if me is None else me
        return 1 - bottom, bottom

    def seat_line(self, view, seat, _) -> str:
        g = view["game"]
        won = sum(g["won"][seat])
        side = self.side_name(g["sides"][seat], _)
        return side + " · " + _.ngettext("{n} patrician", "{n} patricians", won).format(n=won)

    def describe(self, action, view, _, names) -> Control:
        kind = action["type"]
        g = view["game"]
        if kind == "setup_place":
            group = self.group(action["group"], _)
            v = action["value"]
            return Control(action, _("Place your {card} face down at the {group}").format(card=self.card(v, _), group=group),
                           self.face(v), zone="setup", style="card-btn")
        if kind == "arrange":
            name = self.card(action["card"], _)
            return Control(action, _("Put the {name} next on your action pile").format(name=name),
                           name, zone="arrange")
        if kind == "passive":
            return Control(action, _("Stay passive this turn: discard cards, then draw"),
                           _("Stay passive"), style="secondary")
        if kind == "place":
            group = self.group(action["group"], _)
            v = action["value"]
            down = action["face"] == "down"
            face = _("face down") if down else _("face up")
            return Control(action, _("Place your {card} {face} at the {group}").format(card=self.card(v, _), face=face, group=group),
                           f"{self.face(v)} {'▼' if down else '▲'} {face}", zone=f"group:{action['group']}",
                           pick=f"inf:{v}", style="place-down" if down else "place-up")
        if kind == "play_action":
            card = action["card"]
            name = self.card(card, _)
            pick = f"act:{card}"
            if card == "assassination":
                group = self.group(action["group"], _)
                v = self.card(action["value"], _)
                return Control(action, _("Assassination: discard the opponent's {v} at the {group}").format(v=v, group=group),
                               f"† {self.face(action['value'])}", zone=f"group:{action['group']}", pick=pick,
                               style="danger")
            if card in ("scout", "wrath"):
                group = self.group(action["group"], _)
                words = (_("Scout: turn the opponent's face-down cards at the {group} face up").format(group=group)
                         if card == "scout" else
                         _("Wrath of the Gods: discard every card at the {group}").format(group=group))
                return Control(action, words, f"{self.ACTION_ICONS[card]} {name}", zone=f"group:{action['group']}",
                               pick=pick, style="danger" if card == "wrath" else "")
            if card == "castling":
                a, b = (self.group(x, _) for x in action["groups"])
                return Control(action, _("Castling: take back your cards at the {a} and the {b} and redeal them").format(a=a, b=b),
                               f"⇄ {a} + {b}", zone="prompt-actions", pick=pick)
            return Control(action, _("Spy: look at your opponent's hand and choose a card he discards"),
                           f"◉ {name}", zone="prompt-actions", pick=pick)
        if kind == "veto":
            return Control(action, _("Veto: cancel the action card (both cards are discarded)"),
                           "⊘ Veto", style="danger")
        if kind == "allow":
            return Control(action, _("Let the action card pass"), _("Let it pass"),
                           style="secondary")
        if kind == "spy_pick":
            c = action.get("value", action.get("card"))
            return Control(action, _("Make your opponent discard the {card}").format(card=self.card(c, _)),
                           self.face(c) if isinstance(c, int) else self.card(c, _), zone="spy",
                           style="card-btn" if isinstance(c, int) else "")
        if kind == "castle":
            group = self.group(action["group"], _)
            v = action["value"]
            return Control(action, _("Put your {card} face down at the {group}").format(card=self.card(v, _), group=group),
                           f"{self.face(v)} ▼ {_('here')}", zone=f"group:{action['group']}",
                           pick=f"castle:{v}", style="place-down")
        if kind == "draw":
            pile = self.pile(action["pile"], _)
            return Control(action, _("Draw a card from your {pile}").format(pile=pile),
                           _("Draw: {pile}").format(pile=pile), zone="draw")
        if kind == "refill":
            hand = g["hand"] or {"influence": [], "action": []}
            need = cc_cards.HAND_SIZE - len(hand["influence"]) - len(hand["action"])
            k = action["influence"]
            return Control(action, _.ngettext("Refill your hand: {k} influence and {n} action card",
                                               "Refill your hand: {k} influence and {n} action cards",
                                               need - k).format(k=k, n=need - k),
                           _("{k} influence + {need} action").format(k=k, need=need - k),
                           zone="draw", select="refill", select_label=_("Draw everything at once:"),
                           select_button=_("Draw"))
        if kind == "discard":
            c = action.get("value", action.get("card"))
            return Control(action, _("Discard your {card}").format(card=self.card(c, _)),
                           _("Discard {card}").format(card=self.card(c, _)), zone="discard")
        if kind == "end_turn":
            return Control(action, _("End your turn"), _("End turn"))
        return super().describe(action, view, _, names)


PRESENTER = CesarCleopatrePresenter()
