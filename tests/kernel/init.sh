#!/bin/sh
# PID 1 of the User-Mode Linux kernel the kernel tests boot (tests/kernel/kernel_harness.py).
# The root file system is the host's own (hostfs), so the repository, its build and its venv
# are at the same paths; what this script mounts (proc, sysfs, /dev, /run) is the UML's own.
# From the kernel command line: GP_REPO (the repository), GP_PYTHON (its venv's Python),
# GP_SCENARIO (the script to run, relative to GP_REPO) and GP_OUT (a host folder for the
# results). Ends the kernel with poweroff when the scenario ends, whatever happened.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /run
# wlroots (sway, tests/kernel/inside/sway_scenario.py) shares buffers through /dev/shm.
mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm
ip link set lo up
echo "init: up $(cut -d' ' -f1 /proc/uptime) s" >"$GP_OUT/init.log"
# The real udev, as a desktop has it: it classifies input devices (ID_INPUT_*), and libinput
# reads what it recorded in /run/udev.
/lib/systemd/systemd-udevd --daemon >>"$GP_OUT/init.log" 2>&1
udevadm trigger --action=add >>"$GP_OUT/init.log" 2>&1
udevadm settle >>"$GP_OUT/init.log" 2>&1
cd "$GP_REPO" && "$GP_PYTHON" "$GP_SCENARIO" >"$GP_OUT/scenario.log" 2>&1
echo $? >"$GP_OUT/status"
echo "init: done $(cut -d' ' -f1 /proc/uptime) s" >>"$GP_OUT/init.log"
sync
poweroff -f
