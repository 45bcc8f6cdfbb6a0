"""An independent check of the conversion's loss list: nothing is dropped without being listed.

Reads JSON lines {"original": TRAJECTORY, "losses": [POINTER...], "back": TRAJECTORY} on standard input,
where `back` is to_atif(to_row_parts(original, lossy)). Removes every listed pointer from the original,
brings both to the forms docs/atif-mapping.md calls equivalent, and checks that every value left in the
original is in `back` unchanged. Writes {"ok": BOOL, "why": TEXT} lines.

Equivalent forms (docs/atif-mapping.md, "What counts as the same"): null and absent; an empty `extra`,
`tool_calls`, `observation.results`, `tool_definitions` or `subagent_trajectories` and absent; content ""
and []; a content string and one text part holding it; an observation result's content parts and
`content: null` with those parts in `extra.tool_result`; `llm_call_count: 1` on an agent step and
`is_copied_context: false`, which every row turn implies. `back` may hold more (the mapping's own
`agent` and `extra.sediment_rows`).
"""
import json
import sys


def tokens(pointer):
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def remove(doc, pointer):
    parts = tokens(pointer)
    parent = doc
    for t in parts[:-1]:
        parent = parent[int(t)] if isinstance(parent, list) else parent[t]
    if isinstance(parent, list):
        del parent[int(parts[-1])]
    else:
        del parent[parts[-1]]


def order_key(pointer):
    # array elements go from the last, so that earlier indices stay where they were
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in tokens(pointer)]


def content(c):
    if isinstance(c, str):
        return [{"type": "text", "text": c}] if c else []
    return [{k: v for k, v in part.items() if v is not None} for part in c]


def drop_empty(obj, keys):
    for k in keys:
        if k in obj and obj[k] in (None, [], {}):
            del obj[k]


def plain(obj):
    return {k: v for k, v in obj.items() if v is not None}


def normalize(t):
    t = plain(t)
    t["agent"] = plain(t["agent"])
    drop_empty(t["agent"], ["tool_definitions", "extra"])
    extra = dict(t.get("extra") or {})
    extra.pop("sediment_rows", None)
    t["extra"] = extra
    drop_empty(t, ["subagent_trajectories", "extra"])
    steps = []
    for s in t["steps"]:
        s = plain(s)
        if "message" in s:  # a listed message is removed
            s["message"] = content(s["message"])
        if s["source"] == "agent" and s.get("llm_call_count") == 1:
            del s["llm_call_count"]
        if s.get("is_copied_context") is False:
            del s["is_copied_context"]
        if "tool_calls" in s:
            calls = []
            for c in s["tool_calls"]:
                c = plain(c)
                drop_empty(c, ["extra"])
                calls.append(c)
            s["tool_calls"] = calls
        if "observation" in s:
            results = []
            for r in s["observation"]["results"]:
                r = plain(r)
                extra = dict(r.get("extra") or {})
                if isinstance(r.get("content"), list):
                    extra["tool_result"] = r.pop("content")
                r["extra"] = extra
                drop_empty(r, ["extra", "subagent_trajectory_ref"])
                results.append(r)
            s["observation"] = {"results": results}
            if not results:
                del s["observation"]
        extra = dict(s.get("extra") or {})
        extra.pop("sediment_rows", None)
        s["extra"] = extra
        drop_empty(s, ["tool_calls", "extra"])
        steps.append(s)
    t["steps"] = steps
    return t


STRUCTURAL = {"agent", "steps", "tool_calls", "observation", "results", "message"}


def exact(a, b):
    return json.dumps(a) == json.dumps(b)


def within(a, b, where, key=None):
    """Why value `a` (from the original) is not in `b` (from back), or None."""
    if isinstance(a, dict) and (key is None or key in STRUCTURAL or key == "item"):
        if not isinstance(b, dict):
            return f"{where}: not an object in back"
        for k, v in a.items():
            if k not in b:
                return f"{where}/{k}: dropped without being listed"
            why = within(v, b[k], f"{where}/{k}", k)
            if why:
                return why
        return None
    if isinstance(a, list) and key in STRUCTURAL:
        if not isinstance(b, list) or len(a) != len(b):
            return f"{where}: {len(a)} items, back has {len(b) if isinstance(b, list) else 'none'}"
        for i, (x, y) in enumerate(zip(a, b)):
            why = within(x, y, f"{where}/{i}", "item")
            if why:
                return why
        return None
    return None if exact(a, b) else f"{where}: {json.dumps(a)[:200]} became {json.dumps(b)[:200]}"


for line in sys.stdin:
    request = json.loads(line)
    original = request["original"]
    for pointer in sorted(request["losses"], key=order_key, reverse=True):
        remove(original, pointer)
    why = within(normalize(original), normalize(request["back"]), "")
    print(json.dumps({"ok": why is None, "why": why or ""}), flush=True)
