#!/usr/bin/env bash
# Installs what is missing, builds trainyard, and opens it on the local engine with the demo ready.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRAINYARD_DEBUG_INFO=lines \
  -DTRAINYARD_BUILD_TESTS=OFF >/dev/null
cmake --build build --target trainyard
exec ./build/app/trainyard "$@"
