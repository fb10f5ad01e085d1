#!/usr/bin/env bash
# Drafts a submission per open call; calls left when the budget runs out are recorded in one skip summary.
set -euo pipefail

budget="${CFP_BUDGET:-3}"
left=()
for cfp in $(cat "${CFP_LIST:-cfps.txt}"); do
  if (( budget == 0 )); then
    left+=("$cfp")
    continue
  fi
  echo "drafting $cfp"
  budget=$(( budget - 1 ))
done

if (( ${#left[@]} > 0 )); then
  args=()
  for cfp in "${left[@]}"; do args+=(--item "$cfp"); done
  skip-summary emit --skill tessl__check-cfps --step 1 --reason "nightly budget spent" "${args[@]}"
  exit 2
fi
