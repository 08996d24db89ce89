"""A server whose Ave César view marks the sale of a seat's last senator as final, as the engines' views do
once they mark their final moves themselves (`confirm`: parallel to `legal_actions`, None or a reason code,
put in words by `confirmation_text`). Where the engine marks it already, the engine's own marks and words are
used: the confirm step's tests hold before and after.

    python -m tests.site.final_moves serve --port N      (the same command line as `python -m app`)
"""

from __future__ import annotations

from typing import Any

from games import REGISTRY

LAST_SENATOR = "ave_cesar.last_senator"
WORDS = {"en": "Selling your last senator puts you out of the game.",
         "fr": "Vendre votre dernier sénateur vous fait sortir de la partie."}


def mark_last_senator() -> None:
    game_class = type(REGISTRY["ave_cesar"])
    engine_view = game_class.view

    def view(self, state: Any, seat: int | None, view_memo: dict | None = None) -> dict[str, Any]:
        out = engine_view(self, state, seat, view_memo)
        if seat is None or "confirm" in out:
            return out
        last = out["table"][seat]["senators"] == 1
        return {**out, "confirm": [LAST_SENATOR if last and a["type"] == "sell_senator" else None
                                   for a in out["legal_actions"]]}

    game_class.view = view
    if not hasattr(game_class, "confirmation_text"):
        game_class.confirmation_text = lambda self, code, args, lang, names=None: WORDS[lang]


if __name__ == "__main__":
    from app.cli import main

    mark_last_senator()
    raise SystemExit(main())
