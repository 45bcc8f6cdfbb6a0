#!/bin/sh
# Builds and runs tests/consumer against sediment-rows the three ways users link it: find_package()
# after `cmake --install`, add_subdirectory() of the checkout, and pkg-config; then the Python package
# as installed.
#   tests/consumer/run.sh [--configure-subdirectory] [BUILD_DIR]
#   (BUILD_DIR: a configured and built sediment-rows build; default build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
configure_only=0
if [ "${1:-}" = --configure-subdirectory ]; then configure_only=1; shift; fi
build=$(cd "${1:-$root/build}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
echo "consumer: find_package() after cmake --install"
cmake -S "$root/tests/consumer" -B "$work/installed" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/installed" -j"$(nproc)" >/dev/null
"$work/installed/consumer"

# no optimisation and no debug information: this build shows that the project builds as a subdirectory,
# with clang where it is installed (CI's sanitizer build installs it): the other compiler, and the faster.
# With --configure-subdirectory, only configured (with its defaults: none of sediment-rows' own
# targets): CI builds the project so, with clang and its tests, in its sanitizer build.
echo "consumer: add_subdirectory()"
compiler=""
if command -v clang++ >/dev/null && command -v clang >/dev/null; then
  echo "consumer: (with clang++)"
  compiler="-DCMAKE_CXX_COMPILER=clang++"
fi
# shellcheck disable=SC2086
cmake -S "$root/tests/consumer" -B "$work/subdirectory" -DSEDIMENT_ROWS_SOURCE_DIR="$root" -DCMAKE_BUILD_TYPE= $compiler >/dev/null
if [ "$configure_only" = 1 ]; then
  echo "consumer: (configured; built by CI's sanitizer build)"
else
  cmake --build "$work/subdirectory" -j"$(nproc)" >/dev/null
  "$work/subdirectory/consumer"
fi

echo "consumer: pkg-config"
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
[ "$(pkg-config --modversion sediment-rows)" = "$("$work/installed/consumer" | sed 's/^consumer: sediment-rows \([^,]*\),.*/\1/')" ]
# shellcheck disable=SC2046
c++ -std=c++17 -O1 "$root/tests/consumer/main.cpp" -o "$work/pkg-config-consumer" $(pkg-config --cflags --libs sediment-rows)
"$work/pkg-config-consumer"

echo "consumer: the installed Python package (Debian's python3, outside the build tree)"
site=$(find "$work/prefix" -type d -name sediment_rows -path "*-packages/*" | head -n 1)
[ -n "$site" ] && [ -f "$site/_native.pyi" ] && [ -f "$site/py.typed" ]
# A smoke test of what differs from the build tree, where the whole suite ran: the files installed
# (the native part, the package, the examples' use of them), reading files on every core, and Dask.
(cd "$work" && PYTHONPATH=$(dirname "$site") SEDIMENT_ROWS_CLI="$work/prefix/bin/sediment-rows" \
  SEDIMENT_ROWS_SHARED_DIR="$root/../shared" /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider \
  -k "version_and_schemas or schema_text or loads_and_dumps or read_yields or convert_rows or data_first or examples or two_worker" \
  "$root/tests/python")
(cd "$work" && PYTHONPATH=$(dirname "$site") /usr/bin/python3 -c "import sediment_rows, sys; assert sediment_rows.__file__.startswith('$work'), sediment_rows.__file__")
