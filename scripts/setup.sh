#!/usr/bin/env bash
# Installs what GesturePad needs on Debian / Ubuntu, only what is missing.
#   scripts/setup.sh          build and run: libwebsockets, libqrencode, libX11 + libXtst (XTest),
#                             libsystemd (sd-bus), libwayland-client + libxkbcommon (the desktop's
#                             keyboard layout; both for the portal backend), libyaml (the
#                             configuration file), pkg-config
#   scripts/setup.sh --test   also the test tools: Chromium, Firefox ESR, WebKitGTK's WebKitWebDriver, NSS tools (certutil), Xvfb (a headless X server for
#                             tests/control), dbus (a private session bus for tests/portal and
#                             tests/pairing), a headless GNOME with its RemoteDesktop portal and
#                             AT-SPI, driven by Debian's python3-dbus / python3-gi (tests/gnome,
#                             about 400 MB), a headless KDE Plasma's kwin_wayland and portal
#                             (tests/kde) with its consent dialog's QML (plasma-workspace's few
#                             folders extracted from its .debs into .build/kde-dialog, not
#                             installed), what tests/kernel builds and runs a User-Mode Linux
#                             kernel with (Debian's kernel source and its build tools, udev,
#                             libinput's tools), a real MPRIS player for tests/media (mpv,
#                             mpv-mpris, ffmpeg; a private PipeWire for the computer's volume), a Python venv (.venv) with tests/requirements.txt
#                             (pytest, websockets, python-xlib, dbus-fast, pytest-xdist, evdev,
#                             python-dbusmock — whose dbus-python is built here: libdbus-1-dev,
#                             libglib2.0-dev, python3-dev)
#   scripts/setup.sh --check  what `make check` needs: the build packages and the venv (no
#                             Chromium, Firefox, WebKit, Xvfb, dbus, GNOME, kernel source or NSS tools)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libwebsockets-dev libqrencode-dev libxtst-dev libx11-dev libsystemd-dev libwayland-dev libxkbcommon-dev
    libyaml-dev pkg-config)
mode=${1:-}
# What pip needs to build the venv's packages that have no wheel: dbus-python (python-dbusmock's)
# and evdev.
venv_build=(python3 python3-venv libdbus-1-dev libglib2.0-dev python3-dev gcc)
case $mode in
    --test)
        packages+=("${venv_build[@]}" chromium xvfb libnss3-tools dbus)
        # tests/browser's scenario suite in the two other engines phones use: Gecko (driven
        # through its own WebDriver BiDi) and WebKitGTK (WebKitWebDriver with its MiniBrowser).
        packages+=(firefox-esr webkit2gtk-driver)
        # tests/gnome: gnome-shell --headless and the two portal services; gsettings; AT-SPI to
        # answer the consent dialog, from Debian's own Python; Mesa's software renderer (no GPU).
        packages+=(gnome-shell mutter xdg-desktop-portal xdg-desktop-portal-gnome dbus-x11 gnome-settings-daemon
            adwaita-icon-theme gsettings-desktop-schemas libglib2.0-bin at-spi2-core python3-dbus python3-gi
            gir1.2-atspi-2.0 libgl1-mesa-dri)
        # tests/kde: kwin_wayland (headless), KDE's RemoteDesktop portal and Qt's Wayland plugin;
        # the recorder window is GTK 3 from Debian's own Python. The consent dialog's QML imports
        # (the rest of it is extracted from plasma-workspace's .debs below).
        packages+=(kwin-wayland xdg-desktop-portal-kde qtwayland5 gir1.2-gtk-3.0)
        packages+=(qml-module-org-kde-kirigami2 qml-module-qtquick-controls2 qml-module-qtquick-layouts
            qml-module-qtquick-window2 qml-module-qtgraphicaleffects qml-module-qtquick2)
        # tests/integration/test_state_io.py: strace shows the service thread touches no file.
        packages+=(strace)
        # tests/integration/test_desktop_touchpad.py: GNOME's touchpad settings in a real dconf.
        packages+=(dconf-service dconf-gsettings-backend)
        # tests/sway: a headless sway (wlroots) for the wlroots backend, as `nobody` (setpriv is
        # util-linux's); the same GTK 3 recorder window.
        packages+=(sway util-linux)
        # tests/kernel: the UML kernel's source and build tools; the real udev and libinput inside.
        packages+=(linux-source-6.1 bc flex bison libelf-dev make udev libinput-tools coreutils)
        # tests/media: a real MPRIS player (mpv with Debian's mpv-mpris script) playing tagged
        # tracks with a cover that ffmpeg generates.
        packages+=(mpv mpv-mpris ffmpeg)
        # tests/media: the computer's own volume, through a private PipeWire (a null output)
        # and wpctl, as a PipeWire desktop has them.
        packages+=(pipewire pipewire-bin wireplumber)
        ;;
    --check) packages+=("${venv_build[@]}") ;;
