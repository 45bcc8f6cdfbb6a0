"""Conformance: broken trajectories made from the public ATIF fixtures Harbor accepts, one fault at a time,
each repaired (valid after it, the repair listed with its id, made without lossy mode only when lossless)
or refused for its reason. Run as a script, it prints how many of each fault were repaired and refused.
Skipped, saying so, when the shared folder is not there."""
import copy
import csv
import json
import os
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

import sediment_rows

try:  # Harbor's own model, where it is installed: it must accept what repair writes
    from harbor.models.trajectories import Trajectory as HarborTrajectory  # type: ignore
except ImportError:
    HarborTrajectory = None

SHARED = os.environ.get("SEDIMENT_ROWS_SHARED_DIR", "")
ATIF = os.path.join(SHARED, "fixtures", "atif")
if not os.path.isfile(os.path.join(ATIF, "EXPECTED-harbor.tsv")):
    pytest.skip("conformance suite skipped: no shared folder with fixtures/atif (SEDIMENT_ROWS_SHARED_DIR=%r)" % SHARED,
                allow_module_level=True)


def fixtures() -> List[Tuple[str, bytes]]:
    """The fixtures Harbor's model accepts (EXPECTED-harbor.tsv), with their bytes."""
    out = []
    with open(os.path.join(ATIF, "EXPECTED-harbor.tsv"), newline="") as f:
        for row in csv.reader((line for line in f if not line.startswith("#")), delimiter="\t"):
            if row and row[2] == "valid":
                with open(os.path.join(ATIF, row[0]), "rb") as t:
                    out.append((row[0], t.read()))
    return out


Doc = Dict[str, Any]


def steps_where(d: Doc, test: Callable[[Doc], bool]) -> List[Doc]:
    return [s for s in d["steps"] if test(s)]


def first(items: List[Doc]) -> Optional[Doc]:
    return items[0] if items else None


# ----- the faults: each edits a copy of a fixture, or returns None where it does not apply -------------------

def edited(edit: Callable[[Doc], Optional[bool]]) -> Callable[[Doc], Optional[str]]:
    def fault(d: Doc) -> Optional[str]:
        d = copy.deepcopy(d)
        if edit(d) is False:
            return None
        return json.dumps(d)
    return fault


def _set(target: Optional[Doc], key: str, value: Any) -> bool:
    if target is None:
        return False
    target[key] = value
    return True


def _agent_with_calls(d: Doc) -> Optional[Doc]:
    return first(steps_where(d, lambda s: bool(s.get("tool_calls"))))


def _result(d: Doc) -> Optional[Doc]:
    for s in d["steps"]:
        for r in (s.get("observation") or {}).get("results") or []:
            return r
    return None


def _drop_key(target: Optional[Doc], key: str) -> bool:
    if target is None or key not in target:
        return False
    del target[key]
    return True


def _text_step(d: Doc) -> Optional[Doc]:
    return first(steps_where(d, lambda s: isinstance(s.get("message"), str)))


def _user_step(d: Doc) -> Optional[Doc]:
    return first(steps_where(d, lambda s: s["source"] in ("user", "system")))


def _metrics(d: Doc) -> Optional[Doc]:
    return first([s["metrics"] for s in d["steps"] if isinstance(s.get("metrics"), dict)])


def _parts(d: Doc, parts: List[Doc]) -> bool:
    step = _text_step(d)
    if step is None:
        return False
    step["message"] = parts
    return True


def _with_audio(d: Doc, media_type: str, label: str) -> bool:
    d["schema_version"] = label
    return _parts(d, [{"type": "audio", "source": {"media_type": media_type, "path": "a.wav"}}])


def _duplicate_key(same: bool) -> Callable[[Doc], Optional[str]]:
    def fault(d: Doc) -> Optional[str]:
        text = json.dumps(d)
        agent = json.dumps(d["agent"])
        name = json.dumps(d["agent"]["name"] if same else d["agent"]["name"] + " (2)")
        return text.replace(agent, agent[:-1] + ', "name": ' + name + "}", 1)
    return fault


