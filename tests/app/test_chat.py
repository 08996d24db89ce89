"""The chat of a table: the players' chat reaches the players and the spectators live, the spectators' chat
never reaches a player; a message is stored, escaped on the page, at most 500 characters, rate-limited per
sender; a refused message changes nothing; the admin deletes and mutes, audited."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import text

from .client import Socket, bearer, create_full
from .conftest import ServerProcess
from .hardening import edge_server, full_table

TOKEN = "a-long-admin-token-for-the-chat-tests"


def chat_rows(server, table_id: str) -> list[tuple]:
    with server.db.connect() as conn:
        return [tuple(r) for r in conn.execute(text(
            "SELECT id, channel, seat, name, text, version, deleted FROM chat_messages WHERE table_id = :t"
            " ORDER BY id"), {"t": table_id})]


def seat_cookie(table, n: int) -> dict[str, str]:
    return {"Cookie": f"tabula_seat_{table.id}={table.tokens[n]}"}


def texts(chat: dict) -> list[str]:
    return [m["text"] for m in chat["messages"]]


@pytest.mark.asyncio
async def test_players_chat_reaches_everyone_live_and_the_spectators_chat_never_reaches_a_player(live):
    async with httpx.AsyncClient(base_url=live.base, timeout=30) as http:
        table = await create_full(http, "bench_cards", 2)
        players = [await Socket.open(live.ws_base, table.id, f"?token={t}", f"P{n}")
                   for n, t in enumerate(table.tokens)]
        watcher = await Socket.open(live.ws_base, table.id, f"?spectate={table.spectate}", "spectator")
        for sock in (*players, watcher):
            await sock.until(lambda m: m["type"] == "full")

        r = await http.post(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[0]),
                            json={"text": "Ave & <3"})
        assert r.status_code == 201, r.text
        assert r.json()["channel"] == "players" and r.json()["name"] == "P0"
        for sock in (players[1], watcher):
            chat = await sock.until(lambda m: m["type"] == "chat")
            assert texts(chat) == ["Ave & <3"]

        r = await http.post(f"/api/tables/{table.id}/chat", params={"spectate": table.spectate},
                            json={"text": "P1 holds the best cards", "name": "Titus"})
        assert r.status_code == 201, r.text
        assert r.json()["channel"] == "spectators" and r.json()["seat"] is None
        chat = await watcher.until(lambda m: m["type"] == "chat" and len(m["messages"]) == 2)
        assert [(m["channel"], m["name"]) for m in chat["messages"]] == [("players", "P0"), ("spectators", "Titus")]

        r = await http.post(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[1]), json={"text": "Vale"})
        assert r.status_code == 201
        for sock in players:
            chat = await sock.until(lambda m: m["type"] == "chat" and "Vale" in texts(m))
            assert texts(chat) == ["Ave & <3", "Vale"]
        await watcher.until(lambda m: m["type"] == "chat" and "Vale" in texts(m))

        # Reading: a player reads the players' chat, a spectator both.
        mine = (await http.get(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[0]))).json()
        assert texts(mine) == ["Ave & <3", "Vale"] and mine["channel"] == "players"
        theirs = (await http.get(f"/api/tables/{table.id}/chat", params={"spectate": table.spectate})).json()
        assert texts(theirs) == ["Ave & <3", "P1 holds the best cards", "Vale"]
        for sock in (*players, watcher):
            await sock.close()

        # Nothing of the spectators' chat ever reached a player: socket, API or page.
        page = (await http.get(f"/t/{table.id}", headers=seat_cookie(table, 0))).text
        assert "Ave &amp; &lt;3" in page and "Vale" in page
        for sock in players:
            assert not any("Titus" in raw or "best cards" in raw for raw in sock.raw), sock.label
        assert "Titus" not in page and "best cards" not in page and "Titus" not in str(mine)
        spectator_page = (await http.get(f"/t/{table.id}/watch", params={"key": table.spectate})).text
        assert "Titus" in spectator_page and "best cards" in spectator_page


BAD_BODIES = [
    {"text": ""},
    {"text": "   "},
    {"text": "x" * 501},
    {"text": "<b>bold</b>"},
    {"text": "look <script>alert(1)</script>"},
    {"text": "a\x00b"},
    {"text": 5},
    {},
    {"text": "hi", "extra": 1},
    {"text": ["hi"]},
]


def test_malformed_oversized_or_markup_chat_is_refused_and_changes_nothing(tmp_path):
    with edge_server(tmp_path, benchmark=True, rate_limits=False) as server, \
            httpx.Client(base_url=server.base, timeout=30) as http:
        table = full_table(http, "bench_cards")
        ok = http.post(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[0]), json={"text": "x" * 500})
        assert ok.status_code == 201, ok.text
        before, rows = server.row(table.id), chat_rows(server, table.id)
        for body in BAD_BODIES:
            r = http.post(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[1]), json=body)
            assert r.status_code in (400, 422), (body, r.status_code, r.text)
            assert r.json().get("error"), r.text
        refused = [
            http.post(f"/api/tables/{table.id}/chat", content=b"{not json", headers={
                **bearer(table.tokens[1]), "content-type": "application/json"}),
            http.post(f"/api/tables/{table.id}/chat", json={"text": "no name"}, params={"spectate": table.spectate}),
            http.post(f"/api/tables/{table.id}/chat", json={"text": "who am I"}),
            http.post(f"/api/tables/{table.id}/chat", json={"text": "hi"}, headers=bearer("not-a-seat-token")),
            http.post(f"/t/{table.id}/chat", data={"text": "<i>x</i>"}, headers=seat_cookie(table, 0)),
        ]
        assert [r.status_code for r in refused] == [400, 400, 403, 403, 400], [r.text for r in refused]
        assert "markup" in refused[-1].text
        assert server.row(table.id) == before and chat_rows(server, table.id) == rows


def test_a_sender_beyond_five_messages_in_ten_seconds_is_refused_clearly(tmp_path):
    # The chat's own limit holds even where the server's rate limits are off.
    with edge_server(tmp_path, benchmark=True, rate_limits=False) as server, \
            httpx.Client(base_url=server.base, timeout=30) as http:
        table = full_table(http, "bench_cards")
        for n in range(5):
            assert http.post(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[0]),
                             json={"text": f"m{n}"}).status_code == 201
        rows = chat_rows(server, table.id)
        r = http.post(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[0]), json={"text": "one more"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1 and "chat" in r.json()["error"]
        r = http.post(f"/t/{table.id}/chat", data={"text": "again"},
                      headers={**seat_cookie(table, 0), "HX-Request": "true"})
        assert r.status_code == 200 and "Too many chat messages" in r.text and 'value="again"' in r.text
        assert chat_rows(server, table.id) == rows
        # Another sender is not held back by the first one's rate.
        assert http.post(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[1]),
                         json={"text": "mine"}).status_code == 201


def test_the_chat_form_works_without_javascript_and_with_htmx(tmp_path):
    with edge_server(tmp_path, benchmark=True, rate_limits=False) as server, \
            httpx.Client(base_url=server.base, timeout=30) as http:
        table = full_table(http, "bench_cards")
        cookie = seat_cookie(table, 0)
        r = http.post(f"/t/{table.id}/chat", data={"text": "Salve"}, headers=cookie)
        assert r.status_code == 303 and r.headers["location"] == f"/t/{table.id}"
        r = http.post(f"/t/{table.id}/chat", data={"text": "Iterum"}, headers={**cookie, "HX-Request": "true"})
        assert r.status_code == 200 and 'id="tb-chat-form"' in r.text and "Iterum" not in r.text
        r = http.post(f"/t/{table.id}/chat", data={"key": table.spectate, "name": "Titus", "text": "Spectans"})
        assert r.status_code == 303 and r.headers["location"] == f"/t/{table.id}/watch?key={table.spectate}"
        page = http.get(f"/t/{table.id}/watch", params={"key": table.spectate}, headers={"Accept-Language": "fr"}).text
        assert "Salve" in page and "Iterum" in page and "Spectans" in page and "(spectateur)" in page
        assert [(c, s, n, t) for _, c, s, n, t, _, _ in chat_rows(server, table.id)] == [
            ("players", 0, "P0", "Salve"), ("players", 0, "P0", "Iterum"), ("spectators", None, "Titus", "Spectans")]


def test_the_admin_deletes_a_message_and_mutes_a_seat_and_the_spectators_audited(tmp_path):
    with edge_server(tmp_path, admin_token=TOKEN, benchmark=True, rate_limits=False) as server, \
            httpx.Client(base_url=server.base, timeout=30) as http:
        table = full_table(http, "bench_cards")
        first = http.post(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[0]), json={"text": "rude"})
        http.post(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[1]), json={"text": "kind"})
        assert http.post(f"/admin/tables/{table.id}/chat/{first.json()['id']}/delete").status_code == 401
        assert http.post("/admin", data={"token": TOKEN}).status_code == 303
        assert "rude" in http.get(f"/admin/tables/{table.id}/chat").text
        r = http.post(f"/admin/tables/{table.id}/chat/{first.json()['id']}/delete")
        assert r.status_code == 303
        chat = http.get(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[1])).json()
        assert texts(chat) == ["kind"]
        assert http.post(f"/admin/tables/{table.id}/chat/999999/delete").status_code == 404
        assert http.post(f"/admin/tables/{table.id}/chat/mute", data={"seat": "0", "muted": "yes"}).status_code == 303
        assert http.post(f"/admin/tables/{table.id}/chat/mute",
                         data={"seat": "spectators", "muted": "yes"}).status_code == 303
        assert http.post(f"/admin/tables/{table.id}/chat/mute", data={"seat": "x"}).status_code == 400
        rows = chat_rows(server, table.id)
        r = http.post(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[0]), json={"text": "still rude"})
        assert r.status_code == 403 and "muted" in r.json()["error"]
        r = http.post(f"/api/tables/{table.id}/chat", params={"spectate": table.spectate},
                      json={"text": "hello", "name": "Titus"})
        assert r.status_code == 403
        assert chat_rows(server, table.id) == rows
        assert http.get(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[0])).json()["muted"] is True
        assert http.post(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[1]),
                         json={"text": "I may"}).status_code == 201
        with server.db.connect() as conn:
            audit = [tuple(r) for r in conn.execute(text(
                "SELECT action, table_id, detail FROM audit_log ORDER BY id"))]
        assert audit == [("chat-delete", table.id, f"chat message {first.json()['id']} deleted"),
                         ("chat-mute", table.id, "seat 0 muted"),
                         ("chat-mute", table.id, "the spectators' chat muted")]


def test_every_chat_refusal_reads_in_french_on_the_page(tmp_path):
    with edge_server(tmp_path, benchmark=True, rate_limits=False) as server, \
            httpx.Client(base_url=server.base, timeout=30) as http:
        table = full_table(http, "bench_cards")
        french = {**seat_cookie(table, 0), "HX-Request": "true", "Accept-Language": "fr"}
        for bad, words in (("", "vide"), ("x" * 501, "500 caractères"), ("<b>x</b>", "balises"),
                           ("a\x00b", "caractères de contrôle")):
            r = http.post(f"/t/{table.id}/chat", data={"text": bad}, headers=french)
            assert r.status_code == 200 and words in r.text and "chat-error" in r.text, (bad, r.text)
        r = http.post(f"/t/{table.id}/chat", data={"key": table.spectate, "text": "hi"},
                      headers={"HX-Request": "true", "Accept-Language": "fr"})
        assert "Il faut un nom" in r.text
        assert chat_rows(server, table.id) == []


@pytest.mark.asyncio
async def test_a_message_written_on_one_process_reaches_the_sockets_of_another(postgres_server, processes, tmp_path):
    url = postgres_server.create_database("chat_two")
    a, b = ServerProcess(url, tmp_path).start(), ServerProcess(url, tmp_path).start()
    processes += [a, b]
    a.wait_ready()
    b.wait_ready()
    async with httpx.AsyncClient(base_url=a.base, timeout=20) as on_a:
        table = await create_full(on_a)
        player = await Socket.open(b.base.replace("http", "ws"), table.id, f"?token={table.tokens[1]}", "P1@B")
        watcher = await Socket.open(b.base.replace("http", "ws"), table.id, f"?spectate={table.spectate}", "spec@B")
        for sock in (player, watcher):
            await sock.until(lambda m: m["type"] == "full")
        r = await on_a.post(f"/api/tables/{table.id}/chat", headers=bearer(table.tokens[0]), json={"text": "Ave"})
        assert r.status_code == 201
        for sock in (player, watcher):
            assert texts(await sock.until(lambda m: m["type"] == "chat")) == ["Ave"]
        for sock in (player, watcher):
            await sock.close()
