#!/bin/sh
# Install what iolab needs on Debian 12, skipping what is already there.
# Run as root.
#   scripts/deps.sh          what building and running iolab needs
#   scripts/deps.sh --test   that, plus what the test suite and the
#                            comparisons need (fio, QEMU and a guest
#                            kernel for the lab, Chromium for the
#                            report's rendering test, Prometheus and
#                            node_exporter for the probe's tests, virsh
#                            and virt-xml-validate for advise's
#                            corrected libvirt XML, dpkg-dev, debhelper
#                            and lintian for the package test, zsh for
#                            the completion test)
set -eu

PKGS="build-essential meson ninja-build pkg-config python3
liburing-dev libaio-dev libjansson-dev libxml2-dev libcmocka-dev
libmicrohttpd-dev libvirt-dev"
TEST_PKGS="fio util-linux e2fsprogs strace udev kmod
qemu-system-x86 qemu-utils linux-image-amd64 cpio time
chromium fonts-dejavu-core libxml2-utils sysstat
prometheus prometheus-node-exporter libvirt-clients
dpkg-dev debhelper lintian bash-completion zsh man-db"

case "${1:-}" in
--test) PKGS="$PKGS $TEST_PKGS" ;;
"") ;;
*)
	echo "usage: scripts/deps.sh [--test]" >&2
	exit 1
	;;
esac

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: everything is installed"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing:$missing; run this script as root" >&2
	exit 2
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
