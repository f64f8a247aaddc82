#!/usr/bin/env bash
# The Pi install, checked without a Pi: a Debian 13 "trixie" arm64 root made with debootstrap and run under
# qemu-user-static, install-pi.sh run inside it, then `jantaku run --demo` there until the demo scores its hand.
#
#   sudo ./device/check-pi-trixie.sh                # on a Debian/Ubuntu amd64 machine; slow (emulated arm64)
#   ARCH=amd64 sudo ./device/check-pi-trixie.sh     # the same root natively: quick, checks the script alone
#
# Needs root and `apt-get install debootstrap qemu-user-static binfmt-support`. Every step is kept: run it again
# and it goes on from where it stopped (remove $ROOT for a fresh root). Environment:
#   SUITE   the Debian release (default trixie; bookworm checks the older Raspberry Pi OS base)
#   ROOT    the root's folder (default /var/tmp/jantaku-$SUITE-$ARCH)
#   MIRROR  the Debian mirror (default: the one this machine's apt uses)
#   SRC     the checkout to install (default: the one holding this script)
#   LOG     the log folder (default $ROOT.logs): debootstrap.log, install.log, demo.log, times.txt
#   DEMO_TIMEOUT  seconds the demo may take to score its hand (default 3600)
#   UNTIL=root    make the root and stop
#   README=1      run the README's two set-up commands in the root instead (see below); ARCH=amd64 is quick
# What comes out: $LOG/times.txt, one line per step, `step seconds`; exit 0 when the demo scored its hand.
set -euo pipefail

ARCH=${ARCH:-arm64}
SUITE=${SUITE:-trixie}
ROOT=${ROOT:-/var/tmp/jantaku-$SUITE-$ARCH}
LOG=${LOG:-$ROOT.logs}
DEMO_TIMEOUT=${DEMO_TIMEOUT:-3600}
SRC=${SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

say() { printf 'check-pi: %s\n' "$*"; }
die() { printf 'check-pi: %s\n' "$*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || die "run as root (debootstrap and chroot need it)"
command -v debootstrap >/dev/null || die "apt-get install debootstrap qemu-user-static binfmt-support"

apt_mirror() {
    # the mirror this machine's apt already uses for Debian (deb822 .sources or the one-line sources.list)
    local uri
    uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n1 || true)
    [[ -n $uri ]] || uri=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | grep -v security | head -n1 || true)
    [[ -n $uri ]] || die "no Debian mirror in /etc/apt: set MIRROR"
    printf '%s' "$uri"
}
MIRROR=${MIRROR:-$(apt_mirror)}

mkdir -p "$LOG"
TIMES=$LOG/times.txt
timed() {  # timed STEP COMMAND...: run it, add "STEP SECONDS" to times.txt when it succeeds; its exit status
    local step=$1 t0 rc=0
    shift
    t0=$(date +%s)
    "$@" || rc=$?
    ((rc != 0)) || printf '%s %d\n' "$step" $(($(date +%s) - t0)) | tee -a "$TIMES"
    return "$rc"
}

emulated=0
if [[ $ARCH != "$(dpkg --print-architecture)" ]]; then
    emulated=1
    QEMU=$(command -v "qemu-${ARCH/arm64/aarch64}-static") || die "apt-get install qemu-user-static binfmt-support"
    # chroot runs arm64 programs through binfmt_misc: mount it and enable qemu's entry (both may be done already)
    mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
        || die "binfmt_misc cannot be mounted here: arm64 programs cannot run in the root"
    update-binfmts --enable "qemu-${ARCH/arm64/aarch64}" 2>/dev/null || true
fi

# 1. the root: the required packages and apt (minbase), as little as a system has; install-pi.sh brings the rest.
# (The default variant's "important" set took over 25 minutes of emulated perl per package group here, for
# nothing the install needs.)
if [[ ! -f $ROOT/.jantaku-root-done ]]; then
    say "1/4 debootstrap $SUITE $ARCH from $MIRROR into $ROOT (log: $LOG/debootstrap.log)"
    rm -rf "$ROOT"
    if [[ $emulated == 1 ]]; then
        timed debootstrap-first debootstrap --arch="$ARCH" --foreign --variant=minbase --include=ca-certificates \
            "$SUITE" "$ROOT" "$MIRROR" >"$LOG/debootstrap.log" 2>&1
        install -m 755 "$QEMU" "$ROOT/usr/bin/"  # for a kernel whose binfmt entry has no F flag
        timed debootstrap-second chroot "$ROOT" /debootstrap/debootstrap --second-stage >>"$LOG/debootstrap.log" 2>&1
    else
        timed debootstrap debootstrap --arch="$ARCH" --variant=minbase --include=ca-certificates \
            "$SUITE" "$ROOT" "$MIRROR" >"$LOG/debootstrap.log" 2>&1
    fi
    touch "$ROOT/.jantaku-root-done"
