#!/usr/bin/env bash
# `make deb`: a Debian package of GesturePad, built with dpkg-deb from a staged
# `scripts/install.sh install` (PREFIX=/usr, DESTDIR=a staging folder).
#
#   scripts/make-deb.sh BINARY [OUTDIR]     → OUTDIR/gesturepad_VERSION_ARCH.deb (default OUTDIR: .build/deb)
#   DEB_LEVEL=N                             xz level (default 6)
#
# The version is the binary's own (`gesturepad --version`). `Depends:` is computed like
# dpkg-shlibdeps does, without a debian/ folder: for every shared library the binary names
# (NEEDED), the Debian package that ships it (`dpkg -S`) and the minimal version its shlibs
# file declares (/var/lib/dpkg/info/PACKAGE.shlibs). The Swift runtime is linked in statically
# (`swift build --static-swift-stdlib`: it is not in Debian), so no libswift* may be NEEDED.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:?usage: $0 BINARY [OUTDIR]}
outdir=${2:-.build/deb}
command -v dpkg-deb >/dev/null || { echo "deb: dpkg-deb is missing (apt-get install dpkg)" >&2; exit 1; }
command -v objdump >/dev/null || { echo "deb: objdump is missing (apt-get install binutils)" >&2; exit 1; }

version=$("$binary" --version)
arch=$(dpkg --print-architecture)

# --- Depends, from what the binary links --------------------------------------------------
needed=$(objdump -p "$binary" | awk '$1 == "NEEDED" { print $2 }')
if grep -q '^libswift\|^libFoundation\|^libdispatch\|^libBlocksRuntime' <<<"$needed"; then
    echo "deb: $binary links the Swift runtime dynamically; build it with --static-swift-stdlib (make release)" >&2
    exit 1
fi
depends=()
# Read whole outputs (no `| head`, no awk `exit` on a pipe): with pipefail, a reader that stops
# early makes the writer die of SIGPIPE (exit 141) when its output is large.
ldcache=$(ldconfig -p)
for soname in $needed; do
    # The library's path, as the dynamic loader finds it; dpkg may know it by either side of
    # the merged /usr (/lib/… or /usr/lib/…).
    path=$(awk -v so="$soname" '$1 == so && $0 ~ /x86-64|64bit|AArch64/ { print $NF; exit }' <<<"$ldcache")
    [[ -n "$path" ]] || path=$(awk -v so="$soname" '$1 == so { print $NF; exit }' <<<"$ldcache")
    [[ -n "$path" ]] || { echo "deb: cannot find $soname (ldconfig -p)" >&2; exit 1; }
    package=""
    for candidate in "$path" "/usr$path" "${path#/usr}" "$(readlink -f "$path")"; do
        package=$(dpkg -S "$candidate" 2>/dev/null | awk -F: 'NR == 1 { print $1 }') && [[ -n "$package" ]] && break
    done
    [[ -n "$package" ]] || { echo "deb: no Debian package ships $path (dpkg -S)" >&2; exit 1; }
    # libfoo.so.6 → "libfoo 6" in the shlibs file; ld-linux-x86-64.so.2 → "ld-linux-x86-64 2".
    name=${soname%%.so*}
    major=${soname##*.so.}
    entry=""
    for shlibs in /var/lib/dpkg/info/"$package".shlibs /var/lib/dpkg/info/"$package":"$arch".shlibs; do
        [[ -f "$shlibs" ]] || continue
        entry=$(awk -v n="$name" -v m="$major" '$1 == n && $2 == m { $1 = ""; $2 = ""; sub(/^  /, ""); print; exit }' "$shlibs")
        [[ -n "$entry" ]] && break
    done
    depends+=("${entry:-$package}")
done
# One entry per package, the first (they agree: one package, one shlibs file).
depends_line=$(printf '%s\n' "${depends[@]}" | awk '{ split($0, w, " "); if (!seen[w[1]]++) print }' | paste -sd, - | sed 's/,/, /g')

# --- Stage and build ----------------------------------------------------------------------
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
PREFIX=/usr DESTDIR="$stage" UNITDIR=/usr/lib/systemd/user scripts/install.sh install "$binary" >/dev/null
# dpkg keeps the list of the package's files: no manifest (and no `make uninstall` over it).
rm -f "$stage/usr/share/gesturepad/install-manifest"
installed_size=$(du -sk --apparent-size "$stage/usr" | cut -f1)
mkdir -p "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: gesturepad
Version: $version
Architecture: $arch
Maintainer: ${MAINTAINER:-GesturePad maintainers <maintainers@gesturepad.invalid>}
Installed-Size: $installed_size
Depends: $depends_line
Recommends: systemd
Section: utils
Priority: optional
Description: use a phone as this computer's touchpad
 GesturePad serves a page to open on a phone; the phone's touch input is
 recognized as gestures (taps, drags, swipes, scrolls, pinches, long presses)
 and drives this computer's pointer and keyboard through X11 (XTest) or
 /dev/uinput. Gestures are drawn on the phone, logged, and can run your own
 commands. Includes a systemd user unit (systemctl --user enable --now
 gesturepad) and "gesturepad url" to show the address and QR code.
CONTROL
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 0755 {} +
mkdir -p "$outdir"
deb="$outdir/gesturepad_${version}_${arch}.deb"
rm -f "$outdir"/gesturepad_*.deb
# xz at level 6 (Debian's default) by default; DEB_LEVEL=1 packs about 3× faster, 15% larger.
dpkg-deb --root-owner-group -Zxz -z"${DEB_LEVEL:-6}" --build "$stage" "$deb" >/dev/null
echo "deb: $deb ($(du -h "$deb" | cut -f1); Depends: $depends_line)"
