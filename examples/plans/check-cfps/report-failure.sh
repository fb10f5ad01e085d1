#!/usr/bin/env bash
# Runs only when publishing failed for good; the error arrives as environment variables.
echo "publish failed at step $SKIP_SUMMARY_ERROR_STEP (exit $SKIP_SUMMARY_ERROR_EXIT_CODE): $SKIP_SUMMARY_ERROR_STDERR" >&2
