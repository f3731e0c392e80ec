# Sourced by the storage benchmarks: Azurite (tests/tools, `npm ci` there) on a free loopback
# port, reached with its well-known devstoreaccount1 key.
#
#   start_azurite DIR        # data and log in DIR; sets az_pid (the caller's trap stops it)
#   export_azurite DIR       # waits for its port; exports AZURE_STORAGE_CONNECTION_STRING

az_pid=""

start_azurite() {
  local bin
  bin=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/tools/node_modules/.bin/azurite-blob
  [[ -x $bin ]] || { echo "Azurite is missing: npm ci in tests/tools"; exit 1; }
  "$bin" --blobHost 127.0.0.1 --blobPort 0 --location "$1/azurite" --silent \
    --skipApiVersionCheck --disableTelemetry > "$1/azurite.log" 2>&1 &
  az_pid=$!
}

export_azurite() {
  local port="" key
  for _ in $(seq 300); do
    port=$(grep -o 'listens on http://127.0.0.1:[0-9]*' "$1/azurite.log" | grep -o '[0-9]*$' || true)
    [[ -n $port ]] && break
    sleep 0.1
  done
  [[ -n $port ]] || { echo "Azurite did not start: see $1/azurite.log"; exit 1; }
  key="Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
  export AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$key;BlobEndpoint=http://127.0.0.1:$port/devstoreaccount1;"
}
