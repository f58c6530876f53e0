#!/usr/bin/env bash
# The test suite's wall time on a machine whose other core is busy: `npm test` while one
# `node -e 'for(;;){}'` runs beside it (BENCHMARKS.md, "The test suite beside a busy core").
# Prints the suite's summary and the wall time; the busy process is ended however the run ends.
set -uo pipefail
cd "$(dirname "$0")/.."
node -e 'for(;;){}' &
busy=$!
trap 'kill "$busy" 2>/dev/null' EXIT
SECONDS=0
npm test > "${SUITE_LOG:-/tmp/suite-under-load.log}" 2>&1
status=$?
wall=$SECONDS
sed 's/\x1b\[[0-9;]*m//g' "${SUITE_LOG:-/tmp/suite-under-load.log}" | grep -E '^ +(Test Files|Tests) '
printf 'npm test beside a busy core: %d s wall, exit %d\n' "$wall" "$status"
exit $status
