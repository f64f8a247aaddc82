#!/usr/bin/env bash
# Install jantaku on a Raspberry Pi (Raspberry Pi OS, 64-bit: Debian 13 "trixie" with Python 3.13, or Bookworm)
# as a systemd service.
#
#   sudo ./device/install-pi.sh            # from a checkout of the project
#
# What it does (each step is safe to run again):
#   1. apt: python3-venv, python3-numpy, and python3-picamera2 where this system's apt offers it (Raspberry Pi's
#      repository: libcamera's Python binding comes only from there). Without it the Pi camera is not used; a USB
#      camera and the demo still work.
#   2. a system user `jantaku` in the video group, the user running sudo in the jantaku group (to read the config),
#      the project copied to /opt/jantaku
#   3. a venv made with --system-site-packages, so it sees the system's numpy and picamera2, and `pip install` of
#      the project held to the system's numpy (a constraints file): picamera2 and simplejpeg are built against
#      that numpy, and a second numpy in the venv would shadow it (Bookworm's 1.24 is too old for the project:
#      there a numpy 1.x goes in the venv, as picamera2 allows)
#   4. /etc/jantaku/config.toml (camera "auto", a random 6-digit PIN) unless it exists, root:jantaku mode 640, and
#      the systemd units (the table; the table card on an HDMI screen), enabled and started (an older config whose
#      PIN is shorter than 6 digits fails the check: set a longer one); /usr/local/bin/jantaku
# Environment: PREFIX (default /opt/jantaku), CONFIG (default /etc/jantaku/config.toml), NO_START=1 to only install.
# device/check-pi-trixie.sh runs this script in a Debian trixie arm64 root under qemu (docs/pi.md has the figures).
set -euo pipefail

PREFIX=${PREFIX:-/opt/jantaku}
CONFIG=${CONFIG:-/etc/jantaku/config.toml}
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UNIT=/etc/systemd/system/jantaku.service
CARD_UNIT=/etc/systemd/system/jantaku-card.service

say() { printf 'install-pi: %s\n' "$*"; }
die() { printf 'install-pi: %s\n' "$*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || die "run as root: sudo $0"
[[ -f $SRC/pyproject.toml && -f $SRC/device/systemd/jantaku.service ]] || die "run from a jantaku checkout ($SRC)"
command -v apt-get >/dev/null || die "this script is for Raspberry Pi OS / Debian (apt-get not found)"

say "1/4 system packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q python3-venv python3-numpy rsync
if apt-cache policy python3-picamera2 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    apt-get install -y -q python3-picamera2
else
    say "python3-picamera2 is not in this system's apt sources (Raspberry Pi's repository): no Pi camera;" \
        "a USB camera and the demo work"
fi

say "2/4 user and files in $PREFIX"
if ! id jantaku >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/jantaku --shell /usr/sbin/nologin --groups video jantaku
fi
usermod -a -G video jantaku
# the user who ran `sudo ./device/install-pi.sh` reads the table's config (root:jantaku 640) and runs `jantaku` commands
# on it: the jantaku group (from the next login on)
if [[ -n ${SUDO_USER:-} && $SUDO_USER != root ]] && id "$SUDO_USER" >/dev/null 2>&1; then
    usermod -a -G jantaku "$SUDO_USER"
    say "$SUDO_USER is in the jantaku group: log in again to read $CONFIG"
fi
mkdir -p "$PREFIX"
rsync -a --delete --exclude .git --exclude .venv --exclude '__pycache__' --exclude '*.egg-info' \
    --exclude /runs --exclude /datasets "$SRC"/ "$PREFIX"/

say "3/4 venv in $PREFIX/.venv"
[[ -x $PREFIX/.venv/bin/python ]] || python3 -m venv --system-site-packages "$PREFIX/.venv"
# pip may not replace the system's numpy: picamera2 and simplejpeg (apt) are built against it. Bookworm's numpy
# 1.24 is older than the project needs: there the venv gets a numpy 1.x, which they still import beside (numpy 2
# would break them).
SYSTEM_NUMPY=$(python3 -c 'import numpy; print(numpy.__version__)')
case $SYSTEM_NUMPY in
    1.[0-9].* | 1.1[0-9].* | 1.2[0-5].*) NUMPY_HOLD="numpy>=1.26,<2" ;;
    *) NUMPY_HOLD="numpy==$SYSTEM_NUMPY" ;;
