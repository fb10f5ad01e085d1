#!/usr/bin/env bash
# Fetches the calls for papers of the last --since period (here: prints two).
echo "fetched cfp-12 and cfp-19 (since ${2:-7d})"
