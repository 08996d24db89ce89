"""How Alea Iacta Est is drawn: words of its cards and actions, and where each legal action goes."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from games import ALL_GAMES

from ..controls import Control
from . import Presenter

al_cards = ALL_GAMES["alea_iacta_est"].components  # the game's cards and their names, as data


def ink(css: str) -> str:
    """The colour of words on a tile of colour `css` ("#rrggbb"): white where it contrasts enough (WCAG AA,
    4.5:1), else a dark brown (the yellow and orange provinces)."""
    def channel(c: int) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(int(css[i:i + 2], 16)) for i in (1, 3, 5))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#fff" if 1.05 / (luminance + 0.05) >= 4.5 else "#1d140c"


class AleaPresenter(Presenter):
    slug = "alea_iacta_est"
    board_template = "games/alea_iacta_est/board.html"
    DIE_CSS = {"grey": "#8d8d8d", "brown": "#8a5a36", "blue": "#2f6f9f", "green": "#3f8a4a", "yellow": "#d8b42a"}
    PIPS = {1: ((50, 50),), 2: ((28, 28), (72, 72)), 3: ((26, 26), (50, 50), (74, 74)),
            4: ((28, 28), (72, 28), (28, 72), (72, 72)),
            5: ((26, 26), (74, 26), (50, 50), (26, 74), (74, 74)),
            6: ((28, 24), (72, 24), (28, 50), (72, 50), (28, 76), (72, 76))}

    def colour(self, seat: int) -> str:
        return self.DIE_CSS[al_cards.DIE_COLOURS[seat % len(al_cards.DIE_COLOURS)]]

    def die(self, value: int, seat: int | None, size: int = 34, extra: str = "") -> Markup:
        """A die as an inline SVG in the seat's colour (value also in the label): the face `value` of the page's
        drawing of the six faces (`faces`), coloured by the custom properties --die and --pip."""
        fill = self.colour(seat) if seat is not None else "#f4efe4"
        pip = "#fff" if seat is not None and al_cards.DIE_COLOURS[seat % 5] not in ("yellow",) else "#2b2118"
        return Markup(
            f'<svg class="die {extra}" viewBox="0 0 100 100" width="{size}" height="{size}" role="img" '
            f'aria-label="{value}" style="--die: {fill}; --pip: {pip}"><use href="#al-die-{value}"/></svg>')

    def faces(self) -> Markup:
        """The six faces of a die, drawn once in the page (board.html) for every die of it (`die`): a page
        shows dozens, and each change of one sends it again."""
        symbols = "".join(
            f'<symbol id="al-die-{value}" viewBox="0 0 100 100"><rect class="die-face" x="4" y="4" width="92" '
            f'height="92" rx="18" stroke="#2b2118" stroke-width="4"/>'
            + "".join(f'<circle class="die-pip" cx="{x}" cy="{y}" r="9"/>' for x, y in pips) + "</symbol>"
            for value, pips in self.PIPS.items())
        return Markup(f'<svg class="sprites" width="0" height="0" aria-hidden="true">{symbols}</svg>')

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
        return {"colour": colour, "value": value, "roman": al_cards.ROMAN[value], "css": css, "ink": ink(css),
                "name": "Joker" if colour is None else al_cards.COLOUR_NAMES[colour]}

    @staticmethod
    def patrician_info(pid: str) -> dict[str, Any]:
        colour, gender, value = al_cards.PATRICIAN_INFO[pid]
        css = next(c["css"] for c in al_cards.COLOURS if c["key"] == colour)
        return {"colour": colour, "gender": gender, "value": value, "roman": al_cards.ROMAN[value], "css": css,
                "ink": ink(css), "name": al_cards.COLOUR_NAMES[colour], "sign": "♂" if gender == "m" else "♀"}

    @staticmethod
    def senate_text(card: str, _) -> str:
        info = al_cards.SENATE_CARD[card]
        return _.pick(info)

    @staticmethod
    def roman(v: int) -> str:
        return al_cards.ROMAN[v]

    @staticmethod
    def dice_words(dice: list[int]) -> str:
        return "-".join(str(d) for d in dice)


    def seat_line(self, view, seat, _) -> str:
        g = view["game"]
        dice, chips = g["unplaced"][seat], g["chips"][seat]
        provinces, patricians = len(g["provinces"][seat]), len(g["patricians"][seat])
        return " · ".join((_.ngettext("{n} die to place", "{n} dice to place", dice).format(n=dice),
                           _.ngettext("{n} chip", "{n} chips", chips).format(n=chips),
                           _.ngettext("{n} province", "{n} provinces", provinces).format(n=provinces),
                           _.ngettext("{n} patrician", "{n} patricians", patricians).format(n=patricians)))

    def describe(self, action, view, _, names) -> Control:
        kind = action["type"]
        if kind == "reroll":
            dice = action["dice"]
            words = self.dice_words(dice)
            return Control(action, _("Spend a Repete chip to re-roll {words}").format(words=words),
                           _("Re-roll {words} (1 chip)").format(words=words), zone="roll",
                           pick="dice:" + ",".join(str(d) for d in dice), style="secondary")
        if kind == "place":
            dice = action["dice"]
            b = self.building(action["building"])
            words = self.dice_words(dice)
            return Control(action, _("Place {words} in the {b}").format(words=words, b=b),
                           _("Place {words} here").format(words=words), zone=f"b:{action['building']}",
                           pick="dice:" + ",".join(str(d) for d in dice), style="place")
        if kind == "end_turn":
            return Control(action, _("Pass the dice to the next player"),
                           _("Pass the dice"), zone="roll")
        if kind == "latrina":
            d = action["die"]
            return Control(action, _("No placement is possible: put a {d} in the Latrina").format(d=d),
                           _("{d} to the Latrina").format(d=d))
        if kind == "keep_fortuna":
            tiles = " + ".join(self.roman(t) for t in action["tiles"])
            return Control(action, _("Keep the Fortuna tiles {tiles}").format(tiles=tiles),
                           _("Keep {tiles}").format(tiles=tiles), zone="fortuna")
        if kind == "keep_senate":
            card = action["card"]
            return Control(action, _("Keep the Senate card {card}: {senate_text}").format(card=card, senate_text=self.senate_text(card, _)),
                           _("Keep {card}").format(card=card), zone="senate")
        if kind == "take_province":
            p = self.province(action["province"])
            return Control(action, _("Take the province {p}").format(p=p),
                           _("Take"), zone=f"province:{action['province']}")
        if kind == "take_patrician":
            p = self.patrician(action["patrician"])
            return Control(action, _("Take the patrician {p}").format(p=p),
                           _("Take"), zone=f"patrician:{action['patrician']}")
        return super().describe(action, view, _, names)


PRESENTER = AleaPresenter()
