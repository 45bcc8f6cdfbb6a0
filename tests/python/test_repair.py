"""sediment_rows.repair(): the Python form of ``sediment-rows repair`` (docs/python.md)."""
import json

import pytest

import sediment_rows
from sediment_rows import Repair, Repaired

VALID = b'{"agent": {"name": "a", "version": "1"},\n "steps": [{"step_id": 1, "source": "user", "message": "hi"}]}'


def test_a_valid_trajectory_comes_back_as_given():
    for data in (VALID, VALID.decode()):
        r = sediment_rows.repair(data)
        assert r == Repaired(VALID, [], [])
        assert r.ok


def test_lossless_repairs_are_made_and_listed():
    broken = {"schema_version": "1.6", "agent": {"name": "a", "version": "1", "tools": []},
              "steps": [{"step_id": 3, "source": "user", "message": "hi"}]}
    r = sediment_rows.repair(json.dumps(broken))
    assert r.ok and r.errors == []
    assert json.loads(r.text) == {"schema_version": "ATIF-v1.6", "agent": {"name": "a", "version": "1", "extra": {"tools": []}},
                                  "steps": [{"step_id": 1, "source": "user", "message": "hi", "extra": {"step_id": 3}}]}
    assert r.repairs == [
        Repair("rows.repair.schema_version", "/schema_version", '"1.6" written as the label "ATIF-v1.6"', False),
        Repair("rows.repair.unknown_key", "/agent/tools", "unknown key 'tools': moved into extra", False),
        Repair("rows.repair.step_id", "/steps/0/step_id", "3 renumbered 1, the step's position (the written id kept in extra)", False),
    ]
    assert sediment_rows.validate(r.text, "atif") == []
    assert sediment_rows.repair(json.dumps(broken), style="sediment").text == \
        b'{"schema_version": "ATIF-v1.6", "agent": {"name": "a", "version": "1", "extra": {"tools": []}}, ' \
        b'"steps": [{"step_id": 1, "source": "user", "message": "hi", "extra": {"step_id": 3}}]}'


def test_lossy_repairs_need_lossy():
    broken = b'{"agent": {"name": "a", "version": "1"}, "steps": [{"step_id": 1, "source": "agent", "message": "m", ' \
             b'"metrics": {"cost_usd": NaN}}]}'
    refused = sediment_rows.repair(broken)
    assert refused.text is None and not refused.ok and refused.repairs == []
    assert [(e.id, e.pointer, e.message) for e in refused.errors] == \
        [("rows.repair.non_finite", "/steps/0/metrics/cost_usd", "needs --lossy: NaN written as null (JSON has no such number)")]
    made = sediment_rows.repair(broken, lossy=True)
    assert made.text == b'{"agent":{"name":"a","version":"1"},"steps":[{"step_id":1,"source":"agent","message":"m","metrics":{"cost_usd":null}}]}'
    assert made.repairs == [Repair("rows.repair.non_finite", "/steps/0/metrics/cost_usd", "NaN written as null (JSON has no such number)", True)]


def test_refusals_and_the_subset():
    r = sediment_rows.repair(b"[1]")
    assert r.text is None and [(e.id, e.pointer) for e in r.errors] == [("rows.repair.refused", "")]
    assert sediment_rows.repair(b'{"agent": {"name": "a", "version": "1"}, "steps": []}').errors[0].pointer == "/steps"
    subset = sediment_rows.repair(VALID, schema="atif-v1.7")
    assert subset.text == b'{"schema_version":"ATIF-v1.7","agent":{"name":"a","version":"1"},"steps":[{"step_id":1,"source":"user","message":"hi"}]}'
    assert [r.id for r in subset.repairs] == ["rows.repair.schema_version"]
    with pytest.raises(ValueError):
        sediment_rows.repair(VALID, schema="nemo-gym-rollout.v4")
