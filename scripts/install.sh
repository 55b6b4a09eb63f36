#!/usr/bin/env bash
# `make install` / `make uninstall`: GesturePad under PREFIX (default /usr/local), staged under
# DESTDIR when given (packaging). Install keeps a manifest of every file it put and every
# folder it had to create, so uninstall removes exactly those and nothing else.
#
#   scripts/install.sh install BINARY     (make install [PREFIX=…] [DESTDIR=…])
#   scripts/install.sh uninstall          (make uninstall [PREFIX=…] [DESTDIR=…])
#
# Layout, for PREFIX=/usr/local:
#   bin/gesturepad                              the release binary (Swift runtime linked in)
#   share/gesturepad/Public/                    the page (the binary finds it beside itself)
#   share/gesturepad/examples/                  a commented configuration, a pipe hook example
#   share/gesturepad/udev/70-gesturepad-uinput.rules   for --control uinput / touchpad (not activated)
#   share/gesturepad/udev/71-gesturepad-touchpad.rules the touchpad marked external (not activated)
#   share/gesturepad/install-manifest           what uninstall removes
#   lib/systemd/user/gesturepad.service         the systemd user unit (PREFIX=$HOME/.local:
#                                               share/systemd/user, where systemctl --user looks)
#   share/man/man1/gesturepad.1.gz, share/doc/gesturepad/   the manual page, README and docs/
#   share/applications/gesturepad.desktop       the application-menu entry (gesturepad open)
#   share/icons/hicolor/{scalable,192x192}/apps/gesturepad.{svg,png}   its icon
# Each folder can be moved: BINDIR, DATADIR, DOCDIR, MANDIR, UNITDIR.
set -euo pipefail
cd "$(dirname "$0")/.."

