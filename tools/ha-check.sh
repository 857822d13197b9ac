#!/usr/bin/env bash
# ledring against real Home Assistant cores (issue 25): for each release, a venv with that
# homeassistant from PyPI, then tools/ha-check.py: a real Mosquitto, the built ledring, and HA's
# MQTT integration on it, checked through HA's REST API and on the LEDs (the frames ledring writes).
#
#   tools/ha-check.sh --prepare [RELEASE...]   make the venvs (.build/ha/RELEASE), needs PyPI
#   tools/ha-check.sh [RELEASE...]             run the check against each (no network)
#
# The releases: 2024.3.3, the newest for Python 3.11, and the last before the light's
# `color_mode` flag was deprecated (it requires it); 2025.4.4, the newest pip installs for
# Python 3.13.0 (this machine's), after the flag stopped being used. LEDRING_BINARY names the
# ledring to test (default .build/debug/ledring, from `swift build`).
set -euo pipefail
cd "$(dirname "$0")/.."

prepare=0
if [ "${1:-}" = "--prepare" ]; then prepare=1; shift; fi
releases=("$@")
[ "${#releases[@]}" -gt 0 ] || releases=(2024.3.3 2025.4.4)
binary=${LEDRING_BINARY:-.build/debug/ledring}

say() { echo "ha-check: $*"; }

# The Python each release runs on: the first that starts of pythonX.Y on the PATH and pyenv's
# builds of it (a pyenv shim is on the PATH even where that version is not the selected one).
python_for() {
    local version
    case "$1" in
        2024.*) version=3.11 ;;
        *) version=3.13 ;;
    esac
    local candidate
    for candidate in "python$version" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$version"*/bin/"python$version"; do
        if "$candidate" -c 'import sys' > /dev/null 2>&1; then echo "$candidate"; return; fi
    done
    echo "python$version"
}
pins_for() {
    case "$1" in
        # hass_nabucasa's acme needs josepy's ComparableX509, removed in josepy 2 (2025), which
        # an unpinned install of 2024.3.3 now gets; HA's own constraints file is not read by pip.
        2024.*) echo "josepy<2" ;;
        *) echo "" ;;
    esac
}

# HA's frontend must load (or it starts in recovery mode), onboarding makes our user, api is
# the REST API, mqtt the integration under test, recorder and hardware what analytics imports.
integrations=(mqtt onboarding api http frontend hardware analytics recorder)

for release in "${releases[@]}"; do
    venv=.build/ha/$release
    if [ "$prepare" -eq 1 ]; then
        python=$(python_for "$release")
        "$python" -c 'import sys' > /dev/null 2>&1 || { say "$python does not run: Home Assistant $release needs it"; exit 69; }
        begun=$SECONDS
        rm -rf "$venv"
        "$python" -m venv "$venv"
        "$venv/bin/pip" install -q "homeassistant==$release" $(pins_for "$release")
        # shellcheck disable=SC2046
        "$venv/bin/pip" install -q $("$venv/bin/python" tools/ha-requirements.py "${integrations[@]}") $(pins_for "$release")
        say "Home Assistant $release ready in $venv ($((SECONDS - begun)) s)"
        continue
    fi
    [ -x "$venv/bin/hass" ] || { say "no venv for $release: run tools/ha-check.sh --prepare $release"; exit 69; }
    [ -x "$binary" ] || { say "no $binary: run swift build"; exit 69; }
    say "Home Assistant $release"
    python3 tools/ha-check.py --hass "$venv/bin/hass" --ledring "$binary"
done
