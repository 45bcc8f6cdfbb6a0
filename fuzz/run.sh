#!/bin/sh
# Builds the libFuzzer targets (clang, ASan and UBSan), generates their seeds and runs each target for
# a bounded time, as many at a time as there are cores. Exit status 1 when any target finds a crash, a
# leak or a broken invariant; what it found is kept in BUILD/findings/ (a reproducer: BUILD/fuzz/TARGET
# FILE).
# usage: fuzz/run.sh [--minutes N | --seconds N] [TARGET...]      (default: 1 minute each, every target)
# A TARGET is fuzz-validate, fuzz-convert, fuzz-versions, fuzz-profile or fuzz-repair (links to the one binary, fuzz-rows), or
# fuzz-decode:SCHEMA, the typed decoders of one bundled schema (fuzz-decode:nemo-gym-rollout.v4).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SEDIMENT_ROWS_FUZZ_BUILD:-$root/build-fuzz}
seconds=60
targets=""
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) seconds=$(($2 * 60)); shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    -*) echo "usage: fuzz/run.sh [--minutes N | --seconds N] [TARGET...]" >&2; exit 2 ;;
    *) targets="$targets $1"; shift ;;
  esac
done
all="fuzz-decode:nemo-gym-rollout.v4 fuzz-decode:nemo-gym-response.v3 fuzz-decode:nemo-gym-responses-create-params.v2
     fuzz-decode:ci-outcome.v3 fuzz-decode:atif-v1.7 fuzz-decode:atif fuzz-decode:sft-sample.v3 fuzz-decode:dpo-pair.v4
     fuzz-decode:sediment-rlvr-rollout.v4 fuzz-decode:consumer-config fuzz-decode:nemo-gym-profile-evidence fuzz-validate fuzz-convert fuzz-versions fuzz-profile fuzz-repair"
targets=${targets:-$all}

# A build configured with SEDIMENT_ROWS_BUILD_FUZZ=ON (CI's sanitizer build) is used as it is.
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSEDIMENT_ROWS_BUILD_FUZZ=ON \
    -DSEDIMENT_ROWS_BUILD_TESTS=OFF -DSEDIMENT_ROWS_BUILD_CLI=OFF -DSEDIMENT_ROWS_BUILD_EXAMPLES=OFF \
    -DSEDIMENT_ROWS_INSTALL=OFF >/dev/null
fi
# the targets' folder: BUILD/fuzz, or in a build of tests/consumer (add_subdirectory, CI's sanitizer
# build) BUILD/sediment-rows/fuzz
bin=$build/fuzz
if [ ! -d "$bin" ] && [ -d "$build/sediment-rows/fuzz" ]; then bin=$build/sediment-rows/fuzz; fi
# one binary holds every target (fuzz-rows), run by the name of its link (fuzz-decode, ...)
cmake --build "$build" -j"$(nproc)" --target fuzz-rows >/dev/null

rm -rf "$build/seeds" && "$root/fuzz/seeds.sh" "$build/seeds"
# a dictionary: JSON's tokens and every property name of the bundled schemas
python3 - "$root/schemas" > "$build/fuzz.dict" <<'PY'
import json, os, sys
names = set()
def walk(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                names.update(value)
            walk(value)
    elif isinstance(node, list):
        for item in node:
            walk(item)
for f in sorted(os.listdir(sys.argv[1])):
    walk(json.load(open(os.path.join(sys.argv[1], f), encoding="utf-8")))
tokens = ['{', '}', '[', ']', ':', ',', 'null', 'true', 'false', '-0', '1e400', '0.1', '18446744073709551616',
          '\\u0000', '\\ud800', '"ATIF-v1.7"', '"agent"', '"user"', '"system"', '"tool_call"', '"sediment_rows"']
for i, t in enumerate(tokens + sorted('"%s"' % n for n in names)):
    print('t%d="%s"' % (i, t.replace('\\', '\\\\').replace('"', '\\"')))
PY

mkdir -p "$build/findings"
# Runs one target; its verdict goes to findings/TARGET.verdict.
run_one() {
  t=$1
  name=$(echo "$t" | tr ':' '-')  # its logs' and corpus's name
  case $t in
    fuzz-decode:nemo-gym-rollout*) seeds=rollout ;;
    fuzz-decode:nemo-gym-response.*) seeds=response ;;
    fuzz-decode:nemo-gym-responses-create-params*) seeds=create-params ;;
    fuzz-decode:ci-outcome*) seeds=ci-outcome ;;
    fuzz-decode:atif*) seeds=atif ;;
    fuzz-decode:sft-sample*|fuzz-decode:dpo-pair*|fuzz-decode:sediment-rlvr-rollout*) seeds=family ;;
    fuzz-decode:consumer-config|fuzz-decode:nemo-gym-profile-evidence) seeds=config ;;
    fuzz-versions) seeds="versions response ci-outcome" ;;
    fuzz-profile) seeds=family ;;
    fuzz-repair) seeds="atif repair" ;;
    *) seeds="rollout atif response" ;;
  esac
  dirs=""
  for s in $seeds; do dirs="$dirs $build/seeds/$s"; done
  mkdir -p "$build/corpus/$name"
  # shellcheck disable=SC2086
  if SEDIMENT_FUZZ_SCHEMA="${t#*:}" "$bin/${t%%:*}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -max_len=65536 -dict="$build/fuzz.dict" -artifact_prefix="$build/findings/$name-" -print_final_stats=1 \
       "$build/corpus/$name" $dirs > "$build/findings/$name.log" 2>&1; then
    echo ok > "$build/findings/$name.verdict"
  else
    echo found > "$build/findings/$name.verdict"
  fi
}
# as many targets at a time as there are cores (each runs on one): a worker per core takes every
# nproc-th target in turn, so that no core waits for another's target to end
for t in $targets; do rm -f "$build/findings/$(echo "$t" | tr ':' '-').verdict"; done
workers=$(nproc)
worker=0
while [ "$worker" -lt "$workers" ]; do
  (
    k=0
    for t in $targets; do
      if [ $((k % workers)) -eq "$worker" ]; then run_one "$t"; fi
      k=$((k + 1))
    done
  ) &
  worker=$((worker + 1))
done
wait
failed=0
for t in $targets; do
  name=$(echo "$t" | tr ':' '-')
  if [ "$(cat "$build/findings/$name.verdict" 2>/dev/null)" = ok ]; then
    echo "$t: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/findings/$name.log" | grep -o '[0-9]*$') runs in ${seconds} s, nothing found"
  else
    echo "$t: FOUND a problem; see $build/findings/$name.log" >&2
    tail -n 30 "$build/findings/$name.log" >&2
    failed=1
  fi
done
exit $failed
