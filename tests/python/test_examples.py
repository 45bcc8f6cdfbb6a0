"""The Python examples (examples/python/) run as users run them, their output checked against the data."""
import json
import os
import subprocess
import sys

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")
ROW_PATH = os.path.join(EXAMPLES, "rows.jsonl")


def run(script, *args):
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, "python", script), *args], capture_output=True)


def test_trainer_loop_keeps_the_train_rows_with_a_reward_byte_for_byte(tmp_path):
    with open(ROW_PATH, "rb") as f:
        lines = [l for l in f.read().splitlines() if l.strip()]
    source = tmp_path / "rows.jsonl"
    source.write_bytes(b"\n".join(lines + [b'{"broken": ']) + b"\n")
    out = tmp_path / "kept.jsonl"
    r = run("trainer_loop.py", str(source), str(out))
    expected = [l for l in lines if json.loads(l)["metadata"]["split"] == "train" and "reward" in json.loads(l)]
    assert expected and out.read_bytes() == b"".join(l + b"\n" for l in expected)
    assert r.returncode == 1
    assert r.stderr.decode().startswith(f"{source}:{len(lines) + 1}: /broken: invalid JSON at byte 11")
    assert r.stdout.decode().startswith(f"kept {len(expected)} train rows") and "1 invalid" in r.stdout.decode()
    eval_run = run("trainer_loop.py", ROW_PATH, str(out), "--split", "eval")
    assert eval_run.returncode == 0 and out.read_bytes() == b""  # the eval row has no reward


def test_dask_example_prints_what_the_cli_prints(tmp_path):
    with open(ROW_PATH, "rb") as f:
        lines = [l for l in f.read().splitlines() if l.strip()]
    shards = []
    for k in range(3):
        path = tmp_path / f"shard-{k}.jsonl"
        path.write_bytes(b"\n".join(lines[k:] + [lines[0][:-1] + b', "x": %d}' % k]) + b"\n")
        shards.append(str(path))
    r = run("dask_validate.py", str(tmp_path / "shard-*.jsonl"), "--blocksize", "2000", "--local", "2")
    cli = subprocess.run([os.environ["SEDIMENT_ROWS_CLI"], "validate", "--schema", "nemo-gym-rollout", *shards], capture_output=True)
    assert r.returncode == cli.returncode == 1
    assert r.stdout.decode().splitlines()[:-1] == cli.stdout.decode().splitlines()
    assert r.stdout.decode().splitlines()[-1] == "6 valid, 3 invalid"
