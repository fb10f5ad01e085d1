#!/usr/bin/env bash
# Always runs after build.
echo "tidied"
