"""The Python module's throughput beside Python's own JSON reader and jsonschema, on one core, and
sediment_rows.dask's jobs on one and two worker processes; every figure from the same run on the same corpus.

    /usr/bin/python3 bench/python/bench.py CORPUS.jsonl [--repeat N] [--jsonschema-rows N] [--dask-copies K]
                                           [--dask-shards FILE...] [--dask-jobs JOB...]

with the module importable (PYTHONPATH=BUILD/python). bench/run.sh runs it on its corpus. Figures are
MB/s of JSONL text, the best of N repetitions; jsonschema, too slow for the whole corpus, runs on its
first rows. The Dask stage runs each job (validate, lint, upgrade, convert, format) over K copies of
the corpus (validate and lint over the --dask-shards, when given) on a fresh LocalCluster of 1 and then
2 workers (one thread each), three rounds in turn, the best of (N + 1) / 2 runs in each, and gives the
ratio and each worker's peak resident memory; the cluster's start is not timed.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

import sediment_rows


def best(repeat, work):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def line(name, mb_per_s, note=""):
    print(f"{name:46} {mb_per_s:9.1f} MB/s{('   ' + note) if note else ''}")


def one_core_stages(lines, size, schema, repeat, jsonschema_rows):
    import jsonschema

    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core, as a trainer's worker
    validator = jsonschema.Draft202012Validator(json.loads(sediment_rows.schema_text(schema)))
    sample = lines[:jsonschema_rows]
    sample_size = sum(len(l) + 1 for l in sample)

    def js():
        for l in sample:
            validator.validate(json.loads(l))

    loads_s = best(repeat, lambda: [json.loads(l) for l in lines])
    js_mb = sample_size / best(max(1, repeat // 3), js) / 1e6
    json_mb = size / loads_s / 1e6
    line("json.loads (the baseline)", json_mb)
    line("json.loads + jsonschema (first %d rows)" % len(sample), js_mb)
    validate_mb = size / best(repeat, lambda: [sediment_rows.validate(l, schema) for l in lines]) / 1e6
    line("sediment_rows.validate (bytes)", validate_mb,
         f"{validate_mb / json_mb:.2f}x json.loads, {validate_mb / js_mb:.1f}x json.loads + jsonschema")
    try:
        import ujson  # Debian's python3-ujson (cmake/install-deps.sh --bench)
        ujson_mb = size / best(repeat, lambda: [ujson.loads(l) for l in lines]) / 1e6
        line("ujson.loads", ujson_mb)
    except ImportError:
        ujson_mb = None
        print("ujson.loads skipped: ujson is not installed (cmake/install-deps.sh --bench)")
    loads_mb = size / best(repeat, lambda: [sediment_rows.loads(l, schema) for l in lines]) / 1e6
    line("sediment_rows.loads", loads_mb, f"{loads_mb / json_mb:.2f}x json.loads" +
         (f", {loads_mb / ujson_mb:.2f}x ujson.loads" if ujson_mb else ""))
    values = [json.loads(l) for l in lines]
    dumps_json = size / best(repeat, lambda: [json.dumps(v).encode() for v in values]) / 1e6
    line("json.dumps", dumps_json)
    dumps_mb = size / best(repeat, lambda: [sediment_rows.dumps(v, schema, "sediment") for v in values]) / 1e6
    line("sediment_rows.dumps (Sediment's bytes, checked)", dumps_mb, f"{dumps_mb / dumps_json:.2f}x json.dumps")


def file_stages(path, size, schema, repeat, cores):
    for jobs in sorted({1, cores}):
        mb = size / best(repeat, lambda: sediment_rows.validate_file(path, schema, jobs=jobs)) / 1e6
        line(f"validate_file, {jobs} thread(s)", mb)
    for jobs in (1, cores, None):
        mb = size / best(repeat, lambda: sum(1 for _ in sediment_rows.read(path, schema, jobs=jobs))) / 1e6
        line(f"read (values), {jobs or 'default'} thread(s)", mb)


def _peak_rss_mb():
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def dask_stage(path, schema, copies, repeat, read_shards=None, only=None, rounds=3):
    """Every job of sediment_rows.dask (or those `only` names) on `copies` shards of the corpus, on a
    fresh LocalCluster of 1 and then 2 worker processes, `rounds` times in turn: MB/s of input (the best
    of every round's best of `repeat` runs), the ratio, and each worker's peak resident memory. The
    jobs that only read (validate, lint) run on `read_shards` when given: faithful rollout rows of
    distinct sessions (copies of one corpus repeat every session, and each copied row is a lint
    finding), and a corpus large enough that a run lasts seconds at their speed."""
    import distributed
    import sediment_rows.dask as jobs

    folder = tempfile.mkdtemp(prefix="sediment-rows-dask-")
    out = os.path.join(folder, "out")
    blocksize = "16 MiB"
    try:
        shards = []
        for k in range(copies):
            shards.append(os.path.join(folder, f"shard-{k}.jsonl"))
            shutil.copyfile(path, shards[-1])
        reads, read_schema = (read_shards, "nemo-gym-rollout") if read_shards else (shards, schema)
        runs = {  # job: (its input files, a run that returns how many documents failed)
            "validate": (reads, lambda: jobs.validate(reads, read_schema, blocksize=blocksize).invalid),
            "lint": (reads, lambda: jobs.lint(reads, "nemo-gym-rollout", blocksize=blocksize).invalid),
            "upgrade to v4": (shards, lambda: jobs.upgrade(shards, "nemo-gym-rollout.v4", out, lossy=True, blocksize=blocksize).failed),
            "convert to ATIF": (shards, lambda: jobs.convert(shards, schema, "atif-v1.7", out, blocksize=blocksize).failed),
            "format (sediment)": (shards, lambda: jobs.format(shards, schema, out, style="sediment", blocksize=blocksize).failed),
        }
        for job, (inputs, run) in runs.items():
            if only and not any(job.startswith(name) for name in only):
                continue
            size = sum(os.path.getsize(p) for p in inputs)
            rates, peaks = {1: 0.0, 2: 0.0}, {1: [], 2: []}
            for _ in range(rounds):  # 1 and 2 workers in turn: a slow spell of a shared machine hits both
                for workers in (1, 2):
                    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                  dashboard_address=None, silence_logs=40) as cluster, \
                            distributed.Client(cluster) as client:
                        failed = run()  # warm: imports, page cache
                        assert failed == 0, (job, failed)
                        rates[workers] = max(rates[workers], size / best(repeat, run) / 1e6)
                        peaks[workers] += client.run(_peak_rss_mb).values()
            for workers in (1, 2):
                line(f"dask {job}, {workers} worker(s)", rates[workers],
                     (f"{rates[2] / rates[1]:.2f}x one worker; " if workers == 2 else "") +
                     f"peak RSS per worker {min(peaks[workers]):.0f}-{max(peaks[workers]):.0f} MB (blocks of {blocksize})")
    finally:
        shutil.rmtree(folder)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus")
    parser.add_argument("--schema", default="nemo-gym-rollout.v2")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--jsonschema-rows", type=int, default=100)
    parser.add_argument("--dask-copies", type=int, default=8)
    parser.add_argument("--dask-shards", nargs="*", help="faithful rollout rows of distinct sessions, for the Dask validate and lint")
    parser.add_argument("--dask-jobs", nargs="*", help="only these Dask jobs (validate, lint, upgrade, convert, format)")
    args = parser.parse_args()
    with open(args.corpus, "rb") as f:
        lines = [l for l in f.read().splitlines() if l.strip()]
    size = sum(len(l) + 1 for l in lines)
    cores = len(os.sched_getaffinity(0))
    print(f"python {sys.version.split()[0]}, sediment_rows {sediment_rows.__version__}, {len(lines)} rows, {size / 1e6:.1f} MB")
    # the Dask stage and the threads first, while every core is this process's; then one core
    dask_stage(args.corpus, args.schema, args.dask_copies, max(1, (args.repeat + 1) // 2), args.dask_shards, args.dask_jobs)
    file_stages(args.corpus, size, args.schema, args.repeat, cores)
    one_core_stages(lines, size, args.schema, args.repeat, args.jsonschema_rows)


if __name__ == "__main__":
    main()