esac

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# python3-venv is only needed when the python3 on PATH cannot make a venv by itself.
if [[ " ${missing[*]-} " == *" python3-venv "* ]] && command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null; then
    missing=("${missing[@]/python3-venv}")
fi
if [[ " ${missing[*]-} " == *" python3 "* ]] && command -v python3 >/dev/null; then
    missing=("${missing[@]/python3}")
fi
mapfile -t missing < <(printf '%s\n' "${missing[@]-}" | grep -v '^$' || true)

if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    sudo=""
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# tests/kde's consent dialog: plasma-workspace's org.kde.plasma.workspace.dialogs and lookandfeel
# QML modules (with the look-and-feel package structure plugin) and the Breeze look-and-feel
# package (plasma-workspace-data), under 1 MB of two .debs whose installation pulls ~180 MB.
# Downloaded (apt-get download) and extracted into .build/kde-dialog once; "complete" last.
kde_dialog=.build/kde-dialog
if [[ "$mode" == "--test" && ! -f $kde_dialog/complete ]]; then
    echo "setup: extracting KDE's consent dialog from plasma-workspace's .debs into $kde_dialog"
    debs=$(mktemp -d)
    trap 'rm -rf "$debs"' EXIT
    # apt-get download run as root fetches as _apt, which must write there.
    if [[ $(id -u) -eq 0 ]] && id _apt >/dev/null 2>&1; then chown _apt "$debs"; fi
    # Without package lists (nothing else was installed, so no update ran): update, once.
    if ! (cd "$debs" && apt-get download -qq plasma-workspace plasma-workspace-data 2>/dev/null); then
        $([[ $(id -u) -ne 0 ]] && echo sudo) apt-get update -qq
        (cd "$debs" && apt-get download -qq plasma-workspace plasma-workspace-data)
    fi
    rm -rf "$kde_dialog"
    mkdir -p "$kde_dialog"
    dpkg-deb --fsys-tarfile "$debs"/plasma-workspace_*.deb | tar -x -C "$kde_dialog" --wildcards \
        './usr/lib/*/qt5/qml/org/kde/plasma/workspace/dialogs' './usr/lib/*/qt5/qml/org/kde/plasma/lookandfeel' \
        './usr/lib/*/qt5/plugins/kpackage/packagestructure/plasma_lookandfeel.so'
    dpkg-deb --fsys-tarfile "$debs"/plasma-workspace-data_*.deb | tar -x -C "$kde_dialog" \
        './usr/share/plasma/look-and-feel/org.kde.breeze.desktop'
    (cd "$debs" && ls ./*.deb) >"$kde_dialog/complete"
fi

if ! command -v swift >/dev/null; then
    echo "setup: the Swift toolchain (6.2 or later) is not on PATH — see https://www.swift.org/install/linux/" >&2
    exit 1
fi

if [[ "$mode" == "--test" || "$mode" == "--check" ]]; then
    if [[ ! -x .venv/bin/python ]]; then
        python3 -m venv .venv
    fi
    # pip runs only when a requirement is missing or too old: every line of
    # tests/requirements.txt must be installed at a matching version and import.
    if ! .venv/bin/python - tests/requirements.txt 2>/dev/null <<'EOF'
import importlib, importlib.metadata, sys
from packaging.requirements import Requirement  # comes with pytest (none yet: pip runs)
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if not line:
        continue
    requirement = Requirement(line)
    dist = importlib.metadata.distribution(requirement.name)
    if not requirement.specifier.contains(dist.version, prereleases=True):
        sys.exit(1)
    for top in (dist.read_text("top_level.txt") or requirement.name.replace("-", "_")).split():
        importlib.import_module(top)
EOF
    then
        .venv/bin/python -m pip install -q --disable-pip-version-check -r tests/requirements.txt
    fi
fi
