#!/usr/bin/env bash
# Installs ApacheBench (ab, from apache2-utils) and wrk from Debian's packages. Needs root (or sudo).
set -euo pipefail
missing=()
command -v ab >/dev/null 2>&1 || missing+=(apache2-utils)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "ab and wrk are installed: $(command -v ab), $(command -v wrk)"
  exit 0
fi
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
$sudo apt-get update -q
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
