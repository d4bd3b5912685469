#!/bin/sh
# Installs the Debian packages callscope needs to build and test, if any
# is missing.  The packages are listed in scripts/deps/*.txt, one per line
# (# starts a comment), one file per part of the project that needs them.
# Needs root (or sudo) only when something must be installed.
set -eu
cd "$(dirname "$0")"

packages=$(sed 's/#.*//' deps/*.txt | tr -s ' \t\n' '\n' | sort -u)

# What the installed packages provide counts as installed: NodeSource's
# nodejs provides (and conflicts with) Debian's npm, for instance.
provided=$(dpkg-query -W -f='${db:Status-Abbrev}|${Provides}\n' 2>/dev/null |
	sed -n 's/^ii *|//p' | tr ',' '\n' | sed 's/(.*//; s/[[:space:]]//g' | sort -u)

missing=""
for p in $packages; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" &&
		! printf '%s\n' "$provided" | grep -qx "$p"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "install-deps: need root to install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
