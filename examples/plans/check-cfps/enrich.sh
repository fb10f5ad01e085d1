#!/usr/bin/env bash
# The enrichment service is down: a non-critical step, so the plan continues and records the skip.
echo "enrichment service unavailable (HTTP 503)" >&2
exit 1
