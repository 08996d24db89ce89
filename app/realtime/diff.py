"""RFC 6902 patches between two views of the same seat (never between states).

`jsonpatch.make_patch` computes the list edits; around it we walk objects key by key and, for every
changed value, keep whichever is shorter on the wire: the library's ops, or one `replace` of the whole
value. The result is an ordinary RFC 6902 patch that any client library applies.
"""

from __future__ import annotations

import json
from typing import Any

import jsonpatch


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _size(obj: Any) -> int:
    return len(json.dumps(obj, separators=(",", ":"), ensure_ascii=False))


def view_patch(old: Any, new: Any) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    _diff(old, new, "", ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]]) -> None:
    if old == new and type(old) is type(new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
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
    whole = [{"op": "replace", "path": path, "value": new}]
    if isinstance(old, list) and isinstance(new, list):
        library = [_rebase(op, path) for op in jsonpatch.make_patch(old, new).patch]
        if _size(library) < _size(whole):
            ops.extend(library)
            return
    ops.extend(whole)


def _rebase(op: dict[str, Any], prefix: str) -> dict[str, Any]:
    op = dict(op)
    op["path"] = prefix + op["path"]
    if "from" in op:
        op["from"] = prefix + op["from"]
    return op
