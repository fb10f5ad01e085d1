#!/usr/bin/env bash
# Always runs: after success, failure, or SIGINT/SIGTERM.
rm -f "${TMPDIR:-/tmp}/check-cfps-example-token-$PPID"
echo "cleaned up"
