#!/bin/sh
# The benchmark suite, every figure from the same run on the same corpus:
#   - a 44 MB corpus of rollout rows from ../shared/tools/rowgen.py (2,400 rows, seed 5, Sediment's bytes);
#   - bench/throughput.cpp: simdjson parse alone (the ceiling), nlohmann::json::parse alone, the strict
#     parse, decode() (fast path) and the exact reader alone, both encode styles, valijson;
#   - ajv (npm, installed into bench/ajv/node_modules on first use): JSON.parse + validate, the baseline;
#   - the same rows as rollout v4: check() on both corpora in alternating rounds, and their ratio;
#   - each other family's newest version (schemagen.py, 2,400 rows) beside rollout v4, the same way;
#   - decode() into owning models beside simdjson's parse_many over the same rows, on rollout v4 and each
#     family's newest version (issue 32, target 1);
#   - convert() by name, rows -> ATIF text and back (in bench/throughput.cpp);
#   - the CLI's `validate` on 1 thread and on every core, over four copies of the corpus, beside
#     simdjson's parse_many over the same file as a whole process, loaded whole (throughput --parse-many)
#     and read in 4 MiB blocks into one reused buffer (--parse-many-streamed);
#   - cores: the CLI's `validate -j 1` beside `-j 2`, and Python's validate_file() on 1 and 2 threads,
#     on a 363 MB file of v4 rows;
#   - the CLI's `lint` beside `validate` on the same 9,600 faithful v4 rows, in alternating rounds, and on
#     faithful rows of each other family's newest version (bench/faithful_family.py over schemagen.py's);
#   - the CLI's `convert` as a whole process on one core: ATIF -> response on the public trajectories
#     (200 times over), rows -> ATIF on the v4 corpus;
#   - ATIF (bench/atif.cpp, through bench/atif.py): both ATIF readers, ATIF -> response and Harbor's
#     upgrade on the public fixtures valid under each, beside NeMo Gym's own loader and pydantic on one
#     core when NEMO_GYM names a folder holding a copy of nemo_gym/atif_v1_7.py and atif_json.py;
#   - consumer profiles: `convert --to hf-trl-sft-v1` and `--to hf-trl-dpo-v2` from canonical rows on one
#     core and on every core, in MB/s of canonical rows (issue 50, target 100); `verify` of the folder on one
#     core beside bench/verify_profile.py, a straightforward Python check of it (target 5x);
#   - memory (bench/memory.py): the CLI's peak resident memory on one 100 MB row and one 100 MB
#     trajectory, and streaming a 1 GB file;
#   - the Python module (bench/python/bench.py, Debian's python3): validate, loads and dumps beside
#     json.loads, jsonschema and json.dumps on one core, read() and validate_file() on the corpus file,
#     and sediment_rows.dask on a LocalCluster of 1 and 2 worker processes.
# usage: bench/run.sh [BUILD_DIR]      (ROWGEN=path/to/rowgen.py when ../shared is elsewhere,
#                                       NEMO_GYM=DIR for the ATIF baseline)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-bench}
rowgen=${ROWGEN:-$root/../shared/tools/rowgen.py}
if [ ! -f "$rowgen" ]; then
  echo "bench: $rowgen not found; set ROWGEN=path/to/rowgen.py" >&2
  exit 2
fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSEDIMENT_ROWS_BUILD_BENCH=ON \
  -DSEDIMENT_ROWS_BUILD_TESTS=OFF -DSEDIMENT_ROWS_BUILD_EXAMPLES=OFF -DSEDIMENT_ROWS_BUILD_PYTHON=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target sediment-rows-throughput sediment-rows-atif-throughput sediment-rows-cli \
  sediment_rows_python >/dev/null

corpus=$build/bench-corpus.jsonl
[ -s "$corpus" ] || python3 "$rowgen" rows 2400 --seed 5 --sediment > "$corpus"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
"$build/sediment-rows-throughput" "$corpus" --repeat 10

# The same rows as rollout v4 (rowgen gives one seed the same rows in every version, plus what v4 adds)
corpus4=$build/bench-corpus-v4.jsonl
[ -s "$corpus4" ] || python3 "$rowgen" rows 2400 --seed 5 --sediment --version 4 > "$corpus4"
"$build/sediment-rows-throughput" "$corpus" --schema nemo-gym-rollout.v2 --versions "$corpus4" nemo-gym-rollout.v4 --repeat 10

