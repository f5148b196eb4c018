#!/bin/sh
# Build the Debian package from this tree, binary only, and check it with
# lintian. The build happens in a copy (dpkg-buildpackage writes beside the
# source tree), whose parent receives the .deb:
#   scripts/deb.sh [OUTDIR]          OUTDIR defaults to ./build-deb
# Extra dpkg-buildpackage behaviour through the environment as usual, e.g.
# DEB_BUILD_OPTIONS=nocheck (no unit tests) for a quick build.
# Needs dpkg-dev, debhelper, lintian and the Build-Depends of
# debian/control (scripts/deps.sh --test installs them).
set -eu
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-build-deb}")
version=$(dpkg-parsechangelog -S Version)
rm -rf "$out"
mkdir -p "$out/iolab-$version"
# What git tracks or would track: no build directories, no test files.
git ls-files -z -c -o --exclude-standard |
	tar --null --no-recursion -T - -cf - |
	tar -xf - -C "$out/iolab-$version"
cd "$out/iolab-$version"
dpkg-buildpackage -us -uc -b >"$out/build.log" 2>&1 || {
	tail -40 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed; the log is $out/build.log" >&2
	exit 1
}
cd "$out"
deb=$(ls iolab_"$version"_*.deb)
lintian --fail-on error,warning --info "$deb"
echo "deb: $out/$deb"
