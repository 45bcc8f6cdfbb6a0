#!/bin/sh
# Fails when a public declaration has no comment, or the reference has any other warning: runs
# doxygen over docs/Doxyfile with warnings as errors, into a scratch folder (build/docs-check).
# Needs doxygen (./cmake/install-deps.sh --docs).
set -eu
cd "$(dirname "$0")/.."
command -v doxygen >/dev/null || { echo "docs/check.sh: doxygen not found (./cmake/install-deps.sh --docs)" >&2; exit 2; }
mkdir -p build  # (doxygen makes the last folder of a path only)
{ cat docs/Doxyfile; echo "WARN_AS_ERROR = FAIL_ON_WARNINGS"; echo "OUTPUT_DIRECTORY = build/docs-check"; } | doxygen -
echo "docs/check.sh: every public declaration is documented; no warnings"
