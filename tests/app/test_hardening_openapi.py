"""The OpenAPI schema states the constraints the server enforces, derived from the same sources the server
uses (the registry's games and options, the service's name and timer limits, the credential alphabet)."""

from __future__ import annotations

import re

from app.config import Settings
from app.main import create_app
from app.services.bots import LEVELS
from app.services.tables import NAME_MAX
from app.services.timers import MAX_TURN_SECONDS


def schema() -> tuple[dict, dict]:
    app = create_app(Settings(database_url="sqlite://", benchmark=True))
    return app.openapi(), app.state.games


def integer(field: dict) -> dict:
    """The integer branch of an optional integer field."""
    return next(t for t in field["anyOf"] if t.get("type") == "integer")


def test_create_table_states_games_players_options_bots_and_timers():
    spec, served = schema()
    create = spec["components"]["schemas"]["CreateTable"]
    fields = create["properties"]
    assert fields["game"]["enum"] == list(served)
    assert fields["players"]["minimum"] == min(g.min_players for g in served.values())
    assert fields["players"]["maximum"] == max(g.max_players for g in served.values())
    by_title = {o["title"]: o for o in fields["options"]["anyOf"]}
    for slug, game in served.items():
        options = by_title[f"{slug} options"]
        assert options["additionalProperties"] is False
        assert {name: o["enum"] for name, o in options["properties"].items()} == \
            {o.name: list(o.choices) for o in game.options}
    assert fields["bots"]["anyOf"][0]["additionalProperties"]["enum"] == list(LEVELS)
    minutes = integer(fields["turn_minutes"])
    assert (minutes["minimum"], minutes["maximum"] * 60) == (1, MAX_TURN_SECONDS)
    for timer in ("turn_seconds", "turn_timer"):
        assert (integer(fields[timer])["minimum"], integer(fields[timer])["maximum"]) == (1, MAX_TURN_SECONDS)
    assert create["not"]["anyOf"]  # one timer at most


def test_names_credentials_and_actions_are_constrained():
    spec, _ = schema()
    join = spec["components"]["schemas"]["JoinTable"]["properties"]
    assert join["name"]["maxLength"] == NAME_MAX and join["name"]["minLength"] == 1
    assert re.search(join["name"]["pattern"], "Livia") and not re.search(join["name"]["pattern"], "  ")
    assert not re.search(join["name"]["pattern"], "Li\x00via")
    assert re.search(join["invite"]["pattern"], "abcDEF012_-") and not re.search(join["invite"]["pattern"], "…")
    action = spec["components"]["schemas"]["SubmitAction"]["properties"]
    assert action["action"]["required"] == ["type"] and action["version"]["minimum"] == 0


def test_every_status_the_edge_can_answer_is_documented():
    spec, _ = schema()
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            statuses = set(operation["responses"])
            if method == "post":
                assert {"400", "403", "413"} <= statuses, (method, path)
            if operation["operationId"] in ("create_table", "submit_action"):
                assert "429" in statuses and "Retry-After" in operation["responses"]["429"]["headers"]
    links = spec["paths"]["/api/tables"]["post"]["responses"]["201"]["links"]
    assert {"join_table", "get_view"} <= set(links)


def test_proposing_a_bot_for_an_absent_seat_documents_its_refusals():
    spec, _ = schema()
    operation = spec["paths"]["/api/tables/{table_id}/seats/{seat}/bot"]["post"]
    assert operation["operationId"] == "propose_bot"
    assert {"200", "403", "404", "409"} <= set(operation["responses"])
    assert "seat" in operation["responses"]["404"]["description"]
