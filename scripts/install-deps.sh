#!/usr/bin/env bash
# Installs what trainyard needs to build and test, on Debian 12 and Ubuntu 22.04/24.04.
# Idempotent: only missing packages are installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git lld
  libncurses-dev libsqlite3-dev libfmt-dev nlohmann-json3-dev libcli11-dev
  libcurl4-openssl-dev libssl-dev libyaml-cpp-dev libcpp-httplib-dev libpugixml-dev libre2-dev
  libsimdjson-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 tmux sqlite3 ccache
)
if [[ "${TRAINYARD_WITH_CLANG:-0}" == 1 ]]; then
  packages+=(clang-14 libclang-rt-14-dev)
fi
# The real clients the emulator's conformance tests run: `az batch` and the Python azure.batch SDK;
# and Node.js for Azurite, the Storage emulator the Blob tests start (tests/tools).
if [[ "${TRAINYARD_WITH_CLIENTS:-0}" == 1 ]]; then
  packages+=(azure-cli python3-requests)
  command -v npm >/dev/null || packages+=(nodejs npm)
fi

# Azurite, pinned by tests/tools/package-lock.json, unless it is there already.
install_test_tools() {
  [[ "${TRAINYARD_WITH_CLIENTS:-0}" == 1 ]] || return 0
  local tools
  tools="$(cd "$(dirname "$0")/.." && pwd)/tests/tools"
  [[ -x "$tools/node_modules/.bin/azurite-blob" ]] && return 0
  echo "install-deps: npm ci in tests/tools (Azurite)"
  (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error)
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: every package is installed"
  install_test_tools
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_test_tools
