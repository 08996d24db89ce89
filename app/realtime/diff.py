"""RFC 6902 patches between two views of the same seat (never between states).

Objects are compared key by key. A list that changed is described by the cheapest of a few exact edits:
the items it shares at the start and at the end are kept, and what is between is edited in place (same
length: item by item), inserted, removed, or (the commonest move in a card game: a card leaves the hand and
a new one is drawn) one item removed and the new ones appended. For each changed list we keep whichever
is shorter on the wire, those ops or one `replace` of the whole list. All of it is a few passes over the
lists in C (`==` on slices), so a patch costs little more than the comparison of the two views.

Like `==`, the slice comparisons take 1 and True (or 1 and 1.0) inside a list or object for the same
value; a view keeps one JSON type at each place, and a changed scalar is always compared by type.

The result is an ordinary RFC 6902 patch that any client library applies; the tests apply it with
`jsonpatch` and compare with the seat's real view at every version.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_std_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def _dumps(value: Any) -> str:
    # The same text as the standard library's compact encoding, faster (see services.tables.compact).
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return _std_dumps(value)


def _escape(key: str) -> str:
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


MEMO_DEPTH = 2  # memoise the parts of a view down to this depth ("/game/pile" is depth 2)


class PatchMemo:
    """The patches of one new version for several seats. A part of the view that is the same for two
    seats, before and after (the pile, the scores: most of a card game's view), gets the same ops,
    computed once; their encoded text is made once too (`patch_message`)."""

    __slots__ = ("parts", "texts")

    def __init__(self) -> None:
        self.parts: dict[str, tuple[Any, Any, list[dict[str, Any]]]] = {}
        self.texts: dict[int, tuple[dict[str, Any], str]] = {}


def view_patch(old: Any, new: Any, memo: PatchMemo | None = None) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    _diff(old, new, "", ops, memo, 0)
    return ops


def patch_message(old_version: int, version: int, ops: list[dict[str, Any]], memo: PatchMemo | None = None,
                  ack: Any = None) -> str:
    """`{"type":"patch","from":..,"version":..,"patch":[..]}` (plus `"ack":ID` when it acknowledges the
    action with that request id), the same text as encoding it whole, with each op encoded once per memo
    however many seats share it."""
    texts = memo.texts if memo is not None else {}
    parts = []
    for op in ops:
        known = texts.get(id(op))
        if known is None:
            # The op is kept with its text: while the memo lives, no other op can take its id.
            known = texts[id(op)] = (op, _dumps(op))
        parts.append(known[1])
    acknowledged = "" if ack is None else f',"ack":{_dumps(ack)}'
    return f'{{"type":"patch","from":{old_version},"version":{version},"patch":[{",".join(parts)}]{acknowledged}}}'


def _same(a: Any, b: Any) -> bool:
    # `==` alone would call True equal to 1 and 1 equal to 1.0, which JSON tells apart.
    return type(a) is type(b) and a == b


_MISSING = object()


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]], memo: PatchMemo | None, depth: int) -> None:
    if old is new:
        return
    kind = type(old)
    if kind is type(new):
        if kind is dict:
            if old == new:
                return
            for key in old:
                if key not in new:
                    ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
            for key, value in new.items():
                before = old.get(key, _MISSING)
                if before is value:
                    continue
                sub = f"{path}/{_escape(key)}"
                if before is _MISSING:
                    ops.append({"op": "add", "path": sub, "value": value})
                    continue
                child = type(value)
                if child is type(before) and (child is dict or child is list):
                    if before == value:
                        continue
                    if memo is not None and depth < MEMO_DEPTH:
                        hit = memo.parts.get(sub)
                        if hit is not None and _same_part(hit[0], before) and _same_part(hit[1], value):
                            ops.extend(hit[2])
                            continue
                        start = len(ops)
                        _diff(before, value, sub, ops, memo, depth + 1)
                        memo.parts[sub] = (before, value, ops[start:])
                        continue
                    _diff(before, value, sub, ops, memo, depth + 1)
                elif child is not type(before) or before != value:
                    ops.append({"op": "replace", "path": sub, "value": value})
            return
        if kind is list:
            if old == new:
                return
            if old and new:
                candidate = _list_ops(old, new, path)
                if _shorter(candidate, new, path):
                    ops.extend(candidate)
                    return
        elif old == new:
            return
    ops.append({"op": "replace", "path": path, "value": new})


def _same_part(a: Any, b: Any) -> bool:
    return a is b or (type(a) is type(b) and a == b)


def _shorter(candidate: list[dict[str, Any]], new: list, path: str) -> bool:
    """Are these ops shorter on the wire than one replace of the whole list? (Sizes are counted, not
    encoded; both sides are counted the same way, so the choice is the same in every process.)"""
    size = sum(_op_size(op) for op in candidate) + len(candidate) - 1
    # A cheap lower bound of the replace (every item takes at least one character and a comma) spares
    # counting a long list that an append or two obviously beats.
    if size < 2 * len(new) + len(path) + 35:
        return True
    return size < 35 + len(path) + _size(new)


def _op_size(op: dict[str, Any]) -> int:
    # {"op":"replace","path":"P","value":V} and the like
    if op["op"] == "remove":
        return 25 + len(op["path"])
    return (31 if op["op"] == "add" else 35) + len(op["path"]) + _size(op["value"])


def _size(value: Any) -> int:
    """The length of a value's compact JSON (string escapes aside)."""
    kind = type(value)
    if kind is str:
        return len(value) + 2
    if kind is int:
        return len(str(value))
    if kind is bool:
        return 4 if value else 5
    if value is None:
        return 4
    if kind is list:
        return 1 + len(value) + sum(_size(v) for v in value) if value else 2
    return len(_dumps(value))


def _list_ops(old: list, new: list, path: str) -> list[dict[str, Any]]:
    n, m = len(old), len(new)
    # The common start and end (compared in C, by halving, on slices).
    p = _common_prefix(old, new)
    if p == n == m:  # equal by `==` but not by type (1 vs True somewhere): item by item
        out: list[dict[str, Any]] = []
        for i in range(n):
            _diff(old[i], new[i], f"{path}/{i}", out, None, 99)
        return out
    s = _common_suffix(old, new, min(n, m) - p)
    old_mid, new_mid = n - s - p, m - s - p
    out = []
    if p + 1 <= n and m >= n - 1 and old[p + 1:] == new[p:n - 1]:
        # One item removed at p, then items appended (a card played from the hand, one drawn).
        candidate = [{"op": "remove", "path": f"{path}/{p}"}]
        candidate += [{"op": "add", "path": f"{path}/-", "value": v} for v in new[n - 1:]]
        if len(candidate) <= max(old_mid, new_mid):
            return candidate
    if old_mid == new_mid:
        for i in range(p, p + old_mid):
            _diff(old[i], new[i], f"{path}/{i}", out, None, 99)
        return out
    for i in range(p + old_mid - 1, p - 1, -1):
        out.append({"op": "remove", "path": f"{path}/{i}"})
    if s == 0:
        out += [{"op": "add", "path": f"{path}/-", "value": v} for v in new[p:]]
    else:
        out += [{"op": "add", "path": f"{path}/{p + i}", "value": new[p + i]} for i in range(new_mid)]
    return out


def _common_prefix(a: list, b: list) -> int:
    limit = min(len(a), len(b))
    if a[:limit] == b[:limit]:
        return limit
    i = 0
    while i < limit and _same(a[i], b[i]):
        i += 1
    return i


def _common_suffix(a: list, b: list, limit: int) -> int:
    i = 0
    n, m = len(a), len(b)
    while i < limit and _same(a[n - 1 - i], b[m - 1 - i]):
        i += 1
    return i
