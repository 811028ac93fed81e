#!/usr/bin/env bash
# Builds vegeta into .lab/tools/bin/vegeta (see install-go-tool.sh); --force rebuilds.
exec bash "$(dirname "$(readlink -f "$0")")/install-go-tool.sh" vegeta "$@"
