"""French and English for the site.

Every string a page shows is written in both languages where it is used: templates and presenters call
`tr(en, fr)` (bound to the reader's language), so a string cannot exist in one language only. This module
chooses the reader's language and translates the sentences that come from the service layer and the
engines, which are written in English.

The language: the `tabula_lang` cookie (set by the switch in the header), else the browser's
Accept-Language (French for a French browser), else English.
"""

from __future__ import annotations

import re
from typing import Callable, Mapping

LANGS = ("en", "fr")
DEFAULT_LANG = "en"
LANG_COOKIE = "tabula_lang"
LANG_NAMES = {"en": "English", "fr": "Français"}

Translate = Callable[[str, str], str]


def normalise(lang: str | None) -> str | None:
    if not lang:
        return None
    lang = lang.strip().lower()[:2]
    return lang if lang in LANGS else None


def from_accept_language(header: str | None) -> str | None:
    """The first of our languages in an Accept-Language header, by preference (q) then order."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        piece = part.strip()
        if not piece:
            continue
        tag, _, params = piece.partition(";")
        q = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                q = float(match.group(1))
            except ValueError:
                q = 0.0
        lang = normalise(tag)
        if lang and q > 0:
            ranked.append((-q, index, lang))
    return min(ranked)[2] if ranked else None


def pick_lang(cookies: Mapping[str, str], headers: Mapping[str, str], query: str | None = None) -> str:
    """The reader's language: an explicit ?lang=, the cookie, Accept-Language, else English."""
    return (normalise(query) or normalise(cookies.get(LANG_COOKIE))
            or from_accept_language(headers.get("accept-language")) or DEFAULT_LANG)


def translator(lang: str) -> Translate:
    """tr(en, fr) -> the string of the reader's language."""
    if lang == "fr":
        return lambda en, fr: fr
    return lambda en, fr: en


