#!/usr/bin/env bash
# Builds the User-Mode Linux kernel the kernel tests boot (tests/kernel, docs/testing.md), once:
# Debian's linux-source-6.1 configured for ARCH=um with evdev, uinput, hostfs and devtmpfs on.
# The binary is cached under .build/uml/KEY/linux, KEY being a hash of the source package's
# version and the configuration lines below, so only the first run on a machine (about 4–6
# minutes on 2 cores) pays for it. Prints the path of the kernel on stdout.
set -euo pipefail
cd "$(dirname "$0")/../.."

# What the tests need beyond `make ARCH=um defconfig`: the event interface (/dev/input/eventN),
# uinput, the host's file system as root, and /dev populated by the kernel.
config_lines=(
    "--enable INPUT_EVDEV"
    "--enable INPUT_MISC"
    "--enable INPUT_UINPUT"
    "--enable HOSTFS"
    "--enable DEVTMPFS"
    "--enable DEVTMPFS_MOUNT"
)
tarball=/usr/src/linux-source-6.1.tar.xz
[[ -f $tarball ]] || { echo "build-kernel: $tarball is missing (scripts/setup.sh --test installs linux-source-6.1)" >&2; exit 1; }
version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
key=$(printf '%s\n' "linux-source-6.1 $version" "${config_lines[@]}" | sha256sum | cut -c1-16)
out=.build/uml/$key
if [[ -x $out/linux ]]; then
    echo "$PWD/$out/linux"
    exit 0
fi

work=.build/uml/src-$key
rm -rf "$work"
mkdir -p "$work"
echo "build-kernel: building the UML kernel from linux-source-6.1 $version (once; a few minutes)" >&2
start=$(date +%s)
tar -xJf "$tarball" -C "$work" --strip-components=1
(
    cd "$work"
    make -s ARCH=um defconfig >/dev/null
    # shellcheck disable=SC2086  # each line is "--enable NAME"
    for line in "${config_lines[@]}"; do ./scripts/config $line; done
    make -s ARCH=um olddefconfig >/dev/null
    for line in "${config_lines[@]}"; do
        name=${line#--enable }
        grep -qx "CONFIG_$name=y" .config || { echo "build-kernel: CONFIG_$name did not stay on" >&2; exit 1; }
    done
    make -s ARCH=um -j"$(nproc)" linux >&2
)
mkdir -p "$out"
cp "$work/linux" "$out/linux.tmp"
mv "$out/linux.tmp" "$out/linux"
rm -rf "$work"
echo "build-kernel: built in $(($(date +%s) - start)) s: $out/linux" >&2
echo "$PWD/$out/linux"
