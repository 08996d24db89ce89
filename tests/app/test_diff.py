"""The view patches are valid RFC 6902 patches that turn the old view into the new one exactly."""

from __future__ import annotations

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from app.realtime.diff import view_patch

keys = st.sampled_from(["a", "b", "hand", "to_act", "x/y", "t~", "log"])
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.sampled_from(["AS", "10H", "é", ""]))
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=30), st.dictionaries(keys, inner, max_size=5)), max_leaves=60)


@settings(max_examples=200, deadline=None, database=None)
@given(json_values, json_values)
def test_patch_turns_old_into_new(old, new):
    patch = view_patch(old, new)
    assert jsonpatch.apply_patch(old, patch) == new


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(st.integers(0, 9), max_size=80), st.data())
def test_list_edits(old, data):
    new = list(old)
    for _ in range(data.draw(st.integers(0, 4))):
        op = data.draw(st.sampled_from(["append", "pop", "insert", "delete", "set"]))
        if op == "append" or not new:
            new.append(data.draw(st.integers(0, 9)))
        elif op == "pop":
            new.pop()
        elif op == "insert":
            new.insert(data.draw(st.integers(0, len(new))), data.draw(st.integers(0, 9)))
        elif op == "delete":
            del new[data.draw(st.integers(0, len(new) - 1))]
        else:
            new[data.draw(st.integers(0, len(new) - 1))] = data.draw(st.integers(0, 9))
    view_old, view_new = {"game": {"pile": old}}, {"game": {"pile": new}}
    assert jsonpatch.apply_patch(view_old, view_patch(view_old, view_new)) == view_new


def test_types_are_told_apart():
    assert jsonpatch.apply_patch({"a": 1}, view_patch({"a": 1}, {"a": True})) == {"a": True}
    assert view_patch({"a": [1, 2]}, {"a": [1, 2, 3]}) == [{"op": "add", "path": "/a/-", "value": 3}]
    assert view_patch({"a": {"b": 1}}, {"a": {"b": 1}}) == []