def _nan_cost(d: Doc) -> Optional[str]:
    d = copy.deepcopy(d)
    d.setdefault("final_metrics", {})
    if d["final_metrics"] is None:
        d["final_metrics"] = {}
    d["final_metrics"]["total_cost_usd"] = float("nan")
    return json.dumps(d)


def _embedded_without_id(d: Doc) -> bool:
    child = {k: v for k, v in d.items() if k not in ("subagent_trajectories", "trajectory_id")}
    d["subagent_trajectories"] = list(d.get("subagent_trajectories") or []) + [child]
    return True


def _repeated_call_id(d: Doc) -> bool:
    """A step's second tool call given its first call's id."""
    step = first(steps_where(d, lambda s: len(s.get("tool_calls") or []) > 1))
    if step is None:
        return False
    calls = step["tool_calls"]
    return _set(calls[1], "tool_call_id", calls[0]["tool_call_id"])


def _dangling_ref(d: Doc) -> bool:
    return _set(_result(d), "subagent_trajectory_ref", [{"trajectory_id": "no-such-subagent"}])


# (name, fault, expected): expected is ("repaired", id, lossy) or ("refused", reason)
FAULTS: List[Tuple[str, Callable[[Doc], Optional[str]], Tuple[Any, ...]]] = [
    ("unknown root key", edited(lambda d: _set(d, "debug", {"x": 1})), ("repaired", "rows.repair.unknown_key", False)),
    ("unknown agent key", edited(lambda d: _set(d["agent"], "tools", [])), ("repaired", "rows.repair.unknown_key", False)),
    ("unknown step key", edited(lambda d: _set(d["steps"][0], "role", "user")), ("repaired", "rows.repair.unknown_key", False)),
    ("unknown observation key", edited(lambda d: _set(first([s["observation"] for s in d["steps"] if s.get("observation")]), "status", "ok")),
     ("repaired", "rows.repair.unknown_key", True)),
    ("step id gap", edited(lambda d: len(d["steps"]) > 1 and _set(d["steps"][-1], "step_id", len(d["steps"]) + 1)),
     ("repaired", "rows.repair.step_id", False)),
    ("step id as a string", edited(lambda d: _set(d["steps"][0], "step_id", "1")), ("repaired", "rows.repair.type", False)),
    ("tool_call_id missing", edited(lambda d: _drop_key(first((_agent_with_calls(d) or {}).get("tool_calls") or []), "tool_call_id")),
     ("repaired", "rows.repair.tool_call_id", True)),
    ("tool_call_id repeated", edited(_repeated_call_id), ("repaired", "rows.repair.tool_call_id", False)),
    ("function_name missing", edited(lambda d: _drop_key(first((_agent_with_calls(d) or {}).get("tool_calls") or []), "function_name")),
     ("repaired", "rows.repair.function_name", True)),
    ("arguments as a JSON string", edited(lambda d: _set(first((_agent_with_calls(d) or {}).get("tool_calls") or []), "arguments",
                                                         json.dumps(first((_agent_with_calls(d) or {}).get("tool_calls") or [{}]).get("arguments")))),
     ("repaired", "rows.repair.arguments", False)),
    ("arguments null", edited(lambda d: _set(first((_agent_with_calls(d) or {}).get("tool_calls") or []), "arguments", None)),
     ("repaired", "rows.repair.arguments", True)),
    ("source_call_id dangling", edited(lambda d: _set(_result(d), "source_call_id", "no-such-call")), ("repaired", "rows.repair.source_call_id", False)),
    ("agent-only field on a user step", edited(lambda d: _set(_user_step(d), "model_name", "m")), ("repaired", "rows.repair.agent_only", False)),
    ("reasoning beside llm_call_count 0", edited(lambda d: _set(first(steps_where(d, lambda s: s["source"] == "agent")), "llm_call_count", 0) and
                                                  _set(first(steps_where(d, lambda s: s["source"] == "agent")), "reasoning_content", "r")),
     ("repaired", "rows.repair.llm_call_count", False)),
    ("total_steps negative", edited(lambda d: _set(d.get("final_metrics"), "total_steps", -1)), ("repaired", "rows.repair.total_steps", False)),
    ("timestamp unparsable", edited(lambda d: _set(d["steps"][0], "timestamp", "yesterday")), ("repaired", "rows.repair.timestamp", False)),
    ("label in lower case", edited(lambda d: "schema_version" in d and _set(d, "schema_version", d["schema_version"].lower())),
     ("repaired", "rows.repair.schema_version", False)),
    ("label bare", edited(lambda d: "schema_version" in d and _set(d, "schema_version", d["schema_version"][6:])),
     ("repaired", "rows.repair.schema_version", False)),
    ("label null", edited(lambda d: _set(d, "schema_version", None)), ("repaired", "rows.repair.schema_version", False)),
    ("audio under ATIF-v1.6", edited(lambda d: _with_audio(d, "audio/wav", "ATIF-v1.6")), ("repaired", "rows.repair.audio_label", False)),
    ("audio media type Harbor normalizes", edited(lambda d: _with_audio(d, "Audio/MP3", "ATIF-v1.8")), ("repaired", "rows.repair.media_type", False)),
    ("reference that resolves nothing", edited(_dangling_ref), ("repaired", "rows.repair.subagent_ref", False)),
    ("embedded subagent without trajectory_id", edited(_embedded_without_id), ("repaired", "rows.repair.trajectory_id", True)),
    ("single part object", edited(lambda d: _set(_text_step(d), "message", {"type": "text", "text": (_text_step(d) or {}).get("message")})),
     ("repaired", "rows.repair.list", False)),
    ("observation without results", edited(lambda d: _drop_key(first([s["observation"] for s in d["steps"] if s.get("observation")]), "results")),
     ("repaired", "rows.repair.results", False)),
    ("integer as a string", edited(lambda d: _set(d["steps"][0], "llm_call_count", "1") if d["steps"][0]["source"] == "agent" else
                                   _set(d.setdefault("final_metrics", {}) if d.get("final_metrics") is not None else None, "total_prompt_tokens", "12")),
     ("repaired", "rows.repair.type", False)),
    ("integer as 64.0", edited(lambda d: _set(_metrics(d), "prompt_tokens", 64.0)), ("repaired", "rows.repair.type", False)),
    ("boolean as \"yes\"", edited(lambda d: _set(d["steps"][0], "is_copied_context", "yes")), ("repaired", "rows.repair.type", False)),
    ("part without type", edited(lambda d: _parts(d, [{"text": "t"}])), ("repaired", "rows.repair.part_type", False)),
    ("text part with a source", edited(lambda d: _parts(d, [{"type": "text", "text": "t", "source": {"media_type": "image/png", "path": "a.png"}}])),
     ("repaired", "rows.repair.part_stray", True)),
    ("text part without text", edited(lambda d: _parts(d, [{"type": "text"}])), ("repaired", "rows.repair.part_text", True)),
    ("part of another kind", edited(lambda d: _parts(d, [{"type": "video", "url": "v.mp4"}])), ("repaired", "rows.repair.part_dropped", True)),
    ("duplicate key, same value", _duplicate_key(True), ("repaired", "rows.repair.duplicate_key", False)),
    ("duplicate key, other value", _duplicate_key(False), ("repaired", "rows.repair.duplicate_key", True)),
    ("NaN", _nan_cost, ("repaired", "rows.repair.non_finite", True)),
    ("not JSON", lambda d: json.dumps(d)[:-1], ("refused", "not JSON")),
    ("root an array", lambda d: json.dumps([d]), ("refused", "the root is an array")),
    ("no steps", edited(lambda d: _set(d, "steps", [])), ("refused", "no steps")),
    ("no agent name", edited(lambda d: _drop_key(d["agent"], "name")), ("refused", "no agent name")),
]


