"""The replay viewer's data (GET /api/tables/{id}/replay, the page /t/{id}/replay) and the record download.

Properties, over random games of every game, every seat and the spectator:
- during play, the resample test: each step's answer is what the same step built from a state with the
  reader's unknowns drawn anew gives (so it carries nothing the reader could not see then), asking through
  another seat's eyes is refused, and the seed and raw actions of others never appear;
- after the end: replay = snapshot (the last step is the final view) and every step shows every seat's view
  and what no seat sees (`Game.reveal`), and the downloaded record passes the replay check;
- bad input (no such step, no such table, no credential, a step of a table still waiting) is a 4xx.
"""

from __future__ import annotations

import io
import json

import httpx
import pytest

from app.cli import main as cli_main
from app.cli import replay_check_records
from app.i18n import page_words
from app.models import FINISHED
from app.pages.render import ENV
from app.routes.pages import replay_context
from app.services.replays import LEVEL_WORDS, replay_view, step_body
from games import REGISTRY
from games.core.bots import LEVELS

from sqlalchemy import text

from .client import bearer, create, create_full, play_random

pytestmark = pytest.mark.asyncio

GAMES = [("cesar_cleopatre", 2), ("ave_cesar", 3), ("alea_iacta_est", 4)]
DURING_PLAY = 40  # actions played before the replay is looked at during play
SAMPLED = (0, 1, 5, 17, 40)  # steps checked during play


async def play(live, http, table, game, actions: int | None, policy: int) -> list[dict]:
    """Plays random legal actions through the API (to the end when `actions` is None); returns the states of the
    steps, replayed here from the stored log."""
    await play_random(live, http, table, game, actions, policy)
    stored = live.row(table.id)
    state = game.setup(len(table.tokens), stored["table"]["seed"], {})
    steps = [{"version": len(table.tokens), "state": state, "changes": []}]
    for version, seat, action in stored["actions"]:
        state = game.apply_marked(state, seat, json.loads(action))
        steps.append({"version": version, "state": state, "changes": []})
    return steps


def replay_page_html(body: dict, game, url: httpx.URL) -> str:
    """The replay page drawn from a step's answer, as the route draws it (in English)."""
    key = url.params.get("key", "")
    context = replay_context(json.loads(json.dumps(body)), game, "en", key)
    return ENV.get_template("replay.html").render(
        {"request": None, "lang": "en", **page_words("en"), "path": f"{url.path}?{url.query.decode()}", **context})


def credentials(table) -> dict[int | None, str]:
    return {**dict(enumerate(table.tokens)), None: table.spectate}


def ended(live, table) -> bool:
    return live.row(table.id)["table"]["status"] == FINISHED


async def say(http, table, credential: str, words: str) -> dict:
    r = await http.post(f"/api/tables/{table.id}/chat", headers=bearer(credential), json={"text": words, "name": "Titus"})
    assert r.status_code in (200, 201), r.text
    return r.json()


def stored_chat(live, table, reader: int | None, version: int) -> dict:
    """The chat a reader's replay shows at a step of `version`, read from the stored rows: its own channel(s),
    written at or before that version, deleted messages left out."""
    channels = ("players",) if reader is not None else ("players", "spectators")
    with live.db.connect() as conn:
        rows = conn.execute(text("SELECT id, channel, seat, name, text, version FROM chat_messages WHERE table_id = :t"
                                 " AND NOT deleted AND version <= :v ORDER BY id"), {"t": table.id, "v": version}).all()
    return {"channel": "players" if reader is not None else "spectators",
            "messages": [dict(r._mapping) for r in rows if r.channel in channels]}


def without_times(body: dict) -> dict:
    return {**body, "chat": {**body["chat"], "messages": [{k: v for k, v in m.items() if k != "at"}
                                                          for m in body["chat"]["messages"]]}}