# Sentences of the service layer and the engines' generic guards (English), in French.
SERVICE_FR: dict[str, str] = {
    "There is no such table.": "Cette table n'existe pas.",
    "This table's game is not offered on this server.": "Le jeu de cette table n'est pas proposé sur ce serveur.",
    "This needs a seat token or the spectator key.": "Il faut un lien de place ou le lien spectateur.",
    "That seat token or spectator key is not valid for this table.":
        "Ce lien de place ou ce lien spectateur n'est pas valable pour cette table.",
    "That seat token is not valid for this table.": "Ce lien de place n'est pas valable pour cette table.",
    "Joining needs the table's invite key.": "Pour s'asseoir, il faut le lien d'invitation de la table.",
    "That invite key is not valid for this table.": "Ce lien d'invitation n'est pas valable pour cette table.",
    "This table has already started.": "La partie a déjà commencé à cette table.",
    "Every seat at this table is taken.": "Toutes les places de cette table sont prises.",
    "That seat is taken.": "Cette place est prise.",
    "There is no such seat at this table.": "Cette place n'existe pas à cette table.",
    "A display name is needed.": "Il faut un nom.",
    "A display name has at most 40 characters.": "Un nom a au plus 40 caractères.",
    "A display name cannot contain control characters.": "Un nom ne peut pas contenir de caractères de contrôle.",
    "Leaving needs your seat token.": "Pour quitter une place, il faut son lien.",
    "The game has started: seats can only be left before the start.":
        "La partie a commencé : on ne quitte une place qu'avant le début.",
    "Acting needs your seat token.": "Pour jouer, il faut votre lien de place.",
    "The game has not started yet.": "La partie n'a pas encore commencé.",
    "The game is over.": "La partie est terminée.",
    "Proposing a bot needs your seat token.": "Proposer un bot demande votre lien de place.",
    "Proposing a bot needs your seat token (a spectator has no seat).":
        "Proposer un bot demande votre lien de place (un spectateur n'a pas de place).",
    "There is no such seat.": "Cette place n'existe pas.",
    "You cannot propose a bot for your own seat: leave the game instead.":
        "Vous ne pouvez pas proposer un bot pour votre propre place : quittez plutôt la partie.",
    "The game is not being played.": "La partie n'est pas en cours.",
    "A bot plays that seat already.": "Un bot joue déjà cette place.",
    "The game is not waiting for that player.": "La partie n'attend pas ce joueur.",
    "That player is connected.": "Ce joueur est connecté.",
    "That player has not been disconnected long enough yet.": "Ce joueur n'est pas déconnecté depuis assez longtemps.",
    "The table has moved on since that version; here is the current view.":
        "La table a changé entre-temps : voici où elle en est. Rejouez si c'est toujours possible.",
    "It is not your turn to act.": "Ce n'est pas à vous de jouer.",
    "That move is not allowed now.": "Ce coup n'est pas permis maintenant.",
    "The game engine failed on this action; nothing was changed.":
        "Le moteur de jeu a échoué sur cette action ; rien n'a changé.",
    "An action must be an object with a \"type\".": "Une action doit être un objet avec un « type ».",
    "\"action\" must be an object with a \"type\".": "« action » doit être un objet avec un « type ».",
    "\"version\" must be the table version you saw (a whole number).":
        "« version » doit être la version de la table que vous avez vue (un nombre entier).",
    "That action is too large.": "Cette action est trop grande.",
    "Spectators cannot act.": "Les spectateurs ne jouent pas.",
    "Internal error.": "Erreur interne.",
    "Only a finished game can be played again.": "Seule une partie terminée peut être rejouée.",
    "Only the players of a table can start its rematch.": "Seuls les joueurs d'une table peuvent lancer sa revanche.",
    "Your seat at the rematch is taken already: open the rematch from where you accepted it.":
        "Votre place à la revanche est déjà prise : ouvrez la revanche là où vous l'avez acceptée.",
    "Only a finished game has a record to download.": "Seule une partie terminée peut être téléchargée.",
    "Until the game is over, a replay shows only what you could see.":
        "Tant que la partie dure, on ne revoit que ce qu'on pouvait voir.",
    "There is no such step in this replay.": "Cette étape n'existe pas dans cette partie.",
    "Nobody has started a rematch of this table.": "Personne n'a lancé de revanche à cette table.",
    "This table does not allow spectators.": "Cette table n'accepte pas de spectateurs.",
    "A chat message is a text.": "Un message du chat est un texte.",
    "A chat message cannot be empty.": "Un message du chat ne peut pas être vide.",
    "A chat message cannot contain control characters.":
        "Un message du chat ne peut pas contenir de caractères de contrôle.",
    "A chat message cannot contain markup (HTML tags).":
        "Un message du chat ne peut pas contenir de balises (HTML).",
    "An admin muted this chat for you.": "Un administrateur a coupé ce chat pour vous.",
    "There is no such chat message at this table.": "Ce message n'existe pas à cette table.",
    "There is no such table or seat.": "Cette table ou cette place n'existe pas.",
}

_PLAYED_BY = re.compile(r"^(.+) is played by (\d+) to (\d+) players\.$")
_DELAY_RANGE = re.compile(r"^A spectator delay is between 0 and (\d+) actions\.$")
_CHAT_LENGTH = re.compile(r"^A chat message has at most (\d+) characters\.$")


def service_message(message: str, lang: str) -> str:
    """A service or engine sentence in the reader's language (English when no translation is known)."""
    if lang != "fr":
        return message
    if message in SERVICE_FR:
        return SERVICE_FR[message]
    match = _PLAYED_BY.match(message)
    if match:
        return f"{match.group(1)} se joue de {match.group(2)} à {match.group(3)} joueurs."
    match = _DELAY_RANGE.match(message)
    if match:
        return f"Le retard des spectateurs est de 0 à {match.group(1)} actions."
    match = _CHAT_LENGTH.match(message)
    if match:
        return f"Un message du chat a au plus {match.group(1)} caractères."
    return message
