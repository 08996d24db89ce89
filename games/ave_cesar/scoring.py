"""Ave César's outcome (RULES 2.9): the most senators wins, the richest breaks a tie."""

from __future__ import annotations

from typing import Any

from games.core import State, fill, score_line

from .rules import living


def score(state: State) -> dict[str, Any]:
    n = state["players"]
    senators = list(state["senators"])
    money = state["money"]
    alive = living(state)
    tiebreak = None
    if state["end"] == "last_standing" or len(alive) <= 1:
        if alive:
            winners = alive
            tiebreak = {"en": "Every other player left the game: the last one in wins.",
                        "fr": "Tous les autres joueurs sont sortis du jeu : le dernier en lice gagne.",
                        "it": "Tutti gli altri giocatori sono usciti dal gioco: vince l'ultimo rimasto."}
        else:
            last = max(s for s in state["out_at"] if s is not None)
            winners = [s for s in range(n) if state["out_at"][s] == last]
            tiebreak = {"en": "The last players left the game together: they share the victory.",
                        "fr": "Les derniers joueurs sont sortis ensemble : ils partagent la victoire.",
                        "it": "Gli ultimi giocatori sono usciti insieme: si dividono la vittoria."}
    else:
        most = max(senators[s] for s in alive)
        tied = [s for s in alive if senators[s] == most]
        if len(tied) == 1:
            winners = tied
        else:
            richest = max(money[s] for s in tied)
            winners = [s for s in tied if money[s] == richest]
            if len(winners) == 1:
                tiebreak = {"en": "Tied on senators: the richest of them wins.",
                            "fr": "Égalité de sénateurs : le plus riche l'emporte.",
                            "it": "Parità di senatori: vince il più ricco."}
            else:
                tiebreak = {"en": "Tied on senators and on money: the victory is shared.",
                            "fr": "Égalité de sénateurs et d'argent : la victoire est partagée.",
                            "it": "Parità di senatori e di denaro: la vittoria è condivisa."}
    breakdown = []
    for s in range(n):
        if state["out"][s]:
            breakdown.append([score_line({"en": "Out of the game (no senator left)", "fr": "Sorti du jeu (plus de sénateur)",
                                           "it": "Fuori dal gioco (nessun senatore rimasto)"}, 0)])
            continue
        breakdown.append([
            score_line({"en": "Senators", "fr": "Sénateurs", "it": "Senatori"}, senators[s]),
            score_line(fill({"en": "Money: {money} (tiebreak only)", "fr": "Argent : {money} (départage seulement)",
                             "it": "Denaro: {money} (solo per lo spareggio)"}, money=money[s]), 0),
        ])
    return {"scores": senators, "winners": winners, "breakdown": breakdown, "tiebreak": tiebreak}


def points(view: dict[str, Any]) -> list[int]:
    """The running score a view shows: the senators, which are the score (RULES 2.9)."""
    return [row["senators"] for row in view["table"]]