PREFIX=${PREFIX:-/usr/local}
PREFIX=${PREFIX%/}
DESTDIR=${DESTDIR:-}
case "$PREFIX" in
    /*) ;;
    *) echo "install: PREFIX must be an absolute path, not '$PREFIX'" >&2; exit 2 ;;
esac
BINDIR=${BINDIR:-$PREFIX/bin}
DATADIR=${DATADIR:-$PREFIX/share/gesturepad}
DOCDIR=${DOCDIR:-$PREFIX/share/doc/gesturepad}
MANDIR=${MANDIR:-$PREFIX/share/man}
if [[ -z "${UNITDIR:-}" ]]; then
    if [[ -n "${HOME:-}" && "$PREFIX" == "${HOME%/}/.local" ]]; then
        UNITDIR=$PREFIX/share/systemd/user
    else
        UNITDIR=$PREFIX/lib/systemd/user
    fi
fi
MANIFEST=$DATADIR/install-manifest

created_dirs=()   # folders this install (or an earlier one, per the old manifest) created
files=()          # files put, as installed (without DESTDIR)

# Makes DIR and its missing parents under DESTDIR, remembering each folder it creates.
ensure_dir() {
    local dir=$1 path="" part
    local IFS=/
    for part in $dir; do
        [[ -z "$part" ]] && continue
        path="$path/$part"
        if [[ ! -d "$DESTDIR$path" ]]; then
            mkdir -m 0755 "$DESTDIR$path"
            created_dirs+=("$path")
        fi
    done
}

# put SOURCE DEST MODE: installs one file.
put() {
    ensure_dir "$(dirname "$2")"
    install -m "$3" "$1" "$DESTDIR$2"
    files+=("$2")
}

# Removes the files of a manifest (and, with "dirs", the folders it created, when empty).
remove_manifest() {
    local manifest=$1 with_dirs=$2 kind path
    local -a dirs=()
    while read -r kind path; do
        case "$kind" in
            f) rm -f "$DESTDIR$path" ;;
            d) dirs+=("$path") ;;
        esac
    done < "$manifest"
    if [[ "$with_dirs" == dirs ]]; then
        local i
        for ((i = ${#dirs[@]} - 1; i >= 0; i--)); do
            if [[ -d "$DESTDIR${dirs[i]}" ]] && ! rmdir "$DESTDIR${dirs[i]}" 2>/dev/null; then
                echo "uninstall: kept ${dirs[i]} (not empty: something else is in it)" >&2
            fi
        done
    fi
}

install_all() {
    local binary=$1
    [[ -x "$binary" ]] || { echo "install: no binary at $binary (make release)" >&2; exit 1; }
    # The Swift runtime is not on the machines this goes to: it must be linked in.
    if command -v objdump >/dev/null && objdump -p "$binary" | grep 'NEEDED *libswiftCore' >/dev/null; then
        echo "install: $binary links the Swift runtime dynamically; rebuild it with make release (--static-swift-stdlib)" >&2
        exit 1
    fi
    local version
    version=$("$binary" --version)
    # Installing over an earlier install: its files go first (a file it had that this version
    # no longer ships must not be left behind); the folders it created stay recorded.
    if [[ -f "$DESTDIR$MANIFEST" ]]; then
        while read -r kind path; do
            [[ "$kind" == d && -d "$DESTDIR$path" ]] && created_dirs+=("$path")
        done < "$DESTDIR$MANIFEST"
        remove_manifest "$DESTDIR$MANIFEST" files
        rm -f "$DESTDIR$MANIFEST"
    fi
    # A staging folder is the packager's: made if missing, never recorded nor removed.
    [[ -z "$DESTDIR" ]] || mkdir -p "$DESTDIR"
    # Say up front when the prefix cannot be written (a half install has no manifest).
    local dir target
    for dir in "$BINDIR" "$DATADIR" "$DOCDIR" "$MANDIR" "$UNITDIR"; do
        target="$DESTDIR$dir"
        while [[ ! -e "$target" ]]; do target=$(dirname "$target"); done
        if [[ ! -w "$target" ]]; then
            echo "install: cannot write into $target (sudo make install, or make install PREFIX=\$HOME/.local)" >&2
            exit 1
        fi
    done
    local work
    work=$(mktemp -d)
    trap 'rm -rf "$work"' RETURN

    put "$binary" "$BINDIR/gesturepad" 0755
    if [[ "${STRIP:-strip}" != none ]] && command -v "${STRIP:-strip}" >/dev/null; then
        "${STRIP:-strip}" "$DESTDIR$BINDIR/gesturepad"
    fi
    local file
    while IFS= read -r -d '' file; do
        put "$file" "$DATADIR/$file" 0644
    done < <(find Public -type f ! -name '.*' -print0 | sort -z)
    put examples/gesturepad.yaml "$DATADIR/examples/gesturepad.yaml" 0644
    put examples/xdotool_pipe.py "$DATADIR/examples/xdotool_pipe.py" 0755
    put dist/udev/70-gesturepad-uinput.rules "$DATADIR/udev/70-gesturepad-uinput.rules" 0644
    put dist/udev/71-gesturepad-touchpad.rules "$DATADIR/udev/71-gesturepad-touchpad.rules" 0644
    sed -e "s|@BINDIR@|$BINDIR|g" dist/systemd/gesturepad.service.in > "$work/gesturepad.service"
    put "$work/gesturepad.service" "$UNITDIR/gesturepad.service" 0644
    # The application-menu entry (it starts the user unit, then opens the desktop page) and its icon.
    sed -e "s|@BINDIR@|$BINDIR|g" dist/desktop/gesturepad.desktop.in > "$work/gesturepad.desktop"
    put "$work/gesturepad.desktop" "$PREFIX/share/applications/gesturepad.desktop" 0644
    put Public/icon.svg "$PREFIX/share/icons/hicolor/scalable/apps/gesturepad.svg" 0644
    put Public/icon-192.png "$PREFIX/share/icons/hicolor/192x192/apps/gesturepad.png" 0644
    sed -e "s|@VERSION@|$version|g" -e "s|@DATADIR@|$DATADIR|g" -e "s|@DOCDIR@|$DOCDIR|g" \
        -e "s|@UNITDIR@|$UNITDIR|g" dist/man/gesturepad.1 | gzip -9n > "$work/gesturepad.1.gz"
    put "$work/gesturepad.1.gz" "$MANDIR/man1/gesturepad.1.gz" 0644
    put README.md "$DOCDIR/README.md" 0644
    for file in docs/*.md; do
        put "$file" "$DOCDIR/$file" 0644
    done

    # The manifest lists itself last, so uninstall removes it too.
    ensure_dir "$DATADIR"
    {
        printf 'd %s\n' "${created_dirs[@]}" | awk '!seen[$0]++' | grep -v '^d $' || true
        printf 'f %s\n' "${files[@]}" "$MANIFEST"
    } > "$DESTDIR$MANIFEST"
    chmod 0644 "$DESTDIR$MANIFEST"
    echo "install: gesturepad $version in ${DESTDIR}$PREFIX (${#files[@]} files; manifest $MANIFEST)"
    echo "install: start it with every graphical login: systemctl --user daemon-reload && systemctl --user enable --now gesturepad"
}

uninstall_all() {
    if [[ ! -f "$DESTDIR$MANIFEST" ]]; then
        echo "uninstall: nothing to do: no $DESTDIR$MANIFEST (nothing installed with PREFIX=$PREFIX)"
        return 0
    fi
    local count
    count=$(grep -c '^f ' "$DESTDIR$MANIFEST" || true)
    remove_manifest "$DESTDIR$MANIFEST" dirs
    echo "uninstall: removed $count files from ${DESTDIR}$PREFIX"
}

case "${1:-}" in
    install) install_all "${2:?install needs the binary}" ;;
    uninstall) uninstall_all ;;
    *) echo "usage: $0 install BINARY | uninstall" >&2; exit 2 ;;
esac
