#!/bin/sh
# Build iolab and run the whole test suite twice: a normal -Werror build,
# and the same suite under AddressSanitizer + UndefinedBehaviorSanitizer.
# Ends with one line "N passed, N failed".
set -u
cd "$(dirname "$0")/.."

# What the suite needs beyond the build (fio, QEMU, a guest kernel,
# Chromium); skipped quickly when everything is there.
if [ "$(id -u)" -eq 0 ]; then
	scripts/deps.sh --test || echo "test.sh: could not install every test dependency; tests that need them will skip" >&2
fi

setup() {
	dir=$1
	shift
	if [ -d "$dir" ]; then
		meson setup "$dir" --reconfigure "$@" >/dev/null
	else
		meson setup "$dir" "$@" >/dev/null
	fi || { echo "meson setup $dir failed" >&2; return 1; }
	ninja -C "$dir" >/dev/null || { ninja -C "$dir"; return 1; }
}

status=0
setup build -Dwerror=true || status=1
setup build-san -Dwerror=true -Db_sanitize=address,undefined \
	-Db_lundef=false || status=1

if [ "$status" -eq 0 ]; then
	meson test -C build --print-errorlogs --no-rebuild "$@" || status=1
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	ASAN_OPTIONS=detect_leaks=1 \
		meson test -C build-san --print-errorlogs --no-rebuild \
		--suite unit --suite it --suite e2e "$@" || status=1
fi

python3 scripts/summary.py build/meson-logs/testlog.json \
	build-san/meson-logs/testlog.json
exit $status
