#!/usr/bin/env bash
# `npm run test:e2e`: the end-to-end suite against real Home Assistant releases, one after the other:
# 2026.11.0 (the current release; in a Debian forky root, which needs root and debootstrap) and
# 2024.3.3 (the oldest the bridge supports; on this machine's Python 3.11). For each release:
#   1. installs it once into ${XDG_CACHE_HOME:-$HOME/.cache}/home-mcp-bridge/ha-<version> (minutes, then cached)
#   2. starts a fresh instance on a free loopback port, with a long-lived token
#   3. runs vitest with HASS_URL, HASS_TOKEN, HA_E2E_STATE and HA_E2E_VERSION exported; extra
#      arguments go to vitest
#   4. always stops Home Assistant
# and exits non-zero when any release's run failed. HA_E2E_VERSIONS="2024.3.3" (space-separated)
# picks releases. HA_E2E_KEEP=1 keeps the run directories (config, log, state) after a passing run;
# a failing run always keeps its own and says where. HA_E2E_START_TIMEOUT / HA_E2E_STOP_TIMEOUT are
# in seconds.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
HA=tests/e2e/ha.mjs
t_begin=$(date +%s)

read -r -a versions <<< "${HA_E2E_VERSIONS:-$(node "$HA" releases | tr '\n' ' ')}"

# One release: its own run directory, its own Home Assistant, stopped whatever happens.
run_release() {
  local version=$1
  shift
  local t0 work code
  t0=$(date +%s)
  export HA_E2E_VERSION="$version"
  echo "[ha] ===== Home Assistant ${version}: end-to-end run =====" >&2
  # (set -e does not apply inside a function called with ||: every step checks its own status.)
  node "$HA" install --ha "$version" || return 1
  work="$(mktemp -d "${TMPDIR:-/tmp}/home-mcp-bridge-e2e-${version}.XXXXXX")"
  export HA_E2E_STATE="$work/state.json"
  code=0
  stop_release() {
    node "$HA" stop || true
    if [ "$code" -eq 0 ] && [ -z "${HA_E2E_KEEP:-}" ]; then
      rm -rf "$work"
    else
      echo "[ha] Home Assistant ${version}'s run directory is kept: $work (log: $work/hass.log)" >&2
    fi
    echo "[ha] Home Assistant ${version}: end-to-end run took $(( $(date +%s) - t0 )) s" >&2
  }
  trap 'code=130; stop_release; exit 130' INT
  trap 'code=143; stop_release; exit 143' TERM
  # ha.mjs prints the log tail itself when Home Assistant does not come up.
  if node "$HA" start --ha "$version" --dir "$work"; then
    eval "$(node "$HA" env)"
    set +e
    # CI's tally names the release of each run.
    CI_TALLY_LABEL="${CI_TALLY_LABEL:+$CI_TALLY_LABEL }Home Assistant ${version}" npx vitest run --config vitest.e2e.config.ts "$@"
    code=$?
    set -e
    if [ "$code" -ne 0 ]; then
      echo "[ha] vitest failed against Home Assistant ${version} ($code); last lines of its log:" >&2
      node "$HA" logs 40 >&2 || true
    fi
    # Whatever the tests made it do, Home Assistant must still listen on loopback only.
    node "$HA" check-local || code=1
  else
    code=1
  fi
  stop_release
  trap - INT TERM
  return "$code"
}

failed=()
for v in "${versions[@]}"; do
  run_release "$v" "$@" || failed+=("$v")
done
echo "[ha] end-to-end runs (${versions[*]}) took $(( $(date +%s) - t_begin )) s in all" >&2
if [ "${#failed[@]}" -gt 0 ]; then
  echo "[ha] end-to-end run failed against Home Assistant ${failed[*]}" >&2
  exit 1
fi