fi
[[ ${UNTIL:-} != root ]] || exit 0

# the root's /proc, /sys, /dev and the name server, for as long as this script runs
mounted=()
bind() { mount "$@" && mounted+=("${@: -1}"); }
cleanup() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" || true; done
}
trap cleanup EXIT
mountpoint -q "$ROOT/proc" || bind -t proc proc "$ROOT/proc"
# no /sys when emulated: it describes this machine's CPUs, and onnxruntime's cpuinfo crashes on them under qemu
# (without it onnxruntime warns and runs)
[[ $emulated == 1 ]] || mountpoint -q "$ROOT/sys" || bind -t sysfs sysfs "$ROOT/sys"
mountpoint -q "$ROOT/dev" || bind --bind /dev "$ROOT/dev"
mountpoint -q "$ROOT/dev/pts" || bind -t devpts devpts "$ROOT/dev/pts"
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
# this machine's own local certificate authorities (a proxy that inspects TLS): pip in the root needs them too
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    mkdir -p "$ROOT/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    [[ -x $ROOT/usr/sbin/update-ca-certificates ]] || chroot "$ROOT" bash -c \
        'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ca-certificates' >/dev/null
    chroot "$ROOT" update-ca-certificates >/dev/null
fi
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive PIP_CERT=/etc/ssl/certs/ca-certificates.crt "$@"; }

