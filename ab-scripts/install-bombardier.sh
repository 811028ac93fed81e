#!/usr/bin/env bash
# Builds bombardier (HTTP load generator, Go) into .lab/tools/bin/bombardier.
#
# Why not `go install github.com/codesenberg/bombardier@v1.2.6`: that module's go.mod carries
# replace directives, which `go install pkg@version` refuses. A throw-away main module that
# requires bombardier and builds its main package works with the plain Go module proxy.
#
# Needs Go 1.18+ (apt-get install golang-go, or any Go on PATH). Re-running is a no-op when the
# wanted version is already built; pass --force to rebuild.
set -euo pipefail

version="v1.2.6"
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
bin_dir="$root/.lab/tools/bin"
binary="$bin_dir/bombardier"
stamp="$bin_dir/.bombardier-version"

if [[ "${1:-}" != "--force" && -x "$binary" && "$(cat "$stamp" 2>/dev/null)" == "$version" ]]; then
  echo "bombardier $version already built: $binary"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "install-bombardier: Go is required (apt-get install golang-go, or put go on PATH)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/go.mod" <<MOD
module loomlab.dev/bombardier-build

go 1.18

require github.com/codesenberg/bombardier $version
MOD
mkdir -p "$bin_dir"
cd "$work"
echo "building bombardier $version with $(go version | cut -d' ' -f3) (modules from the Go module proxy)"
# -mod=mod lets the build write go.sum for exactly the modules bombardier's main package needs.
GOFLAGS="-mod=mod" CGO_ENABLED=0 go build -trimpath -ldflags "-X main.version=$version" \
  -o "$binary" github.com/codesenberg/bombardier
echo "$version" > "$stamp"
echo "installed: $binary ($("$binary" --version 2>&1 | head -1))"
