#!/bin/sh
# The cost of including the library: the compile time of a translation unit that includes
# <sediment/rows.hpp> and decodes one row (bench/compile/rows.cpp), against one that includes
# <nlohmann/json.hpp> and parses one document (bench/compile/nlohmann.cpp), alternately, best of N each.
#   bench/compile_time.sh [BUILD_DIR] [N]     (a configured build, for <sediment/rows/version.hpp>; N: 5)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
n=${2:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
best() {  # the best wall time of compiling $1, in ms
  b=""
  for _ in $(seq "$n"); do
    s=$(date +%s%N)
    ${CXX:-c++} -std=c++17 -O2 -I"$root/include" -I"$build/include" -c "$root/bench/compile/$1.cpp" -o "$out/$1.o"
    t=$(( ($(date +%s%N) - s) / 1000000 ))
    if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
  done
  echo "$b"
}
nl=$(best nlohmann)
rows=$(best rows)
echo "compile: <nlohmann/json.hpp> and a parse ${nl} ms; <sediment/rows.hpp> and a decode ${rows} ms; ratio $(echo "scale=2; $rows / $nl" | bc)x (best of $n)"
