#!/usr/bin/env bash
# A demo skill: its nightly budget runs out after two of five CFPs, so it records the skip and stops blocked (exit 2).
set -euo pipefail
skip_summary=${SKIP_SUMMARY_BIN:-skip-summary}
left=(cfp-103 cfp-104 cfp-105)
echo "checked cfp-101 and cfp-102"
items=()
for id in "${left[@]}"; do items+=(--item "$id"); done
$skip_summary emit --skill tessl__check-cfps --step 3 --reason "nightly budget spent after 2 of 5 CFPs" "${items[@]}" >/dev/null
echo "nightly budget spent after 2 of 5 CFPs; 3 left for the owner" >&2
exit 2