@pytest.mark.parametrize("slug,players", GAMES)
async def test_replay_during_play_shows_each_reader_only_what_it_could_see(live_pg, slug, players):
    game = REGISTRY[slug]
    # A random game of Ave César can end before the actions played here (2 % of them end within 41 actions,
    # the shortest seen in 16): then the replay is looked at "during play" of another table.
    for _attempt in range(5):
        async with httpx.AsyncClient(base_url=live_pg.base, timeout=30) as http:
            table = await create_full(http, slug, players)
            # Chat in both channels along the game; a deleted message is never shown again.
            await play(live_pg, http, table, game, 3, policy=players)
            await say(http, table, table.tokens[0], "players-early")
            await say(http, table, table.spectate, "spectators-only-early")
            deleted = await say(http, table, table.tokens[1], "players-deleted")
            with live_pg.db.begin() as conn:
                conn.execute(text("UPDATE chat_messages SET deleted = true WHERE id = :id"), {"id": deleted["id"]})
            await play(live_pg, http, table, game, 10, policy=players + 1)
            await say(http, table, table.spectate, "spectators-only-late")
            steps = await play(live_pg, http, table, game, DURING_PLAY - 13, policy=players + 2)
            if ended(live_pg, table):
                continue
            seed = live_pg.row(table.id)["table"]["seed"]
            for seat, credential in credentials(table).items():
                for index in (i for i in SAMPLED if i < len(steps)):
                    r = await http.get(f"/api/tables/{table.id}/replay", params={"step": index},
                                       headers=bearer(credential))
                    assert r.status_code == 200, r.text
                    body = r.json()
                    assert body["steps"] == len(steps) and body["everything"] is False and body["hidden"] is None
                    resampled = [dict(s) for s in steps]
                    for i in {index, max(index - 1, 0)}:
                        resampled[i]["state"] = game.resample(steps[i]["state"], seat, seed=index * 31 + 7)
                    expected = {**step_body(game, body["view"]["table"], resampled, index, seat, everything=False),
                                "chat": body["chat"]}
                    assert body == json.loads(json.dumps(expected)), f"seat {seat} tells its unknowns apart at step {index}"
                    assert without_times(body)["chat"] == stored_chat(live_pg, table, seat, steps[index]["version"])
                    assert "players-deleted" not in r.text
                    assert seat is None or "spectators-only" not in r.text, f"seat {seat} reads the spectators' chat"
                    assert str(seed) not in r.text
                    page = await http.get(f"/t/{table.id}/replay", params={"step": index, **(
                        {"key": credential} if seat is None else {})},
                        headers={} if seat is None else {"cookie": f"tabula_seat_{table.id}={credential}"})
                    assert page.status_code == 200, page.text
                    assert page.text == replay_page_html(expected, game, page.url), \
                        f"seat {seat}'s replay page tells its unknowns apart at step {index}"
                    assert str(seed) not in page.text and "players-deleted" not in page.text
                    assert seat is None or "spectators-only" not in page.text
                    assert not any(t in page.text for n, t in enumerate(table.tokens) if n != seat)
                if seat is not None:  # through another seat's eyes: refused while the game runs
                    r = await http.get(f"/api/tables/{table.id}/replay", headers=bearer(credential),
                                       params={"as": (seat + 1) % players})
                    assert r.status_code == 403, r.text
            # The game goes on: the steps kept for the earlier version are extended with the new ones.
            steps = await play(live_pg, http, table, game, 3, policy=players + 1)
            if ended(live_pg, table):
                continue
            r = await http.get(f"/api/tables/{table.id}/replay", headers=bearer(table.tokens[0]))
            assert r.json()["steps"] == len(steps)
            assert r.json()["view"]["game"] == replay_view(game, steps[-1]["state"], 0)
            r = await http.get(f"/api/tables/{table.id}/record", headers=bearer(table.tokens[0]))
            assert r.status_code == 409, r.text
            # The last step of a spectator's replay shows both chats (what was written up to it).
            r = await http.get(f"/api/tables/{table.id}/replay", headers=bearer(table.spectate))
            assert "players-early" in r.text and "spectators-only-late" in r.text

        return
    pytest.fail("every game ended before its replay could be looked at during play")

DELAY = 4


async def test_a_delayed_spectators_replay_stops_at_the_current_version_minus_the_delay(live_pg):
    game = REGISTRY["cesar_cleopatre"]
    async with httpx.AsyncClient(base_url=live_pg.base, timeout=30) as http:
        table = await create_full(http, "cesar_cleopatre", 2, spectator_delay=DELAY)
        for _ in range(3):
            steps = await play(live_pg, http, table, game, 3, policy=5)
            current = live_pg.row(table.id)["table"]["version"]
            shown = [s for s in steps if s["version"] <= current - DELAY] or steps[:1]
            r = await http.get(f"/api/tables/{table.id}/replay", headers=bearer(table.spectate))
            body = r.json()
            assert (body["steps"], body["version"]) == (len(shown), shown[-1]["version"]), (current, r.text)
            assert body["view"]["game"] == replay_view(game, shown[-1]["state"], None)
            too_far = await http.get(f"/api/tables/{table.id}/replay", headers=bearer(table.spectate),
                                     params={"step": len(shown)})
            assert too_far.status_code == 400, too_far.text
            page = await http.get(f"/t/{table.id}/replay", params={"key": table.spectate})
            assert f'data-steps="{len(shown)}" data-version="{shown[-1]["version"]}"' in page.text
            seat = (await http.get(f"/api/tables/{table.id}/replay", headers=bearer(table.tokens[0]))).json()
            assert seat["steps"] == len(steps)  # the players are not delayed
        steps = await play(live_pg, http, table, game, None, policy=6)  # after the end: every step
        body = (await http.get(f"/api/tables/{table.id}/replay", headers=bearer(table.spectate))).json()
        assert body["steps"] == len(steps) and body["everything"] is True


