#!/usr/bin/env bash
# Fingerprints what the export writes for a few flag sets against the sandbox (fixed clock,
# SOURCE_DATE_EPOCH), so a restructuring can prove it changed no byte:
#   bash scripts/export-fingerprint.sh > before.txt; (change); bash scripts/export-fingerprint.sh > after.txt; diff before.txt after.txt
# `bash scripts/export-fingerprint.sh uvi`: the same for `meterdata uvi --month 2025-11` (uvi.csv,
# uvi.json, review.csv, every PDF letter and the manifest).
# Uses the built dist/ (run `npm run build` first; MD_BIN=…/bin/meterdata.js: another build's).
# Prints one line per file: sha256, run, path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
# exec: a job started in the background is then the node process itself, so the trap's kill ends it
# (a function call in the background is a subshell whose node child outlived the kill)
md() { bash "$root/scripts/node24" node "${MD_BIN:-$root/bin/meterdata.js}" "$@"; }
mdbg() { exec bash "$root/scripts/node24" node "${MD_BIN:-$root/bin/meterdata.js}" "$@"; }
export METERDATA_HOME="$work/home" METERDATA_CREDENTIAL_STORE=file SOURCE_DATE_EPOCH=1764547200 CI=true TZ=Europe/Berlin
port=$((20000 + RANDOM % 20000))
mdbg sandbox --port "$port" --auto-consent --clock 2026-11-22 --rate-limit 0 >"$work/sandbox.log" 2>&1 &
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/.well-known/openid-configuration" >/dev/null 2>&1 && break; sleep 0.2; done
mdbg login --no-browser --auth-url "http://127.0.0.1:$port" >"$work/login.out" 2>&1 &
login=$!
url=
for _ in $(seq 1 100); do url=$(grep -o 'http://127\.0\.0\.1[^ ]*' "$work/login.out" | head -1 || true); [ -n "$url" ] && break; sleep 0.2; done
curl -s -L -c "$work/jar" -b "$work/jar" -H 'Accept: text/html' "$url" >/dev/null
wait "$login"
printf 'usage_unit_id,erp_ref\n' >"$work/refs.csv"
command=${1:-export}
run() { local name=$1; shift; (cd "$work" && md "$command" "$@" --out "$work/out-$name" >"$work/$name.stdout" 2>"$work/$name.stderr"; echo "exit $?" >>"$work/$name.stdout") || true; }
if [ "$command" = uvi ]; then
  run en --month 2025-11 --lang en --json
  run de --month 2025-11 --template de --lang de
else
  run plain --year 2025 --lang en
  run german --year 2025 --template de --lang de
  run compare --year 2025 --compare 2024 --lang en
  run csv-only --year 2025 --format csv --lang en --json
  run range --from 2025-03-01 --to 2025-08-31 --metric heat,water_warm --no-plausibility --format xlsx --lang de
fi
cd "$work"
for f in *.stdout *.stderr; do sed -E 's/[0-9]+(\.[0-9]+)? ?(s|ms)\b/<t>/g; s#'"$work"'#<work>#g' "$f" | sha256sum | sed "s#-\$#$f#"; done
find out-* -type f | LC_ALL=C sort | xargs sha256sum
