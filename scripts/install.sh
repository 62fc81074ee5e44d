#!/usr/bin/env bash
# Installs kb under a prefix: the binary, bash/zsh/fish completions and the man page, all made
# by the binary itself (kb completions, kb manpage). Usage:
#   scripts/install.sh PREFIX BINARY          install
#   scripts/install.sh --uninstall PREFIX     remove what install wrote
# `make install PREFIX=…` and `make uninstall PREFIX=…` call it; DESTDIR is honoured for packaging.
set -euo pipefail

files=(bin/kb share/bash-completion/completions/kb share/zsh/site-functions/_kb
       share/fish/vendor_completions.d/kb.fish share/man/man1/kb.1)

if [[ "${1:-}" == "--uninstall" ]]; then
  prefix="${DESTDIR:-}${2:?usage: install.sh --uninstall PREFIX}"
  for file in "${files[@]}"; do
    if [[ -e "$prefix/$file" ]]; then rm -f "$prefix/$file"; echo "removed $prefix/$file"; fi
    # The folders install made, when nothing else is left in them.
    folder=$(dirname "$prefix/$file")
    while [[ "$folder" != "$prefix" && -d "$folder" ]] && rmdir "$folder" 2>/dev/null; do folder=$(dirname "$folder"); done
  done
  exit 0
fi

prefix="${DESTDIR:-}${1:?usage: install.sh PREFIX BINARY}"
binary="${2:?usage: install.sh PREFIX BINARY}"
[[ -x "$binary" ]] || { echo "error: $binary is not an executable (run make build first)" >&2; exit 1; }

# Everything is made in a scratch folder first, so a failure leaves the prefix as it was.
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
"$binary" completions bash >"$staging/kb.bash"
"$binary" completions zsh >"$staging/_kb"
"$binary" completions fish >"$staging/kb.fish"
"$binary" manpage >"$staging/kb.1"

install -d "$prefix/bin" "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions" \
  "$prefix/share/fish/vendor_completions.d" "$prefix/share/man/man1"
install -m 755 "$binary" "$prefix/bin/kb"
install -m 644 "$staging/kb.bash" "$prefix/share/bash-completion/completions/kb"
install -m 644 "$staging/_kb" "$prefix/share/zsh/site-functions/_kb"
install -m 644 "$staging/kb.fish" "$prefix/share/fish/vendor_completions.d/kb.fish"
install -m 644 "$staging/kb.1" "$prefix/share/man/man1/kb.1"
for file in "${files[@]}"; do echo "installed $prefix/$file"; done