# Every other family at the rollout rows' speed per byte: schemagen.py's rows of each family's newest
# version (Sediment's bytes), validate() beside rollout v4's in alternating rounds, and the ratio; then
# simdjson's parse alone of both corpora, and its own ratio.
schemagen=$(dirname "$rowgen")/schemagen.py
for name in sft-sample.v3 dpo-pair.v4 diff-sft-sample.v3 recovery-row.v3 swe-bench-task.v3 sediment-rlvr-task.v3 sediment-rlvr-rollout.v4; do
  family=$build/bench-family-$name.jsonl
  [ -s "$family" ] || python3 "$schemagen" "$name" 2400 --seed 5 --sediment > "$family"
  "$build/sediment-rows-throughput" "$corpus4" --schema nemo-gym-rollout.v4 --versions "$family" "$name" --repeat 10 | sed -n '2p;3p;6p;9p'
done

# decode() into owning models beside simdjson's parse_many over the same rows, and beside its parse of each
# line in place (one reused parser, each line with room for the padding: a user's loop; issue 52, target
# 0.6x for decode() in place into one reused row), one core (issue 32, target 1):
# rollout v4, then each family's newest version, without the rows simdjson refuses (integers beyond 64 bits);
# and validate() alone, the verdict every decode() carries, which bounds it.
echo "decode() / parse_many (target 0.6x):"
taskset -c 0 "$build/sediment-rows-throughput" "$corpus4" --schema nemo-gym-rollout.v4 --repeat 10 --only "parse_many,in place,validate(),decode()"
for name in sft-sample.v3 dpo-pair.v4 diff-sft-sample.v3 recovery-row.v3 swe-bench-task.v3 sediment-rlvr-task.v3 sediment-rlvr-rollout.v4; do
  taskset -c 0 "$build/sediment-rows-throughput" "$build/bench-family-$name.jsonl" --schema "$name" --repeat 10 --only "parse_many,in place,validate(),decode()" \
    --simdjson-only 1
done

if command -v node >/dev/null && command -v npm >/dev/null; then
  [ -d "$root/bench/ajv/node_modules/ajv" ] || (cd "$root/bench/ajv" && npm install --silent --no-audit --no-fund >/dev/null)
  node "$root/bench/ajv/validate.mjs" "$root/schemas/nemo-gym-rollout.v2.schema.json" "$corpus" 5
else
  echo "ajv baseline skipped: node and npm not found"
fi

big=$build/bench-corpus-x4.jsonl
[ -s "$big" ] || { cat "$corpus" "$corpus" "$corpus" "$corpus" > "$big"; }
big4=$build/bench-corpus-v4-x4.jsonl
[ -s "$big4" ] || { cat "$corpus4" "$corpus4" "$corpus4" "$corpus4" > "$big4"; }
python3 - "$build/sediment-rows" "$big" "$big4" "$(nproc)" "$build/sediment-rows-throughput" <<'PY'
import os, subprocess, sys, time
cli, corpus, corpus4, cores, throughput = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
def timed(command, path):
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return os.path.getsize(path) / min(times) / 1e6
def best(jobs, path=corpus, schema="nemo-gym-rollout.v2"):
    return timed([cli, "validate", "--schema", schema, "-j", str(jobs), path], path)
ceiling = timed([throughput, "--parse-many", corpus], corpus)  # a whole process too: load, parse every row
streamed = timed([throughput, "--parse-many-streamed", corpus], corpus)  # 4 MiB blocks into one buffer (issue 52)
one, all_ = best(1), best(cores)
print(f"{'simdjson parse_many, whole process':34} {ceiling:9.1f} MB/s")
print(f"{'simdjson parse_many, streamed':34} {streamed:9.1f} MB/s")
print(f"{'CLI validate, 1 thread':34} {one:9.1f} MB/s   ({one / ceiling:.2f}x parse_many, {one / streamed:.2f}x streamed)")
print(f"{'CLI validate, %d threads' % cores:34} {all_:9.1f} MB/s   ({all_ / one:.2f}x)")
v4 = best(1, corpus4, "nemo-gym-rollout.v4")
print(f"{'CLI validate v4 rows, 1 thread':34} {v4:9.1f} MB/s   ({v4 / one:.2f}x v2)")
PY

# Cores (issue 32, target 6): `validate -j 1` and `-j 2` on a 363 MB file (eight copies of the v4 corpus),
# the CLI as a whole process, in alternating rounds; and Python's validate_file() with 1 and 2 threads.
big8=$build/bench-corpus-v4-x8.jsonl
[ -s "$big8" ] || { cat "$big4" "$big4" > "$big8"; }
PYTHONPATH="$build/python" /usr/bin/python3 - "$build/sediment-rows" "$big8" <<'PY'
import os, subprocess, sys, time
import sediment_rows
cli, path = sys.argv[1], sys.argv[2]
size = os.path.getsize(path) / 1e6
def best_of(rounds, runs):
    times = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: size / min(t) for name, t in times.items()}
