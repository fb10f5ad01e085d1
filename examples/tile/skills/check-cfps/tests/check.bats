#!/usr/bin/env bats
# Negative-case tests: each names the forbidden pattern it guards against, as no-silent-defer/<id>.

setup() {
  WS="$(mktemp -d)"
  export SKIP_SUMMARY_WORKSPACE="$WS"
  printf 'a\nb\nc\nd\n' > "$WS/cfps.txt"
  export CFP_LIST="$WS/cfps.txt" CFP_BUDGET=2
}

@test "a spent budget writes a summary, not only a log line [no-silent-defer/log-only-defer]" {
  run "$BATS_TEST_DIRNAME/../scripts/check.sh"
  [ -f "$WS/.skip-summary-tessl__check-cfps.json" ]
}

@test "the calls left are recorded as items, not promised to the next run [no-silent-defer/next-run-will-catch]" {
  run "$BATS_TEST_DIRNAME/../scripts/check.sh"
  grep -q '"c"' "$WS/.skip-summary-tessl__check-cfps.json"
}

@test "exits 2 after a skip, never 0 [no-silent-defer/success-after-skip]" {
  run "$BATS_TEST_DIRNAME/../scripts/check.sh"
  [ "$status" -eq 2 ]
}

@test "budget exhaustion is recorded, not swallowed [no-silent-defer/swallowed-budget]" {
  CFP_BUDGET=0 run "$BATS_TEST_DIRNAME/../scripts/check.sh"
  grep -q '"a"' "$WS/.skip-summary-tessl__check-cfps.json"
}

@test "the summary is written by skip-summary emit, atomically [no-silent-defer/non-atomic-summary-write]" {
  run "$BATS_TEST_DIRNAME/../scripts/check.sh"
  [ -z "$(ls "$WS" | grep -v -e '^cfps.txt$' -e '^.skip-summary-tessl__check-cfps.json$')" ]
}

@test "the summary carries the skill's own id [no-silent-defer/foreign-summary]" {
  run "$BATS_TEST_DIRNAME/../scripts/check.sh"
  grep -q '"skill": *"tessl__check-cfps"' "$WS/.skip-summary-tessl__check-cfps.json"
}

@test "the summary is left in place for the surfacer [no-silent-defer/owner-touches-summary]" {
  run "$BATS_TEST_DIRNAME/../scripts/check.sh"
  [ -f "$WS/.skip-summary-tessl__check-cfps.json" ]
}

@test "the skip is in the file, not only in the output [no-silent-defer/prose-only-surfacing]" {
  run "$BATS_TEST_DIRNAME/../scripts/check.sh"
  [ -s "$WS/.skip-summary-tessl__check-cfps.json" ]
}
