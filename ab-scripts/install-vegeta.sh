#!/usr/bin/env bash
# Builds vegeta (HTTP load generator, Go; open model: requests at a fixed rate) into
# .lab/tools/bin/vegeta.
#
# Like install-bombardier.sh: a throw-away main module that requires vegeta and builds its main
# package, so only the Go module proxy is needed (vegeta's go.mod has no replace directives, but
# one recipe for both tools keeps them alike).
#
# Needs Go 1.20+ (apt-get install golang-go, or any Go on PATH). Re-running is a no-op when the
# wanted version is already built; pass --force to rebuild.
set -euo pipefail

version="v12.13.0"
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
bin_dir="$root/.lab/tools/bin"
binary="$bin_dir/vegeta"
stamp="$bin_dir/.vegeta-version"

if [[ "${1:-}" != "--force" && -x "$binary" && "$(cat "$stamp" 2>/dev/null)" == "$version" ]]; then
  echo "vegeta $version already built: $binary"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "install-vegeta: Go is required (apt-get install golang-go, or put go on PATH)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/go.mod" <<MOD
module loomlab.dev/vegeta-build

go 1.20

require github.com/tsenart/vegeta/v12 $version
MOD
mkdir -p "$bin_dir"
cd "$work"
echo "building vegeta $version with $(go version | cut -d' ' -f3) (modules from the Go module proxy)"
# -mod=mod lets the build write go.sum for exactly the modules vegeta's main package needs;
# main.Version is what `vegeta -version` prints.
GOFLAGS="-mod=mod" CGO_ENABLED=0 go build -trimpath -ldflags "-X main.Version=$version" \
  -o "$binary" github.com/tsenart/vegeta/v12
echo "$version" > "$stamp"
echo "installed: $binary ($("$binary" -version 2>&1 | head -1))"
