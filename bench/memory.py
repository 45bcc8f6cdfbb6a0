"""Peak resident memory of `sediment-rows validate`, as issue 16 measures it: one 100 MB document (a
rollout row, and an ATIF trajectory, each holding a 100 MB string, with the limits raised), and a 1 GB
file of rows streamed. Each run is a child process whose peak (ru_maxrss from wait4) is its own.

    python3 bench/memory.py BUILD/sediment-rows [--stream-mb 1000]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def peak_mb(command):
    """Runs `command` with its output discarded; its exit status and its peak resident MB. A child's
    ru_maxrss starts at its parent's peak, so this process never holds a big document: another one
    writes them (--write)."""
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen(command, stdout=null, stderr=null)
        _, status, usage = os.wait4(child.pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024


def write_documents(folder, size, stream_mb):
    """The two big documents and the stream file, written into `folder`."""
    with open(os.path.join(ROOT, "examples", "rows.jsonl")) as f:
        row = json.loads(f.readline())
    with open(os.path.join(ROOT, "examples", "trajectory.json")) as f:
        trajectory = json.load(f)
    row["responses_create_params"]["input"][1]["parts"][0]["content"] = "a" * size
    trajectory["steps"][1]["message"] = "a" * size
    with open(os.path.join(folder, "rows.jsonl"), "w") as f:
        f.write(json.dumps(row) + "\n")
    with open(os.path.join(folder, "trajectory.json"), "w") as f:
        f.write(json.dumps(trajectory) + "\n")
    with open(os.path.join(ROOT, "examples", "rows.jsonl"), "rb") as f:
        block = f.read() * 2000
    with open(os.path.join(folder, "stream.jsonl"), "wb") as f:
        while f.tell() < stream_mb * 1_000_000:
            f.write(block)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cli")
    parser.add_argument("--stream-mb", type=int, default=1000)
    parser.add_argument("--write", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args()
    big = 100_000_000
    if args.write:
        return write_documents(args.write, big, args.stream_mb)
    limits = ["--max-string-bytes", str(2 * big), "--max-document-bytes", str(2 * big)]
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, __file__, args.cli, "--stream-mb", str(args.stream_mb), "--write", folder], check=True)
        for name, file, schema in (("a rollout row", "rows.jsonl", "nemo-gym-rollout.v2"),
                                   ("an ATIF trajectory", "trajectory.json", "atif-v1.7")):
            path = os.path.join(folder, file)
            status, mb = peak_mb([args.cli, "validate", "--schema", schema, *limits, path])
            size = os.path.getsize(path) / 2 ** 20
            print(f"one {size:.0f} MiB document, {name:20} peak {mb:7.1f} MiB = {mb / size:.2f}x its size"
                  f"{'' if status == 0 else '  (exit %d)' % status}")
        path = os.path.join(folder, "stream.jsonl")
        status, mb = peak_mb([args.cli, "validate", "--schema", "nemo-gym-rollout.v2", path])
        print(f"a {os.path.getsize(path) / 1e9:.2f} GB file of rows, streamed             peak {mb:7.1f} MiB"
              f"{'' if status == 0 else '  (exit %d)' % status}")
        status, mb = peak_mb([args.cli, "--version"])
        print(f"the CLI doing nothing                        peak {mb:7.1f} MiB")


if __name__ == "__main__":
    sys.exit(main())
