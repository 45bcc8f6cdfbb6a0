"""Rows of one of Sediment's families as its exporter writes them, for lint's benchmark (bench/run.sh).

Reads valid rows of the family's newest version (schemagen.py's, in Sediment's bytes) on standard input
and writes each with what lint checks set as Sediment's exporter sets it (docs/lint.md, "Other families"):
the recipe's label sources, confidences the policy admits, ids unique and in Sediment's order, a split
derived from the session, a prompt of its own per row. Everything else is schemagen's, so the rows keep
their sizes and shapes. Lint finds nothing in them: every rule runs, and nothing is reported.

    python3 bench/faithful_family.py FAMILY < rows.jsonl > faithful.jsonl
"""
import hashlib
import json
import sys


def split_of(session_id, eval_fraction=0.1):
    """Sediment's split of a session: eval when the first 8 bytes of SHA-256 of its id, over 2^64, are below the fraction."""
    score = int.from_bytes(hashlib.sha256(session_id.encode("utf-8")).digest()[:8], "big") / 2**64
    return "eval" if score < eval_fraction else "train"


def own(value, tag):
    """`value` (a prompt or a response) with `tag` after its first message text (a "content" or "text"
    string), so that it is no other row's; true when it had one."""
    if isinstance(value, list):
        return any(own(item, tag) for item in value)
    if isinstance(value, dict):
        for key in ("content", "text"):
            if isinstance(value.get(key), str):
                value[key] += tag
                return True
        return any(own(item, tag) for item in value.values())
    return False


def faithful(family, row, i):
    meta = row.get("metadata", {})
    if "prompt" in row and not own(row["prompt"], f" #{i}"):
        row["prompt"].append({"role": "user", "content": f"#{i}"})
    if family == "sft-sample":
        meta.update(recipe_id="sft_curated", eligibility_source="explicit_accept", label_confidence=0.9,
                    completion_id=f"call-{i:08d}", split="train")
    elif family == "dpo-pair":
        meta.update(recipe_id="dpo_human", chosen_label_source="explicit_accept", rejected_label_source="explicit_reject",
                    chosen_completion_id=f"good-{i:08d}", rejected_completion_id=f"bad-{i:08d}", label_confidence=0.6,
                    confidence_margin=0.3, split="train")
        if row["rejected"] == row["chosen"] and not own(row["rejected"], " (rejected)"):
            row["rejected"].append({"role": "assistant", "content": "(rejected)"})
    elif family == "diff-sft-sample":
        meta.update(completion_id=f"call-{i:08d}", split=split_of(meta["session_id"]))
    elif family == "recovery-row":
        failed = row["failed_commit_sha"]
        row["fixed_commit_sha"] = failed[:-1] + ("0" if failed[-1] != "0" else "1")
        row["split"] = "train"
    elif family == "sediment-rlvr-rollout":
        row["segment_index"] = i
        row["instance_id"] = f"{row['org_id']}-{row['session_id']}-seg{i}"
        row["split"] = split_of(row["session_id"])
    elif family in ("sediment-rlvr-task", "swe-bench-task"):
        row["instance_id"] = f"task-{i:08d}"
        if family == "swe-bench-task":
            row["problem_statement"] += f" #{i}"
            meta["split"] = "train"
        else:
            row["split"] = "train"
    return row


def main():
    family = sys.argv[1]
    for i, line in enumerate(sys.stdin):
        row = faithful(family, json.loads(line), i)
        sys.stdout.write(json.dumps(row, ensure_ascii=True) + "\n")


if __name__ == "__main__":
    main()