# README=1: the README's set-up, as a newcomer pastes it, in the root with its system Python: the prerequisite
# (apt: git, python3-venv), git clone, then command 1 until the demo it plays scores its hand, then command 2.
# README_PYTEST: arguments for command 2's pytest through PYTEST_ADDOPTS, the command itself left as written
# (default: a few test files; "" runs the whole suite).
if [[ ${README:-0} == 1 ]]; then
    say "README: its two set-up commands in the root (log: $LOG/readme.log)"
    readme_command() {  # the README's command under "# N. "
        awk -v n="$1" '$0 ~ "^# " n "\\. " {getline; print; exit}' "$SRC/README.md"
    }
    first=$(readme_command 1)
    second=$(readme_command 2)
    [[ -n $first && -n $second ]] || die "README.md has no commands under '# 1. ' and '# 2. '"
    git -C "$SRC" bundle create "$ROOT/tmp/jantaku.bundle" HEAD >/dev/null 2>&1
    in_root apt-get install -y -q git python3-venv >"$LOG/readme.log" 2>&1
    id newcomer >/dev/null 2>&1 || in_root useradd --create-home newcomer
    as_newcomer() { in_root runuser -u newcomer -- env HOME=/home/newcomer PIP_CERT="$PIP_CERT_ROOT" "$@"; }
    PIP_CERT_ROOT=/etc/ssl/certs/ca-certificates.crt
    as_newcomer bash -c 'cd && rm -rf jantaku && git clone -q /tmp/jantaku.bundle jantaku' >>"$LOG/readme.log" 2>&1
    printf '+ %s\n' "$first" >>"$LOG/readme.log"
    t0=$(date +%s)
    setsid bash -c "$(declare -f in_root as_newcomer); PIP_CERT_ROOT=$PIP_CERT_ROOT ROOT=$ROOT; \
        as_newcomer bash -c \"cd ~/jantaku && $first\"" >>"$LOG/readme.log" 2>&1 &
    job=$!  # its own process group: stopped as one below
    scored=""
    while [[ -z $scored ]] && kill -0 "$job" 2>/dev/null && (($(date +%s) - t0 < DEMO_TIMEOUT)); do
        sleep 5
        scored=$(python3 - 8000 <<'PY' 2>/dev/null || true
import json, sys, urllib.request
state = json.load(urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/api/state", timeout=5))
print(json.dumps(((state.get("game") or {}).get("history") or [""])[0])[:300] if (state.get("game") or {}).get("history") else "")
PY
)
    done
    kill -TERM -- -"$job" 2>/dev/null || true
    wait "$job" 2>/dev/null || true
    [[ -n $scored ]] || die "README command 1: the demo scored no hand in $(($(date +%s) - t0)) s (see $LOG/readme.log)"
    printf 'readme-command-1-first-score %d\n' $(($(date +%s) - t0)) | tee -a "$TIMES"
    say "command 1 scored: $scored"
    printf '+ %s\n' "$second" >>"$LOG/readme.log"
    t0=$(date +%s)
    addopts=${README_PYTEST-tests/test_readme.py tests/device/test_demo_counts.py tests/device/test_run.py -q}
    as_newcomer env PYTEST_ADDOPTS="$addopts" bash -c "cd ~/jantaku && $second" >>"$LOG/readme.log" 2>&1 \
        || { tail -n 30 "$LOG/readme.log" >&2; die "README command 2 failed (see $LOG/readme.log)"; }
    printf 'readme-command-2 %d\n' $(($(date +%s) - t0)) | tee -a "$TIMES"
    tail -n 3 "$LOG/readme.log"
    exit 0
fi

# 2. the checkout, as a user would have it after git clone (no .git, no venv, no caches)
say "2/4 the checkout into $ROOT/home/pi/jantaku"
mkdir -p "$ROOT/home/pi/jantaku"
tar -C "$SRC" --exclude=.git --exclude=.venv --exclude=__pycache__ --exclude='*.egg-info' --exclude=.pytest_cache \
    --exclude=./runs --exclude=./datasets -cf - . | tar -C "$ROOT/home/pi/jantaku" -xf -

# 3. install-pi.sh, as its guide says (NO_START: there is no systemd running in a chroot)
if [[ ! -f $ROOT/.jantaku-install-done ]]; then
    say "3/4 install-pi.sh in the root (log: $LOG/install.log)"
    timed install in_root bash -c 'cd /home/pi/jantaku && NO_START=1 ./device/install-pi.sh' >"$LOG/install.log" 2>&1 \
        || { tail -n 30 "$LOG/install.log" >&2; die "install-pi.sh failed: $LOG/install.log"; }
    tail -n 5 "$LOG/install.log"
    touch "$ROOT/.jantaku-install-done"
else
    # installed before: this checkout's files replace the installed ones (an editable install: the venv takes them)
    say "3/4 installed before: the checkout's files into /opt/jantaku"
    in_root rsync -a --delete --exclude .venv --exclude __pycache__ --exclude '*.egg-info' \
        /home/pi/jantaku/ /opt/jantaku/
fi

# 4. the demo, served as the unit serves it, until the phone site's state holds a scored hand
say "4/4 jantaku run --demo in the root until it scores a hand (log: $LOG/demo.log)"
PORT=${PORT:-18642}
t0=$(date +%s)
setsid chroot "$ROOT" runuser -u jantaku -- env -i PATH=/usr/bin:/bin HOME=/var/lib/jantaku LANG=C.UTF-8 \
    /opt/jantaku/.venv/bin/jantaku run --demo --host 127.0.0.1 --port "$PORT" --pin 135792 >"$LOG/demo.log" 2>&1 &
demo=$!  # its own process group: stopped as one below
scored=""
while [[ -z $scored ]] && kill -0 "$demo" 2>/dev/null && (($(date +%s) - t0 < DEMO_TIMEOUT)); do
    sleep 5
    # the engine's first settled hand: the game's hand log gets its first entry
    scored=$(python3 - "$PORT" <<'PY' 2>/dev/null || true
import json, sys, urllib.request
# (emulated, the site answers slowly while a read holds the interpreter: wait for it)
state = json.load(urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/api/state", timeout=60))
game = state.get("game") or {}
hands = game.get("history") or []
if hands:
    print(json.dumps(hands[0])[:300])
PY
)
done
t1=$(date +%s)
kill -TERM -- -"$demo" 2>/dev/null || true
wait "$demo" 2>/dev/null || true
[[ -n $scored ]] || { tail -n 30 "$LOG/demo.log" >&2; die "the demo scored no hand in $((t1 - t0)) s"; }
printf 'demo-first-score %d\n' $((t1 - t0)) | tee -a "$TIMES"
say "scored: $scored"
say "done: $TIMES"
