#!/usr/bin/env bash
# Builds a Go load tool of the lab into .lab/tools/bin/NAME:   install-go-tool.sh NAME [--force]
#
# Why not `go install MODULE@VERSION`: bombardier's go.mod carries replace directives, which
# `go install pkg@version` refuses. A throw-away main module that requires the tool and builds its
# main package works with the plain Go module proxy, and one recipe keeps every tool alike.
#
# Needs Go 1.20+ (apt-get install golang-go, or any Go on PATH). Re-running is a no-op when the
# wanted version is already built; pass --force to rebuild.
set -euo pipefail

name=${1:-}
# --- the tools: module, version, main package, Go version of the build module, the -X variable
# --- that holds the version, and the flag that prints it ------------------------------------
case "$name" in
  bombardier)  # closed model: a fixed number of connections
    module=github.com/codesenberg/bombardier; version=v1.2.6; package=$module
    go_version=1.18; version_variable=main.version; version_flag=--version ;;
  vegeta)      # open model: requests at a fixed rate
    module=github.com/tsenart/vegeta/v12; version=v12.13.0; package=$module
    go_version=1.20; version_variable=main.Version; version_flag=-version ;;
  *)
    echo "usage: install-go-tool.sh bombardier|vegeta [--force]" >&2
    exit 2 ;;
esac
# ----------------------------------------------------------------------------------------------

root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
bin_dir="$root/.lab/tools/bin"
binary="$bin_dir/$name"
stamp="$bin_dir/.$name-version"

if [[ "${2:-}" != "--force" && -x "$binary" && "$(cat "$stamp" 2>/dev/null)" == "$version" ]]; then
  echo "$name $version already built: $binary"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "install-$name: Go is required (apt-get install golang-go, or put go on PATH)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/go.mod" <<MOD
module loomlab.dev/$name-build

go $go_version

require $module $version
MOD
mkdir -p "$bin_dir"
cd "$work"
echo "building $name $version with $(go version | cut -d' ' -f3) (modules from the Go module proxy)"
# -mod=mod lets the build write go.sum for exactly the modules the tool's main package needs;
# the -X variable is what the tool's version flag prints.
GOFLAGS="-mod=mod" CGO_ENABLED=0 go build -trimpath -ldflags "-X $version_variable=$version" \
  -o "$binary" "$package"
echo "$version" > "$stamp"
echo "installed: $binary ($("$binary" "$version_flag" 2>&1 | head -1))"
