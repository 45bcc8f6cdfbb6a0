#!/usr/bin/env python3
"""The baseline of `sediment-rows verify`'s speed (bench/run.sh): a straightforward Python check of a consumer
profile folder of an SFT or DPO profile, with the standard library (json.loads, the digest form, hashlib), as a
pipeline would write it. It makes verify's checks that cost time, the same way for every line:

- each file's SHA-256 and size against the manifest, and the manifest in digest form;
- each pair of data and evidence files of as many lines; each line in Sediment's line form (json.loads, then
  json.dumps gives it back); each evidence record's row_sha256 the SHA-256 of its data line's digest form;
- each evidence record's split the file's, the lines in Sediment's order (split, then row digest);
- (with --minimal, not) each evidence record's source_row_sha256 and prompt_sha256 the digests of the canonical
  row the data row maps from: the adapter's renames and weights undone, Fireworks' arguments parsed back;
- the rows by split and the exact prompts in train and eval as the manifest counts them.

It does not check the models (the data rows' and evidence records' shapes), which verify does too.
Exit 1 on a difference.

    verify_profile.py [--minimal] FOLDER
"""
import hashlib
import json
import os
import sys


def digest_form(value):
    return json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":"))


def sha(value):
    return hashlib.sha256(digest_form(value).encode()).hexdigest()


def canonical_messages(messages):
    out = []
    for m in messages:
        m = dict(m)
        m.pop("weight", None)
        if "reasoning_content" in m:
            m["thinking"] = m.pop("reasoning_content")
        if "tool_calls" in m:
            m["tool_calls"] = [dict(c, function=dict(c["function"], arguments=json.loads(c["function"]["arguments"])))
                               if isinstance(c["function"]["arguments"], str) else c for c in m["tool_calls"]]
        out.append(m)
    return out


def canonical(profile, row, metadata):
    """The canonical row a data row maps from."""
    if profile.startswith("fireworks-sft"):
        messages = row["messages"]
        first = next((i for i, m in enumerate(messages) if m.get("weight") == 1), len(messages))
        return {"prompt": canonical_messages(messages[:first]), "completion": canonical_messages(messages[first:]),
                "tools": [], "metadata": metadata}
    if profile.startswith("fireworks-dpo"):
        return {"prompt": canonical_messages(row["input"]["messages"]), "chosen": canonical_messages(row["preferred_output"]),
                "rejected": canonical_messages(row["non_preferred_output"]), "tools": [], "metadata": metadata}
    return dict({k: canonical_messages(v) for k, v in row.items() if k != "tools"}, tools=[], metadata=metadata)


def main(argv):
    minimal = "--minimal" in argv
    folder = [a for a in argv if a != "--minimal"][0]
    with open(os.path.join(folder, "compatibility.json"), "rb") as f:
        raw = f.read()
    manifest = json.loads(raw)
    profile = manifest["profile"]["id"]
    ok = raw == (digest_form(manifest) + "\n").encode()
    for name, entry in manifest["files"].items():
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        ok = ok and hashlib.sha256(data).hexdigest() == entry["sha256"] and len(data) == entry["bytes"]
    by_split, prompts = {}, {"train": set(), "eval": set()}
    for name in sorted(manifest["files"]):
        if not name.startswith("data"):
            continue
        side = name.split(".")[1] if name.count(".") == 2 else None
        with open(os.path.join(folder, name), encoding="utf-8") as d, \
                open(os.path.join(folder, "evidence" + name[len("data"):]), encoding="utf-8") as e:
            data, evidence = d.readlines(), e.readlines()
        ok = ok and len(data) == len(evidence)
        previous = None
        for line, record in zip(data, evidence):
            row, ev = json.loads(line), json.loads(record)
            ok = ok and json.dumps(row) + "\n" == line and json.dumps(ev) + "\n" == record
            digest = sha(row)
            ok = ok and ev["row_sha256"] == digest
            split = ev["metadata"]["split"]
            ok = ok and (side is None or split == side)
            key = (split, digest)
            ok = ok and (previous is None or previous <= key)
            previous = key
            if not minimal:
                source = canonical(profile, row, ev["metadata"])
                ok = ok and ev["source_row_sha256"] == sha(source) and ev["prompt_sha256"] == sha({"prompt": source["prompt"]})
            by_split[split] = by_split.get(split, 0) + 1
            prompts[split].add(ev["prompt_sha256"])
    overlap = len(prompts["train"] & prompts["eval"])
    diagnostics = manifest["diagnostics"]
    ok = ok and diagnostics["rows_by_split"] == dict(sorted(by_split.items())) and diagnostics["exact_prompt_overlap"] == overlap
    ok = ok and manifest["rows"] == sum(by_split.values())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