esac
printf '%s\n' "$NUMPY_HOLD" >"$PREFIX/.venv/numpy.txt"
"$PREFIX/.venv/bin/pip" install --progress-bar off -c "$PREFIX/.venv/numpy.txt" -e "$PREFIX"
if [[ $NUMPY_HOLD == "numpy==$SYSTEM_NUMPY" ]]; then
    "$PREFIX/.venv/bin/python" - <<'PY' || die "the venv does not use the system's numpy"
import numpy
assert numpy.__file__.startswith("/usr/lib/python3/dist-packages/"), numpy.__file__
PY
    say "numpy $SYSTEM_NUMPY from the system"
else
    say "numpy $("$PREFIX/.venv/bin/python" -c 'import numpy; print(numpy.__version__)') in the venv (the system's $SYSTEM_NUMPY is too old)"
fi
if "$PREFIX/.venv/bin/python" -c "import picamera2" 2>/dev/null; then
    say "picamera2 imports: the Pi camera can be used"
else
    say "picamera2 does not import: a USB camera (camera.kind = \"opencv\") or the demo"
fi

say "4/4 config $CONFIG and the service"
if [[ ! -f $CONFIG ]]; then
    mkdir -p "$(dirname "$CONFIG")"
    # 6 digits from the operating system's secure source (device/table/pin.py), not bash's 15-bit generator
    PIN=$("$PREFIX/.venv/bin/python" -c 'from device.table.pin import new_pin; print(new_pin())')
    install -m 640 -o root -g jantaku /dev/null "$CONFIG"  # the PIN goes in: never readable by all, even briefly
    cat >"$CONFIG" <<TOML
# jantaku table config: see device/config.py for every key.
[camera]
kind = "auto"        # auto | picamera | opencv | replay | demo
width = 2028         # Pi HQ camera, 2x2 binned
height = 1520
fps = 2.0

[game]
rules = "standard"   # standard | wrc | tenhou
db = "/var/lib/jantaku/jantaku.db"

[site]
host = "0.0.0.0"
port = 8000
pin = "$PIN"
TOML
    say "new config with PIN $PIN (change it in $CONFIG)"
fi
# the PIN is in it: root writes it, the table (and the jantaku group) reads it, no one else
chown root:jantaku "$CONFIG"
chmod 640 "$CONFIG"
ln -sf "$PREFIX/.venv/bin/jantaku" /usr/local/bin/jantaku  # `jantaku` on everyone's PATH
"$PREFIX/.venv/bin/jantaku" run --config "$CONFIG" --check
install -m 644 "$PREFIX/device/systemd/jantaku.service" "$UNIT"
sed -i "s#/opt/jantaku#$PREFIX#g; s#/etc/jantaku/config.toml#$CONFIG#g" "$UNIT"
# the table card on an HDMI screen at boot, when one is attached (`jantaku card --screen`)
install -m 644 "$PREFIX/device/systemd/jantaku-card.service" "$CARD_UNIT"
sed -i "s#/opt/jantaku#$PREFIX#g; s#/etc/jantaku/config.toml#$CONFIG#g" "$CARD_UNIT"
if ! command -v systemctl >/dev/null; then
    # a container or a bare root: the install is done, only the service is not set up
    say "no systemd here: the unit is in $UNIT; start the table with $PREFIX/.venv/bin/jantaku run --config $CONFIG"
    exit 0
fi
if [[ ! -d /run/systemd/system ]]; then
    # a chroot: enable works on the files alone, and the table starts at the next boot
    systemctl enable jantaku.service jantaku-card.service
    say "systemd is not running here: the unit is installed and enabled, not started"
    exit 0
fi
systemctl daemon-reload
systemctl enable jantaku.service jantaku-card.service
if [[ ${NO_START:-0} != 1 ]]; then
    systemctl restart jantaku.service
    systemctl restart --no-block jantaku-card.service
    say "started: journalctl -u jantaku -f shows the table's address and log"
fi
