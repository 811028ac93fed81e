#!/usr/bin/env bash
# Builds bombardier into .lab/tools/bin/bombardier (see install-go-tool.sh); --force rebuilds.
exec bash "$(dirname "$(readlink -f "$0")")/install-go-tool.sh" bombardier "$@"
