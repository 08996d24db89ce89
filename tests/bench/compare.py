"""One table for both servers, and the ratios Tabula / boardgame.io, from the driver result files of a
side-by-side run (tests/bench/side_by_side.sh). Groups with several runs show medians.

    .venv/bin/python tests/bench/compare.py RESULTS_DIR [--markdown]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any, Callable

PEER = "boardgame.io"


def load(directory: Path) -> list[dict[str, Any]]:
    rows = []
    for path in sorted(directory.rglob("*.json")):
        if path.name.endswith(".timings.json"):
            continue
        try:
            r = json.loads(path.read_text())
        except ValueError:
            continue
        if isinstance(r, dict) and "label" in r and "moves_per_s" in r:
            rows.append(r)
    return rows


def median(values: list[Any]) -> float | None:
    v = [x for x in values if isinstance(x, (int, float))]
    return statistics.median(v) if v else None


def get(path: str) -> Callable[[dict[str, Any]], Any]:
    def f(r: dict[str, Any]) -> Any:
        node: Any = r
        for part in path.split("."):
            if not isinstance(node, dict):
                return None
            node = node.get(part)
        return node
    return f


def cpu_per_move(r: dict[str, Any]) -> float | None:
    """Server CPU (plus, for Postgres, the database's) in ms per move."""
    srv = get("server.cpu_s_play")(r)
    if srv is None or not r.get("moves_total"):
        return None
    db = get("database.cpu_s_play")(r) or 0.0
    return 1000 * (srv + db) / r["moves_total"]


COLUMNS: list[tuple[str, Callable[[dict[str, Any]], Any], int]] = [
    ("moves/s", get("moves_per_s"), 0),
    ("opp p50 ms", get("latency_ms.opponent.p50"), 1),
    ("opp p95 ms", get("latency_ms.opponent.p95"), 1),
    ("opp p99 ms", get("latency_ms.opponent.p99"), 1),
    ("B/update", get("update_bytes.player.mean"), 0),
    ("B/update text", lambda r: get("update_bytes.player_text.mean")(r) or get("update_bytes.player.mean")(r), 0),
    ("srv CPU s", get("server.cpu_s_play"), 2),
    ("db CPU s", get("database.cpu_s_play"), 2),
    ("CPU ms/move", cpu_per_move, 3),
    ("srv util", get("server.cpu_util_play"), 2),
    ("srv peak RSS MB", get("server.rss_mb_peak_process"), 0),
    ("drv util", get("driver.cpu_util_play"), 2),
    ("busy cores", get("machine.busy_cores_play"), 2),
    ("other cores", get("machine.other_busy_cores_play"), 2),
]

# Figures where less is better; the ratio is Tabula / peer either way.
RATIOS = ["moves/s", "opp p50 ms", "opp p95 ms", "opp p99 ms", "B/update", "B/update text", "CPU ms/move",
          "srv peak RSS MB"]


# The table pages (page_driver.py: a real game, every seat and a spectator on the page's socket) have no peer
# row; their targets are absolute (RESULTS.md says why): issue #23's budget of server CPU per action for this
# road, and an opponent who sees the move within what feels instant.
PAGE_TARGETS = [("server CPU ms/move", "CPU ms/move", 1.0), ("opp p95 ms", "opp p95 ms", 100.0)]


def targets_of(storage: str, client: str, t: int) -> list[tuple[str, str, str, float]]:
    """Issue #16's targets for one row: (name, figure, "higher"/"lower" is better, factor of the peer's)."""
    if client == "ws":
        if storage == "postgres":
            found = [("moves/s", "moves/s", "higher", 1.0 if t == 1 else 1.5),
                     ("opp p99", "opp p99 ms", "lower", 1.0)]
        else:
            found = [("moves/s", "moves/s", "higher", 1.0), ("opp p99", "opp p99 ms", "lower", 1.5)]
        found.append(("B/update", "B/update", "lower", 0.05))
        if t == 200:
            found.append(("peak RSS", "srv peak RSS MB", "lower", 1.0))
        return found
    if client == "http" and t == 50:
        return [("moves/s", "moves/s", "higher", 1.0)]
    return []  # the ack-message and two-process rows are reported, with no target of their own


def group_key(r: dict[str, Any]) -> tuple:
    return (r.get("server_name") or PEER, r.get("storage") or "?", r.get("client"), r["matches"])


def summarise(rows: list[dict[str, Any]]) -> dict[tuple, dict[str, Any]]:
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(group_key(r), []).append(r)
    out = {}
    for key, rs in groups.items():
        figures = {name: median([f(r) for r in rs]) for name, f, _ in COLUMNS}
        statuses = sorted({r["status"] for r in rs})
        leaks = sum(get("checks.hidden_cards_seen")(r) or 0 for r in rs)
        seeds = sum(get("checks.seed_in_messages")(r) or 0 for r in rs)
        out[key] = {"runs": len(rs), "status": ",".join(statuses), "figures": figures,
                    "checked": any("checks" in r for r in rs), "leaks": leaks + seeds,
                    "timings": [r["server_timings"] for r in rs if r.get("server_timings")]}
    return out


def fmt(value: Any, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def table(lines: list[list[str]], markdown: bool) -> str:
    if markdown:
        head, *body = lines
        out = ["| " + " | ".join(head) + " |", "|" + "|".join(" ---: " if i > 3 else " --- " for i in range(len(head))) + "|"]
        out += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(out)
    widths = [max(len(row[i]) for row in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in lines)


def order(key: tuple) -> tuple:
    server, storage, client, t = key
    return (server != PEER, storage, client or "", t)


def peer_leak(directory: Path) -> str:
    """What tests/bench/peer_leak.js saw in boardgame.io's sync reply during this run."""
    path = directory / "peer-leak.json"
    if not path.is_file():
        return "deck+seed at sync (its README)"
    found = json.loads(path.read_text())
    if not found.get("leaks"):
        return "none seen at sync"
    parts = {"deck" for r in found["sync"].values() if r["deck_at"]} | {"seed" for r in found["sync"].values() if r["seed_at"]}
    return "+".join(sorted(parts)) + " in every sync reply (checked)"


def report(directory: Path, markdown: bool) -> str:
    groups = summarise(load(directory))
    peer_secrets = peer_leak(directory)
    if not groups:
        return f"no result files under {directory}"
    keys = sorted(groups, key=order)
    out = []
    head = ["server", "storage", "client", "T", "runs", "status", *[c[0] for c in COLUMNS], "secrets seen"]
    lines = [head]
    for key in keys:
        g = groups[key]
        secrets = (str(g["leaks"]) if g["checked"] else peer_secrets if key[0] == PEER else "-")
        lines.append([str(key[0]), str(key[1]), str(key[2]), str(key[3]),
                      f"{g['runs']}" + (" med" if g["runs"] > 1 else ""), g["status"],
                      *[fmt(g["figures"][name], digits) for name, _, digits in COLUMNS], secrets])
    out.append(table(lines, markdown))

    # Ratios against the peer's in-memory figures at the same T (its `raw` client).
    ratio_lines = [["Tabula", "storage", "client", "T", *[f"{name} ratio" for name in RATIOS],
                    "other cores (Tabula / peer)"]]
    for key in keys:
        server, storage, client, t = key
        if server == PEER or client == "page":  # a real game through the pages: the peer has no such row
            continue
        peer = groups.get((PEER, "memory", "raw", t))
        if peer is None:
            continue
        row = [server, storage, str(client), str(t)]
        for name in RATIOS:
            a, b = groups[key]["figures"][name], peer["figures"][name]
            row.append("-" if a is None or not b else f"{a / b:.2f}")
        row.append(f"{fmt(groups[key]['figures']['other cores'], 2)} / {fmt(peer['figures']['other cores'], 2)}")
        ratio_lines.append(row)
    if len(ratio_lines) > 1:
        out.append("")
        out.append("Ratios Tabula / boardgame.io (memory storage, raw client) at the same T "
                   "(moves/s: higher is better; the others: lower is better):")
        out.append("")
        out.append(table(ratio_lines, markdown))

    # The targets of the performance issue (#16): each at each T where both servers ran (the pages: absolute).
    checks = []
    for key in keys:
        server, storage, client, t = key
        peer = groups.get((PEER, "memory", "raw", t))
        if server == PEER or (peer is None and client != "page"):
            continue
        mine = groups[key]
        for name, figure, better, factor in targets_of(storage, client, t):
            a, b = mine["figures"][figure], peer["figures"][figure]
            ok = a is not None and b is not None and (a >= factor * b if better == "higher" else a <= factor * b)
            sign = ">=" if better == "higher" else "<="
            checks.append([f"{storage} {client} T={t}: {name} {sign} {factor:g}x peer", fmt(a, 1), fmt(b, 1),
                           "-" if a is None or not b else f"{a / b:.2f}", "yes" if ok else "NO"])
        for name, figure, limit in PAGE_TARGETS if client == "page" else []:
            a = mine["figures"][figure]
            checks.append([f"{storage} page T={t}: {name} <= {limit:g}", fmt(a, 1), "-", "-",
                           "yes" if a is not None and a <= limit else "NO"])
        if client in ("ws", "http") and mine["checked"]:
            checks.append([f"{storage} {client} T={t}: no hidden card or seed in any message", str(mine["leaks"]),
                           peer_secrets, "-", "yes" if mine["leaks"] == 0 else "NO"])
    if checks:
        out.append("")
        out.append("Targets (issue #16; every move committed before it is acknowledged):")
        out.append("")
        met = sum(row[-1] == "yes" for row in checks)
        out.append(table([["target", "Tabula", "boardgame.io", "ratio", "met"], *checks], markdown))
        out.append("")
        out.append(f"{met} of {len(checks)} targets met in this run.")

    timed = [(key, groups[key]["timings"]) for key in keys if groups[key]["timings"]]
    if timed:
        out.append("")
        out.append("Where Tabula's server time goes (µs per move, medians; commit and publish are waits, "
                   "engine/views/push are work on the event loop):")
        out.append("")
        parts = ["engine", "views", "push", "commit", "publish"]
        lines = [["storage", "client", "T", *parts, "moves per commit", "ms per commit"]]
        for key, ts in timed:
            row = [str(key[1]), str(key[2]), str(key[3])]
            for part in parts:
                row.append(fmt(median([x["us_per_move"].get(part) for x in ts]), 0))
            row.append(fmt(median([x["commits"]["mean_batch"] for x in ts]), 1))
            row.append(fmt(median([x["commits"].get("ms_per_batch") for x in ts]), 1))
            lines.append(row)
        out.append(table(lines, markdown))
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    print(report(args.directory, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
