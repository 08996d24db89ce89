"""RFC 6902 patches between two views of the same seat (never between states).

Objects are compared key by key. Lists take the cheap exact paths first: the same length (compare item by
item), a pure append (`add` at `/-`) or a pure truncation (`remove` from the end). Other list edits of
long lists go to `jsonpatch.make_patch` (which finds insertions and removals in the middle); for every
changed value we keep whichever is shorter on the wire, those ops or one `replace` of the whole value.
The result is an ordinary RFC 6902 patch that any client library applies; the tests apply it with
`jsonpatch` and compare with the seat's real view at every version.
"""

from __future__ import annotations

import json
from typing import Any

import jsonpatch

# Lists shorter than this (encoded) are replaced whole when they change in the middle: the library's
# search costs more than the few bytes it could save.
LIBRARY_MIN_BYTES = 200

_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def _escape(key: str) -> str:
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def view_patch(old: Any, new: Any) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    _diff(old, new, "", ops)
    return ops


def _same(a: Any, b: Any) -> bool:
    # `==` alone would call True equal to 1 and 1 equal to 1.0, which JSON tells apart.
    return type(a) is type(b) and a == b


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]]) -> None:
    if _same(old, new):
        return
    if type(old) is dict and type(new) is dict:
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in new.items():
            sub = f"{path}/{_escape(key)}"
            if key not in old:
                ops.append({"op": "add", "path": sub, "value": value})
            else:
                _diff(old[key], value, sub, ops)
        return
    if type(old) is list and type(new) is list and old and new:
        candidate = _list_ops(old, new, path)
        if candidate is not None:
            whole = {"op": "replace", "path": path, "value": new}
            if len(_dumps(candidate)) < len(_dumps(whole)):
                ops.extend(candidate)
                return
            ops.append(whole)
            return
    ops.append({"op": "replace", "path": path, "value": new})


def _list_ops(old: list, new: list, path: str) -> list[dict[str, Any]] | None:
    n, m = len(old), len(new)
    if n == m:
        out: list[dict[str, Any]] = []
        for i in range(n):
            _diff(old[i], new[i], f"{path}/{i}", out)
        return out
    if m > n and _prefix(old, new):
        return [{"op": "add", "path": f"{path}/-", "value": v} for v in new[n:]]
    if n > m and _prefix(new, old):
        return [{"op": "remove", "path": f"{path}/{i}"} for i in range(n - 1, m - 1, -1)]
    if len(_dumps(new)) < LIBRARY_MIN_BYTES:
        return None
    return [_rebase(op, path) for op in jsonpatch.make_patch(old, new).patch]


def _prefix(short: list, long: list) -> bool:
    return all(_same(a, b) for a, b in zip(short, long))


def _rebase(op: dict[str, Any], prefix: str) -> dict[str, Any]:
    op = dict(op)
    op["path"] = prefix + op["path"]
    if "from" in op:
        op["from"] = prefix + op["from"]
    return op