def outcome(original: bytes, broken: str, expected: Tuple[Any, ...]) -> str:
    """Checks one broken document; returns "lossless", "lossy" or "refused"."""
    strict = sediment_rows.repair(broken, "atif")
    lossy = sediment_rows.repair(broken, "atif", lossy=True)
    assert sediment_rows.validate(broken, "atif") != []
    if expected[0] == "refused":
        assert strict.text is None and lossy.text is None
        assert [e.id for e in strict.errors] == ["rows.repair.refused"] and expected[1] in strict.errors[0].message
        return "refused"
    _, repair_id, is_lossy = expected
    assert lossy.ok, lossy.errors
    assert sediment_rows.validate(lossy.text, "atif") == []
    if HarborTrajectory is not None:
        HarborTrajectory.model_validate_json(lossy.text)
    assert repair_id in [r.id for r in lossy.repairs if r.lossy == is_lossy]
    if any(r.lossy for r in lossy.repairs):
        assert strict.text is None and all(e.message.startswith("needs --lossy: ") for e in strict.errors)
        assert sorted((e.id, e.pointer) for e in strict.errors) == sorted((r.id, r.pointer) for r in lossy.repairs if r.lossy)
    else:
        assert strict.text == lossy.text and strict.repairs == lossy.repairs
    # it converts as the fixture does
    try:
        sediment_rows.convert(original, "atif", "nemo-gym-response.v3", lossy=True)
    except sediment_rows.ConvertError:
        return "lossy" if is_lossy else "lossless"
    sediment_rows.convert(lossy.text, "atif", "nemo-gym-response.v3", lossy=True)
    return "lossy" if any(r.lossy for r in lossy.repairs) else "lossless"


