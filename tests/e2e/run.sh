#!/usr/bin/env bash
# `npm run test:e2e`: the end-to-end suite against a real Home Assistant 2024.3.3.
#   1. installs it once into ${XDG_CACHE_HOME:-$HOME/.cache}/home-mcp-bridge/ha-2024.3.3 (minutes, then cached)
#   2. starts a fresh instance on a free loopback port, with a long-lived token
#   3. runs vitest with HASS_URL, HASS_TOKEN and HA_E2E_STATE exported; extra arguments go to vitest
#   4. always stops Home Assistant, and exits with vitest's code
# HA_E2E_KEEP=1 keeps the run directory (config, log, state) after a passing run; a failing run
# always keeps it and says where. HA_E2E_START_TIMEOUT / HA_E2E_STOP_TIMEOUT are in seconds.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
HA=tests/e2e/ha.mjs
t_begin=$(date +%s)

node "$HA" install

work="$(mktemp -d "${TMPDIR:-/tmp}/home-mcp-bridge-e2e.XXXXXX")"
export HA_E2E_STATE="$work/state.json"

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  node "$HA" stop || true
  if [ "$status" -eq 0 ] && [ -z "${HA_E2E_KEEP:-}" ]; then
    rm -rf "$work"
  else
    echo "[ha] Home Assistant's run directory is kept: $work (log: $work/hass.log)" >&2
  fi
  echo "[ha] end-to-end run took $(( $(date +%s) - t_begin )) s in all" >&2
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ha.mjs prints the log tail itself when Home Assistant does not come up.
node "$HA" start --dir "$work"
eval "$(node "$HA" env)"

set +e
npx vitest run --config vitest.e2e.config.ts "$@"
code=$?
set -e
if [ "$code" -ne 0 ]; then
  echo "[ha] vitest failed ($code); last lines of Home Assistant's log:" >&2
  node "$HA" logs 40 >&2 || true
fi
exit "$code"
