#!/bin/sh
# Builds the Debian package from a clean copy of this tree and checks it:
# dpkg-buildpackage -us -uc -b, lintian (errors fail), an install into a
# scratch root with dpkg, and the installed callscope recording and
# reporting the bundled example (examples/wordfreq.c).  The .deb and the
# logs are left in OUT (default build/deb).
#
#   sh scripts/build-deb.sh [OUT]
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
out=$(mkdir -p "${1:-build/deb}" && cd "${1:-build/deb}" && pwd)
scripts/install-deps.sh

version=$(dpkg-parsechangelog -S Version)
src="$out/callscope-$version"
rm -rf "$src" "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo "$out/root"
mkdir -p "$src"
# the tracked and new files of the work tree, without what a build left
git ls-files -co --exclude-standard -z | xargs -0 tar -cf - | tar -xf - -C "$src"
rm -rf "$src/build"

echo "== dpkg-buildpackage -us -uc -b"
(cd "$src" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1 ||
	{ tail -30 "$out/build.log"; echo "build-deb: the package did not build; see $out/build.log" >&2; exit 1; }
deb=$(ls "$out"/callscope_"$version"_*.deb)
echo "$deb"

echo "== lintian"
lintian --info "$out"/callscope_"$version"_*.changes | tee "$out/lintian.log" || true
if grep -q '^E:' "$out/lintian.log"; then
	echo "build-deb: lintian reports errors" >&2
	exit 1
fi

# Installed into a scratch root with its own dpkg database, so this
# machine's packages are untouched; dependencies are this machine's.
echo "== dpkg --root install"
root="$out/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
dpkg --root="$root" --force-depends --force-not-root -i "$deb" > "$out/install.log" 2>&1 ||
	{ cat "$out/install.log"; echo "build-deb: the package does not install" >&2; exit 1; }
dpkg --root="$root" -L callscope | sed 's/^/  /'

echo "== the installed callscope on the bundled example"
demo="$out/demo"
rm -rf "$demo" && mkdir -p "$demo"
example="$root/usr/share/doc/callscope/examples/wordfreq.c"
cc -pg -O2 -fno-inline -g $(PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_PATH="$root/usr/share/pkgconfig" \
	pkg-config --cflags callscope) -o "$demo/wordfreq" "$example"
(cd "$demo" && "$root/usr/bin/callscope" record -o wordfreq.data -- ./wordfreq 20000 > /dev/null)
"$root/usr/bin/callscope" report -i "$demo/wordfreq.data" | head -12
grep -q "$root/usr/lib/callscope/libcallscope.so" "$demo/wordfreq.data" ||
	{ echo "build-deb: the recording did not use the packaged runtime" >&2; exit 1; }
echo "build-deb: $deb built, lintian has no errors, installed and ran the example"
