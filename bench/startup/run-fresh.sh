#!/bin/bash
# One `run examples/embedded-signing.yaml` of a given bin with its in-process sandbox (no DOCUSIGN_ROOT_URL),
# into a fresh --out and --state, for bench/startup/cpu-ab.sh. Usage: bench/startup/run-fresh.sh <bin.js>
bin=$(realpath "$1")
work=$(mktemp -d /tmp/signrun-run-fresh-XXXXXX)
cd "$(dirname "$0")/../.." && env -u DOCUSIGN_ROOT_URL node "$bin" run examples/embedded-signing.yaml --out "$work/out" --state "$work/state" >/dev/null 2>&1
rc=$?
rm -rf "$work"
exit $rc
