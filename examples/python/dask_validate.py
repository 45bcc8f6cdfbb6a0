"""Validates a sharded corpus on a Dask cluster: every file a glob or URL names, split into byte blocks.

    python3 examples/python/dask_validate.py 'rows/*.jsonl.gz' --schema nemo-gym-rollout
    python3 examples/python/dask_validate.py 's3://bucket/rows-*.jsonl' --scheduler tcp://scheduler:8786
    python3 examples/python/dask_validate.py 'rows/*.jsonl' --local 2       # a LocalCluster of 2 workers

Prints each error as FILE:LINE: POINTER: MESSAGE (exactly what `sediment-rows validate` prints), then the
counts; exits 1 when a document is invalid.
"""
import argparse
import sys

from distributed import Client, LocalCluster

import sediment_rows.dask


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="files, globs or fsspec URLs")
    parser.add_argument("--schema", default="nemo-gym-rollout")
    parser.add_argument("--blocksize", default="64 MiB", help="bytes per task for plain JSONL files")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="the address of a running cluster's scheduler")
    where.add_argument("--local", type=int, default=2, metavar="N", help="start a LocalCluster of N workers")
    args = parser.parse_args()

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(LocalCluster(n_workers=args.local, threads_per_worker=1, dashboard_address=None))
    with client:
        result = sediment_rows.dask.validate(args.paths, args.schema, blocksize=args.blocksize)
    for e in result.errors:
        print(f"{e.file}:{e.line}: {e.pointer or '(root)'}: {e.message}")
    print(f"{result.valid} valid, {result.invalid} invalid")
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
