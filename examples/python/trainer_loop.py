"""A trainer-style loop over Sediment's rollout rows: read them (every core, any version, plain or gzip),
use their fields, and write the rows a training run keeps back in Sediment's own bytes.

    python3 examples/python/trainer_loop.py rows.jsonl[.gz] kept.jsonl [--split train]

Keeps the valid rows of the split that carry a reward; reports every invalid row with its line and
where it is wrong, and a summary of what it kept.
"""
import argparse
import sys

import sediment_rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows")
    parser.add_argument("out")
    parser.add_argument("--split", default="train")
    args = parser.parse_args()

    kept = prompts = turns = tool_calls = invalid = 0
    reward_sum = 0.0
    with open(args.out, "wb") as out:
        for doc in sediment_rows.read(args.rows, "nemo-gym-rollout"):  # the version each row names
            if doc.errors:
                invalid += 1
                for e in doc.errors:
                    print(f"{args.rows}:{doc.line}: {e.pointer or '(root)'}: {e.message}", file=sys.stderr)
                continue
            row = doc.value
            if row["metadata"]["split"] != args.split or "reward" not in row:
                continue
            # what a trainer reads: the prompt, each turn's completion and tool calls, the reward
            prompts += len(row["responses_create_params"]["input"])
            for turn in row["response"]["turns"]:
                turns += 1
                tool_calls += len(turn["tool_calls"])
            reward_sum += row["reward"]
            # back in the bytes Sediment wrote: the schema version the row names
            schema = "nemo-gym-rollout.v%d" % row["metadata"]["schema_version"]
            out.write(sediment_rows.dumps(row, schema, style="sediment") + b"\n")
            kept += 1
    print(f"kept {kept} {args.split} rows ({prompts} prompt messages, {turns} turns, {tool_calls} tool calls, mean reward "
          f"{reward_sum / kept if kept else 0:.3f}); {invalid} invalid")
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
