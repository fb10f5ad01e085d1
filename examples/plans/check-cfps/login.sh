#!/usr/bin/env bash
# The heal command: refreshes the login token, so the step can be run again.
touch "${TMPDIR:-/tmp}/check-cfps-example-token-$PPID"
echo "logged in" >&2
