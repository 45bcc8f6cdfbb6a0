#!/bin/sh
# Installs what sediment-rows needs to build and test, from Debian's packages (Debian 12).
# valijson's package depends on ~70 unrelated packages (Qt5, Poco, ...), so only its headers are
# installed, under /usr/local. Run as root, or as a user with sudo.
#   --sanitizers   also clang and its runtimes (libFuzzer, ASan, UBSan), for fuzz/ and the sanitizer build
#   --docs         also doxygen, for the API reference (docs/Doxyfile, docs/check.sh)
#   --bench        also python3-ujson, a baseline of bench/python/bench.py
set -eu
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
# Another apt (an unattended upgrade, a second install) holding the lock is waited for, not a failure.
APT="apt-get -o DPkg::Lock::Timeout=600"

packages="g++ cmake ninja-build make python3 python3-jsonschema nlohmann-json3-dev libsimdjson-dev catch2 libgtest-dev libgmock-dev
  pkg-config zlib1g-dev pybind11-dev python3-dev python3-pytest python3-dask python3-distributed python3-fsspec mypy"
for option in "$@"; do
  case "$option" in
    --sanitizers) packages="$packages clang libclang-rt-14-dev" ;;
    --docs) packages="$packages doxygen" ;;
    --bench) packages="$packages python3-ujson" ;;
    *) echo "install-deps.sh: unknown option $option" >&2; exit 2 ;;
  esac
done
# One apt-get call for everything, and none when everything is installed already.
# shellcheck disable=SC2086
if ! dpkg-query -W -f='${Status}\n' $packages 2>/dev/null | grep -qv '^install ok installed$' &&
   [ "$(dpkg-query -W -f='${Status}\n' $packages 2>/dev/null | wc -l)" -eq "$(echo $packages | wc -w)" ]; then
  :
else
  $SUDO $APT update -qq
  # shellcheck disable=SC2086
  $SUDO env DEBIAN_FRONTEND=noninteractive $APT install -y -qq --no-install-recommends $packages >/dev/null
fi

if [ ! -f /usr/include/valijson/validator.hpp ] && [ ! -f /usr/local/include/valijson/validator.hpp ]; then
  tmp=$(mktemp -d) && chmod 755 "$tmp"
  (cd "$tmp" && $APT download -qq libvalijson-dev >/dev/null && dpkg -x libvalijson-dev_*.deb root)
  $SUDO mkdir -p /usr/local/include /usr/local/share/cmake
  $SUDO cp -r "$tmp/root/usr/include/valijson" /usr/local/include/
  $SUDO cp -r "$tmp/root/usr/share/cmake/valijson" /usr/local/share/cmake/
  rm -rf "$tmp"
fi
echo "sediment-rows: dependencies installed"
