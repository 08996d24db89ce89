"""A seat's legal actions as controls: each one a form that works without JavaScript, placed in a zone of
the board, perhaps waiting for something to be picked first (a card of the hand, dice...)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..services.tables import compact


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
    confirm: str = ""  # why this action cannot be taken back (the engine's reason, in words): asked first

    @property
    def json(self) -> str:
        return compact(self.action)


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
        self._picks: set[str] | None = None

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __eq__(self, other: object) -> bool:  # the same controls draw the same regions (render.py shares them)
        return isinstance(other, Controls) and self.items == other.items

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

    def confirming(self, gview: dict[str, Any], text: Callable[[str], str]) -> "Controls":
        """Marks the controls whose action the game's view says is final (`confirm`, parallel to
        `legal_actions`, None or a reason code) with the reason in words, `text(code)`. A view without the
        key has nothing to confirm."""
        marks = gview.get("confirm") or []
        for control, code in zip(self.items, marks):
            if code:
                control.confirm = text(code)
        return self

    def has(self, name: str) -> bool:
        return any(c.zone == name for c in self.items)

    def picks(self) -> set[str]:
        """(Made once: a page asks it for every card and die it shows.)"""
        if self._picks is None:
            self._picks = {c.pick for c in self.items if c.pick}
        return self._picks

    def pickable(self, key: str) -> bool:
        """Single pick: is there a control waiting for exactly this key?"""
        return key in self.picks()

    def answer(self, question: str) -> Any:
        """What the templates' questions of one kind read (`render.ControlsRead`): "any" (how many controls),
        "picks" (what can be picked), "zone:NAME" (the controls of that zone). Equal answers draw the same HTML."""
        if question == "any":
            return len(self.items)
        if question == "picks":
            return self.picks()
        return [c for c in self.items if c.zone == question[5:]]

    def pickable_in(self, group: str, value: Any) -> bool:
        """Multi pick ("dice:1,3,3"): does any control's key contain this value?"""
        value = str(value)
        for pick in self.picks():
            name, _, values = pick.partition(":")
            if name == group and value in values.split(","):
                return True
        return False
