#!/usr/bin/env bash
# Installs what the lab's test suite needs on a Debian machine, once: the one recipe behind both
# `./lab test` and `.ci/run`. A no-op when everything is there.
#
#   as root:      installs the missing Debian packages (apt-get update first), then builds the Go tools
#   not as root:  installs nothing when a Debian package is missing; prints one line naming the
#                 exact command to run as root, and exits 1
#
# Adding a tool is one line: a Debian package to `package`, or a build script to `build`.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)

packages=()
builds=()
# package PACKAGE CHECK...: install PACKAGE when CHECK fails. Checks look for what the tests use,
# so a tool installed another way (a Go from go.dev, say) is not installed twice.
package() {
  local name=$1
  shift
  "$@" >/dev/null 2>&1 || packages+=("$name")
}
# build SCRIPT: a tool built from source by its own script (a no-op when it is built already).
build() {
  builds+=("$1")
}

# --- the recipe -------------------------------------------------------------------------------
# headless browser + driver at the paths the browser tests use (cargotracker/pom.xml)
package chromium        test -x /usr/bin/chromium
package chromium-driver test -x /usr/bin/chromedriver
package apache2-utils   command -v ab                       # ab: a load tool of ./lab bench
package wrk             command -v wrk                      # wrk: a load tool of ./lab bench
package python3-venv    python3 -c 'import ensurepip'       # ./lab's own .venv
package golang-go       command -v go                       # builds the Go load tools below
package openssh-server  test -x /usr/sbin/sshd              # the hosts of ./lab hosts (one sshd each)
package iproute2        command -v ip                       # their network namespaces and links
build ab-scripts/install-bombardier.sh
build ab-scripts/install-vegeta.sh      # the open-model load tool (./lab capacity, --rate)
# ----------------------------------------------------------------------------------------------

if ((${#packages[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "missing ${packages[*]}: run as root: apt-get update && apt-get install -y ${packages[*]}" >&2
    exit 1
  fi
  echo "installing Debian packages: ${packages[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
fi
for script in "${builds[@]}"; do
  bash "$root/$script"
done