command = lambda jobs: lambda: subprocess.run([cli, "validate", "--schema", "nemo-gym-rollout.v4", "-j", str(jobs), path],
                                              check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
mb = best_of(5, {1: command(1), 2: command(2)})
print(f"{'CLI validate, %.0f MB file, -j 1 / -j 2' % size:34} {mb[1]:7.1f} / {mb[2]:.1f} MB/s   ({mb[2] / mb[1]:.2f}x)")
threads = lambda jobs: lambda: sediment_rows.validate_file(path, "nemo-gym-rollout.v4", jobs=jobs)
mb = best_of(5, {1: threads(1), 2: threads(2)})
print(f"{'Python validate_file, 1 / 2 threads':34} {mb[1]:7.1f} / {mb[2]:.1f} MB/s   ({mb[2] / mb[1]:.2f}x)")
PY

# lint beside validate on the same file (faithful v4 rows: every rule runs, nothing is found), in
# alternating rounds, on 1 thread and on every core
faithful=$build/bench-corpus-faithful-v4.jsonl
[ -s "$faithful" ] || python3 "$rowgen" rows 9600 --seed 5 --faithful --sediment --version 4 > "$faithful"
python3 - "$build/sediment-rows" "$faithful" "$(nproc)" <<'PY'
import os, subprocess, sys, time
cli, path, cores = sys.argv[1], sys.argv[2], int(sys.argv[3])
size = os.path.getsize(path)
for jobs in (1, cores):
    best = {"validate": 0.0, "lint": 0.0}
    for _ in range(3):
        for command in ("validate", "lint"):
            start = time.perf_counter()
            subprocess.run([cli, command, "--schema", "nemo-gym-rollout.v4", "-j", str(jobs), path], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            best[command] = max(best[command], size / (time.perf_counter() - start) / 1e6)
    print(f"{'CLI lint, %d thread%s' % (jobs, 's' if jobs > 1 else ''):34} {best['lint']:9.1f} MB/s   "
          f"({best['lint'] / best['validate']:.2f}x validate's {best['validate']:.1f} MB/s, same file)")
PY

# lint beside validate on each other family's newest version (issue 49, target 0.8x): schemagen.py's rows
# (10,000, Sediment's bytes) made faithful by bench/faithful_family.py, so that every rule runs and
# nothing is found; the same alternating rounds, and the CPU time of each beside its wall time
for name in sft-sample.v3 dpo-pair.v4 diff-sft-sample.v3 recovery-row.v3 swe-bench-task.v3 sediment-rlvr-task.v3 sediment-rlvr-rollout.v4; do
  family=$build/bench-lint-$name.jsonl
  [ -s "$family" ] || python3 "$schemagen" "$name" 10000 --seed 5 --sediment | python3 "$root/bench/faithful_family.py" "${name%.v*}" > "$family"
done
python3 - "$build/sediment-rows" "$(nproc)" "$build" <<'PY'
import os, resource, subprocess, sys, time
cli, cores, build = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def run(command, jobs, name, path):
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run([cli, command, "-q", "--schema", name, "-j", str(jobs), path], check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter() - start, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
for name in ("sft-sample.v3", "dpo-pair.v4", "diff-sft-sample.v3", "recovery-row.v3", "swe-bench-task.v3",
             "sediment-rlvr-task.v3", "sediment-rlvr-rollout.v4"):
    path = os.path.join(build, f"bench-lint-{name}.jsonl")
    for jobs in (1, cores):
        best = {c: [1e9, 1e9] for c in ("validate", "lint")}
        for _ in range(5):
            for command in best:
                wall, cpu = run(command, jobs, name, path)
                best[command] = [min(best[command][0], wall), min(best[command][1], cpu)]
        (vw, vc), (lw, lc) = best["validate"], best["lint"]
        print(f"{'CLI lint ' + name + ', -j %d' % jobs:40} {os.path.getsize(path) / lw / 1e6:7.1f} MB/s   "
              f"({vw / lw:.2f}x validate's wall time, {vc / lc:.2f}x its CPU time)")
PY

fixtures=$(dirname "$rowgen")/../fixtures/atif
python3 "$root/bench/atif.py" "$build/sediment-rows-atif-throughput" "$fixtures" ${NEMO_GYM:+--gym "$NEMO_GYM"}

# Conversions by the CLI as a whole process, one core (issue 32, target 5): ATIF -> response on the public
# trajectories valid under NeMo Gym's subset, one per line, 200 times over; and rows -> ATIF on the v4
# corpus. Best of 3.
trajectories=$build/bench-atif-x200.jsonl
[ -s "$trajectories" ] || python3 - "$fixtures" "$trajectories" <<'PY'
import json, os, sys
fixtures, out = sys.argv[1], sys.argv[2]
names = [l.split("\t")[0] for l in open(os.path.join(fixtures, "EXPECTED.tsv"), encoding="utf-8")
         if not l.startswith("#") and l.strip() and l.rstrip("\n").split("\t")[1:2] == ["valid"]]
lines = [json.dumps(json.load(open(os.path.join(fixtures, n), encoding="utf-8")), ensure_ascii=False) for n in sorted(names)]
with open(out, "w", encoding="utf-8") as f:
    f.write("".join(l + "\n" for l in lines) * 200)
PY
python3 - "$build/sediment-rows" "$trajectories" "$corpus4" <<'PY'
import os, subprocess, sys, time
cli, trajectories, rows = sys.argv[1:4]
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core, inherited by the child
def best(command, path):
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(command + [path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # losses exit 0 with --lossy
        times.append(time.perf_counter() - start)
    return os.path.getsize(path) / min(times) / 1e6
to_response = best([cli, "convert", "--from", "atif-v1.7", "--to", "nemo-gym-response.v3", "--lossy", "-q", "-j", "1"], trajectories)
to_atif = best([cli, "convert", "--from", "nemo-gym-rollout.v4", "--to", "atif-v1.7", "-q", "-j", "1"], rows)
print(f"{'CLI convert ATIF -> response, 1 core':34} {to_response:9.1f} MB/s   (target 100, whole process)")
print(f"{'CLI convert rows -> ATIF, 1 core':34} {to_atif:9.1f} MB/s   (target 100, whole process)")
PY

# Consumer profiles (issue 50): schemagen.py's canonical rows (20,000, Sediment's bytes) less the eval rows
# whose prompt a train row has (bench/profile_rows.py: Sediment refuses such an export); convert --to on one
# core and on every core, then verify of the folder on one core beside bench/verify_profile.py, best of 3.
for name in sft-sample.v3 dpo-pair.v4; do
  canonical=$build/bench-profile-$name.jsonl
  [ -s "$canonical" ] || python3 "$schemagen" "$name" 20000 --seed 5 --sediment | python3 "$root/bench/profile_rows.py" > "$canonical"
done
python3 - "$build/sediment-rows" "$build" "$root/bench/verify_profile.py" <<'PY'
import os, shutil, subprocess, sys, time
cli, build, baseline = sys.argv[1:4]
cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
def best(command, before=None, one_core=True):
    times = []
    for _ in range(3):
        if before: before()
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       preexec_fn=(lambda: os.sched_setaffinity(0, {cores[0]})) if one_core and cores else None)
        times.append(time.perf_counter() - start)
    return min(times)
for profile, name in (("hf-trl-sft-v1", "sft-sample.v3"), ("hf-trl-dpo-v2", "dpo-pair.v4")):
    canonical = os.path.join(build, f"bench-profile-{name}.jsonl")
    out = os.path.join(build, f"bench-profile-{profile}")
    clear = lambda: shutil.rmtree(out, ignore_errors=True)
    size = os.path.getsize(canonical)
    for one in (True, False):
        t = best([cli, "convert", "-q", "--to", profile, "--out", out, canonical], clear, one)
        label = f"CLI convert --to {profile}, " + ("1 core" if one else "every core")
        print(f"{label:44} {size / t / 1e6:7.1f} MB/s   (target 100, canonical rows, whole process)")
    folder = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    ours = best([cli, "verify", "-q", out])
    theirs = best(["/usr/bin/python3", baseline, out])
    print(f"{'CLI verify ' + profile + ', 1 core':44} {folder / ours / 1e6:7.1f} MB/s   "
          f"({theirs / ours:.2f}x bench/verify_profile.py's {folder / theirs / 1e6:.1f} MB/s, target 5x)")
PY

# the shards of the Dask jobs that only read (validate, lint): faithful v4 rows of distinct sessions, a
# seed each, 48 x 24 MB (at their speed a run over less lasts too little for two workers to show)
seq 1 48 | xargs -P 2 -I{} sh -c '[ -s "$1/bench-read-shard-$2.jsonl" ] ||
  python3 "$0" rows 1200 --seed "$2" --faithful --sediment --version 4 > "$1/bench-read-shard-$2.jsonl"' "$rowgen" "$build" {}
PYTHONPATH="$build/python" /usr/bin/python3 "$root/bench/python/bench.py" "$corpus" --dask-shards "$build"/bench-read-shard-*.jsonl
python3 "$root/bench/memory.py" "$build/sediment-rows"
