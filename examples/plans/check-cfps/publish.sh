#!/usr/bin/env bash
# Publishing needs a fresh login token; without one it fails 77 (EX_NOPERM) with "token expired".
token="${TMPDIR:-/tmp}/check-cfps-example-token-$PPID"
if [ ! -f "$token" ]; then echo "publish: token expired" >&2; exit 77; fi
echo "published cfp-12 and cfp-19"
