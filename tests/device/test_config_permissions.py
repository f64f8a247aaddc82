"""A config file this user may not read (an installed Pi's /etc/jantaku/config.toml is root:jantaku, mode 640): one
line naming the file and what to do, exit 2, no traceback. install-pi.sh makes the file so and puts the user who ran
it in the jantaku group.

The command runs as a process that the file's mode keeps out: a user's own process; as root, one without the
capabilities that let root read any file (``setpriv``), so that the test means the same in CI and here."""

from __future__ import annotations

import grp
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (ROOT / "device" / "install-pi.sh").read_text(encoding="utf-8")


def jantaku_kept_out(args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    """``jantaku ARGS`` as a process the files' modes apply to (root without CAP_DAC_OVERRIDE/READ_SEARCH)."""
    command = [sys.executable, "-c", "import sys; from device.cli import main; sys.exit(main(sys.argv[1:]))", *args]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("root without setpriv: every file is readable")
        command = [setpriv, "--bounding-set=-dac_override,-dac_read_search", *command]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(home)}
    env.pop("JANTAKU_CONFIG", None)
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


def expected_hint(path: Path) -> str:
    st = path.stat()
    group = grp.getgrgid(st.st_gid).gr_name
    if st.st_mode & 0o040 and group != "root":
        return f"(the {group} group's): `sudo usermod -aG {group} "
    return f"`sudo chown root:jantaku {path} && sudo chmod 640 {path}` (the jantaku group's)"


@pytest.mark.parametrize(
    ("mode", "group", "where"),
    [
        (0o040, "nogroup", "given"),  # the group's, and this user not in it (as on the Pi before `usermod`)
        (0o040, "nogroup", "found"),  # the same, found in ~/.config/jantaku (no --config)
        (0o000, None, "given"),  # no one's: made readable by the jantaku group
    ],
)
def test_a_config_this_user_may_not_read_is_one_line_and_exit_2(tmp_path, mode, group, where):
    config = tmp_path / ".config" / "jantaku" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[site]\npin = "482913"\n')
    if group is not None and os.geteuid() == 0:
        shutil.chown(config, group=group)  # a group that is not root's (root is in its own group)
    config.chmod(mode)
    args = ["run", "--check"] + (["--config", str(config)] if where == "given" else [])
    proc = jantaku_kept_out(args, tmp_path)
    assert proc.returncode == 2, proc.stderr
    line = proc.stderr
    assert line.count("\n") == 1 and "Traceback" not in line, line
    assert line.startswith(f"jantaku run: {config}: this user may not read it"), line
    assert expected_hint(config) in line, line
    assert "482913" not in line + proc.stdout


def test_install_pi_gives_the_config_to_the_jantaku_group_and_the_installing_user_to_it(tmp_path):
    """The lines of install-pi.sh that set the config's owner and mode and the user's groups, with the system's
    commands recorded instead of run."""
    start = SCRIPT.index("# the user who ran `sudo ./device/install-pi.sh`")
    users = SCRIPT[start : SCRIPT.index('mkdir -p "$PREFIX"', start)]
    start = SCRIPT.index("# the PIN is in it: root writes it")
    config = SCRIPT[start : SCRIPT.index('"$PREFIX/.venv/bin/jantaku" run', start)]
    log = tmp_path / "calls.log"
    stubs = "\n".join(f'{name}() {{ echo "{name} $*" >> {log}; }}' for name in ("usermod", "chown", "chmod", "ln"))
    for sudo_user, joins in [("alice", True), ("root", False), ("", False), ("nosuchuser", False)]:
        log.write_text("")
        bash = (
            f'say() {{ echo "say: $*"; }}\nid() {{ [[ $1 != nosuchuser ]]; }}\n{stubs}\n'
            f"SUDO_USER={sudo_user} CONFIG=/etc/jantaku/config.toml PREFIX=/opt/jantaku\n{users}\n{config}\n"
        )
        subprocess.run(["bash", "-euo", "pipefail", "-c", bash], check=True, capture_output=True, text=True)
        calls = log.read_text().splitlines()
        assert ("usermod -a -G jantaku alice" in calls) == joins, (sudo_user, calls)
        assert [c for c in calls if not c.startswith(("usermod", "ln"))] == [
            "chown root:jantaku /etc/jantaku/config.toml",
            "chmod 640 /etc/jantaku/config.toml",
        ]
    new_config = SCRIPT[SCRIPT.index("if [[ ! -f $CONFIG ]]; then") : SCRIPT.index('cat >"$CONFIG" <<TOML')]
    assert 'install -m 640 -o root -g jantaku /dev/null "$CONFIG"' in new_config  # made 640 before the PIN goes in
