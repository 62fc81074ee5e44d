#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those missing. Idempotent and quick
# when everything is present. Usage: scripts/install-deps.sh [kb|build|test|bench]
set -euo pipefail

profile="${1:-build}"
# kb itself: the C libraries it links (all that `make install` needs).
packages=(libcmark-dev libyaml-dev libmimalloc-dev libzstd-dev pkg-config)
# The programs this repository's entries' check scenarios run (kb check in make run and make test):
# cmark, git, convmv, rsync, unzip, python3, uconv (icu-devtools), file and MariaDB (a throwaway
# server a scenario starts), and node.
scenarios=(cmark git convmv rsync unzip python3 icu-devtools file mariadb-server-core mariadb-client-core)
case "$profile" in
  kb) ;;
  build) packages+=("${scenarios[@]}") ;;
  test) packages+=("${scenarios[@]}" chromium fonts-noto-cjk bash-completion zsh fish zstd) ;;
  bench) packages+=("${scenarios[@]}" hugo time) ;;
  *) echo "usage: scripts/install-deps.sh [kb|build|test|bench]" >&2; exit 64 ;;
esac
if [[ "$profile" != kb ]] && ! command -v node >/dev/null 2>&1; then packages+=(nodejs); fi

# axe-core for the accessibility test (Tests/js/axe.test.mjs): the axe.min.js that PyPI's
# axe-playwright-python wheel carries, taken out of the wheel into .build/axe/ (no npm here).
# Quick when it is there already.
install_axe() {
  local root folder
  root="$(cd "$(dirname "$0")/.." && pwd)"
  folder="$root/.build/axe"
  [[ -s "$folder/axe.min.js" ]] && return 0
  mkdir -p "$folder"
  if ! python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$folder" axe-playwright-python >"$folder/pip.log" 2>&1; then
    echo "warning: could not download axe-playwright-python from PyPI (see $folder/pip.log); the axe test will fail" >&2
    return 0
  fi
  python3 - "$folder" <<'PY'
import glob, sys, zipfile
folder = sys.argv[1]
wheel = sorted(glob.glob(folder + "/axe_playwright_python-*.whl"))[-1]
with zipfile.ZipFile(wheel) as archive:
    name = next(n for n in archive.namelist() if n.endswith("/axe.min.js"))
    with open(folder + "/axe.min.js", "wb") as out:
        out.write(archive.read(name))
PY
}
[[ "$profile" == test ]] && install_axe

# Pagefind-extended, the search index `make bench` compares the site's search files with (PyPI's
# `pagefind[extended]` wheel carries the binary). Quick when it is there already.
install_pagefind() {
  command -v pagefind_extended >/dev/null 2>&1 && return 0
  python3 -c 'import pagefind_bin_extended' >/dev/null 2>&1 && return 0
  python3 -m pip install --quiet 'pagefind[extended]' >/tmp/kb-pip-pagefind.log 2>&1 ||
    python3 -m pip install --quiet --break-system-packages 'pagefind[extended]' >/tmp/kb-pip-pagefind.log 2>&1 ||
    echo "warning: could not install pagefind[extended] from PyPI (see /tmp/kb-pip-pagefind.log); make bench will skip its rows" >&2
}
[[ "$profile" == bench ]] && install_pagefind

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "Installing missing packages: ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then sudo=sudo; else
    echo "error: need root to install ${missing[*]} (run as root or install them yourself)" >&2
    exit 1
  fi
else
  sudo=
fi
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/tmp/kb-apt.log 2>&1; then
  $sudo apt-get update >/tmp/kb-apt-update.log 2>&1
  $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/tmp/kb-apt.log 2>&1 || {
    tail -20 /tmp/kb-apt.log >&2
    exit 1
  }
fi
