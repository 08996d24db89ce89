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
    def sides(view: dict[str, Any]) -> tuple[int, int]:
        """(top, bottom): the opponent on top, the reader at the bottom (a spectator: Caesar on top)."""
        me = view["table"]["you"]
        bottom = 0 if me is None else me
        return 1 - bottom, bottom

    def seat_line(self, view, seat, tr) -> str:
        g = view["game"]
        won = sum(g["won"][seat])
        side = self.side_name(g["sides"][seat], tr)
        return tr(f"{side} · {won} patrician(s)", f"{side} · {won} patricien(s)")

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


PRESENTER = CesarCleopatrePresenter()
