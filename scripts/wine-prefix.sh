#!/usr/bin/env bash
# A Wine prefix for test/e2e/exe.test.ts in build/wine, reporting Windows 10: Node.js
# refuses to start on the Windows 7 that Wine reports by default.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export WINEPREFIX="$root/build/wine" WINEDEBUG=-all
mkdir -p "$WINEPREFIX"
timeout 180 wine winecfg -v win10 </dev/null >/dev/null 2>&1 || true
# No crash debugger: winedbg would hold a crashing program for a minute or more.
timeout 60 wine reg delete 'HKLM\Software\Microsoft\Windows NT\CurrentVersion\AeDebug' /v Debugger /f </dev/null >/dev/null 2>&1 || true
timeout 30 wineserver -w || true
test -f "$WINEPREFIX/system.reg" || { echo "wine-prefix: Wine did not create $WINEPREFIX" >&2; exit 1; }
echo "wine-prefix: $WINEPREFIX (Windows 10)" >&2
