#!/bin/sh
# Configure (once) and build iolab in ./build. Extra arguments go to meson
# setup, e.g. scripts/build.sh -Dstatic=true.
set -eu
cd "$(dirname "$0")/.."
if [ -f build/build.ninja ]; then
	meson setup build --reconfigure "$@" >/dev/null
else
	meson setup build "$@" >/dev/null
fi
ninja -C build