def run_all() -> Dict[str, Dict[str, int]]:
    counts: Dict[str, Dict[str, int]] = {}
    for file, text in fixtures():
        d = json.loads(text)
        for name, fault, expected in FAULTS:
            broken = fault(d)
            tally = counts.setdefault(name, {"lossless": 0, "lossy": 0, "refused": 0, "not applicable": 0})
            if broken is None:
                tally["not applicable"] += 1
                continue
            try:
                tally[outcome(text, broken, expected)] += 1
            except AssertionError as e:
                raise AssertionError(f"{file}, {name}: {e}") from e
    return counts


def test_every_fault_on_every_fixture_is_repaired_or_refused_as_expected():
    counts = run_all()
    assert len(fixtures()) == 50
    for name, _, expected in FAULTS:
        tally = counts[name]
        made = sum(v for k, v in tally.items() if k != "not applicable")
        assert made > 0, name  # every fault applies to some fixture
        if expected[0] == "refused":
            assert tally["refused"] == made, name
        elif expected[2]:
            assert tally["lossy"] == made, name
        else:
            assert tally["lossless"] + tally["lossy"] == made and tally["refused"] == 0, name


def test_harbors_own_model_accepts_what_repair_writes():
    if HarborTrajectory is None:
        pytest.skip("Harbor's model (the harbor package) is not installed here: repair's output is checked by this "
                    "library's validator only")
    run_all()  # outcome() validates each repaired document with Harbor's Trajectory model


if __name__ == "__main__":
    table = run_all()
    total = {"lossless": 0, "lossy": 0, "refused": 0, "not applicable": 0}
    print("| fault | repaired (lossless) | repaired (--lossy) | refused | not applicable |")
    print("|---|---|---|---|---|")
    for fault_name, tally in table.items():
        print(f"| {fault_name} | {tally['lossless']} | {tally['lossy']} | {tally['refused']} | {tally['not applicable']} |")
        for key, value in tally.items():
            total[key] += value
    print(f"| all | {total['lossless']} | {total['lossy']} | {total['refused']} | {total['not applicable']} |")
    sys.exit(0)