async def test_without_spectators_the_replay_and_record_refuse_the_spectator_key(live_pg):
    async with httpx.AsyncClient(base_url=live_pg.base, timeout=30) as http:
        table = await create_full(http, "cesar_cleopatre", 2, spectators_allowed=False)
        with live_pg.db.connect() as conn:
            key = conn.execute(text("SELECT spectator_key FROM tables WHERE id = :t"), {"t": table.id}).scalar()
        t = table.id
        for finished in (False, True):
            if finished:
                await play(live_pg, http, table, REGISTRY["cesar_cleopatre"], None, policy=3)
            for path in (f"/api/tables/{t}/replay", f"/api/tables/{t}/record"):
                assert (await http.get(path, headers=bearer(key))).status_code in (403, 404), path
                assert (await http.get(path, params={"spectate": key})).status_code in (403, 404), path
            for path in (f"/t/{t}/replay", f"/t/{t}/record"):
                assert (await http.get(path, params={"key": key})).status_code in (403, 404), path
        assert (await http.get(f"/api/tables/{t}/replay", headers=bearer(table.tokens[0]))).status_code == 200


@pytest.mark.parametrize("slug,players", GAMES)
async def test_finished_replay_shows_everything_and_its_record_replays(live_pg, slug, players, tmp_path):
    game = REGISTRY[slug]
    async with httpx.AsyncClient(base_url=live_pg.base, timeout=30) as http:
        table = await create_full(http, slug, players)
        steps = await play(live_pg, http, table, game, None, policy=players + 10)
        last = len(steps) - 1
        for reader, credential in credentials(table).items():
            r = await http.get(f"/api/tables/{table.id}/replay", headers=bearer(credential))
            body = r.json()
            assert body["step"] == last and body["everything"] is True
            # replay = snapshot: the last step is the final view of the seat looked through
            final = (await http.get(f"/api/tables/{table.id}/view", headers=bearer(table.tokens[body["as"]]))).json()
            assert body["view"]["game"] == final["view"]["game"]
        for index in range(len(steps)):  # every step after the end shows every seat's hidden information
            for seat in range(players):
                r = await http.get(f"/api/tables/{table.id}/replay", headers=bearer(table.spectate),
                                   params={"step": index, "as": seat})
                assert r.status_code == 200, r.text
                body = r.json()
                assert body["view"]["game"] == replay_view(game, steps[index]["state"], seat)
                assert body["hidden"] == game.reveal(steps[index]["state"])
                assert body["hidden"] and all(line["en"] and line["fr"] and all(i["en"] and i["fr"] for i in line["items"])
                                              for line in body["hidden"])
        r = await http.get(f"/api/tables/{table.id}/record", headers=bearer(table.tokens[1]))
        assert r.status_code == 200, r.text
        assert "attachment" in r.headers["content-disposition"]
        out = io.StringIO()
        assert replay_check_records(r.text, out) == 0, out.getvalue()
        (tmp_path / "record.json").write_text(r.text, encoding="utf-8")
        assert cli_main(["replay-check", "--record", str(tmp_path / "record.json")]) == 0
        tampered = {**r.json(), "seed": r.json()["seed"] + 1}
        assert replay_check_records(json.dumps(tampered), out) == 1
        for lang, words in (("en", ("Replay", "Hidden from every player", "See the game through the eyes of")),
                            ("fr", ("Revoir la partie", "Caché à tous les joueurs", "Voir la partie avec les yeux"))):
            page = await http.get(f"/t/{table.id}/replay", params={"key": table.spectate, "lang": lang, "step": 1})
            assert page.status_code == 200 and all(w in page.text for w in words), lang
        page = await http.get(f"/t/{table.id}/record", params={"key": table.spectate})
        assert page.status_code == 200 and page.json() == r.json()


async def test_replay_refuses_bad_input(live_pg):
    async with httpx.AsyncClient(base_url=live_pg.base, timeout=30) as http:
        table = await create_full(http, "cesar_cleopatre", 2)
        token = table.tokens[0]
        url = f"/api/tables/{table.id}/replay"
        assert (await http.get(url, params={"step": 1}, headers=bearer(token))).status_code == 400
        assert (await http.get(url, params={"step": -1}, headers=bearer(token))).status_code == 400
        assert (await http.get(url, params={"step": "x"}, headers=bearer(token))).status_code == 400
        assert (await http.get(url, params={"as": 7}, headers=bearer(token))).status_code == 400
        assert (await http.get(url)).status_code == 403
        assert (await http.get(url, headers=bearer("not-a-token"))).status_code == 403
        assert (await http.get("/api/tables/nosuchtable/replay", headers=bearer(token))).status_code == 404
        page = f"/t/{table.id}/replay"
        assert (await http.get(page)).status_code == 403
        assert (await http.get(page, params={"step": "99", "key": table.spectate})).status_code == 400
        assert (await http.get(page, params={"step": "abc", "key": table.spectate})).status_code == 400
        assert (await http.get("/t/nosuchtable/replay", params={"key": table.spectate})).status_code == 404
        waiting = await create(http, "cesar_cleopatre", 2)
        r = await http.get(f"/api/tables/{waiting.id}/replay", params={"spectate": waiting.spectate})
        assert r.status_code == 409, r.text
        assert (await http.get(f"/api/tables/{table.id}/record")).status_code == 403


async def test_every_bot_level_has_its_words_in_the_replay():
    assert set(LEVEL_WORDS) == set(LEVELS)
