"""The table's configuration: one TOML file, every field typed, every field optional.

With no file at all the defaults run the bundled demo when there is no camera. A file may set any of::

    [camera]
    kind = "auto"        # auto | picamera | opencv | replay | demo
    index = 0            # USB camera index (kind = "opencv")
    width = 2028         # capture size in pixels (a Pi HQ camera's binned mode)
    height = 1520
    fps = 2.0            # frames taken per second; a replay is paced at this rate
    path = ""            # a folder of images or a video (kind = "replay")

    [detector]
    model = ""           # ONNX model; empty: the shipped models/tiles.onnx ($JANTAKU_MODEL)
    camera_model = ""    # the camera's ONNX model; empty: model when set, else the shipped models/tiles_camera.onnx
    conf = 0.25          # lowest detection confidence kept
    crop_views = true    # the crop classifier reads each tile in four views (false: once; a slow Pi reads faster)

    [loop]
    max_reads_per_second = 1.0   # detector runs at most this often
    change_threshold = 6.0       # grey levels (0..255) in the most changed patch that make a new table
    motion_threshold = 3.0       # the same between consecutive frames: above it something still moves

    [game]
    rules = "standard"   # standard | wrc | tenhou
    db = "~/.local/share/jantaku/jantaku.db"
    camera_seat = 0      # the seat (1..4) at the bottom edge of the camera's frame; 0: not known (the
                         # phones then name the seats the camera reads near, right, far and left)
    auto_confirm_s = 0.0 # a win or draw the camera saw laid down settles itself after this many seconds;
                         # 0: never (a phone confirms it with the PIN). The demo settles after a few seconds

    [site]
    host = "0.0.0.0"
    port = 8000
    pin = ""             # 6-12 digits; empty: read from pin_file
    pin_file = ""        # a file holding the PIN; empty: "pin" beside game.db, made with a random PIN if missing
    session_hours = 12.0 # a phone that joined is asked for the PIN again after this long
    tls = false          # serve https with a self-signed certificate made once and kept beside game.db

A wrong key, type or value raises :class:`ConfigError` whose one line names the file and the key.

>>> Config().camera.kind, Config().site.port
('auto', 8000)
>>> parse_config({"site": {"port": "80"}}, "table.toml")
Traceback (most recent call last):
...
device.config.ConfigError: table.toml: site.port: expected an integer, got '80'
"""

from __future__ import annotations

import os
import tomllib
import types
import typing
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from device.camera.kinds import CAMERA_KINDS
from device.cli import UserError
from device.table.pin import MAX_PIN_DIGITS, MIN_PIN_DIGITS, pin_problem
from engine.rules import PRESETS

#: Where ``jantaku run`` looks for a config file when none is given (the first that exists).
ENV_VAR = "JANTAKU_CONFIG"
DEFAULT_LOCATIONS = (Path("~/.config/jantaku/config.toml"), Path("/etc/jantaku/config.toml"))


class ConfigError(UserError):
    """A config file that cannot be used: one line naming the file and the key."""


def _check(condition: bool, message: str) -> str | None:
    return None if condition else message


@dataclass(frozen=True)
class CameraConfig:
    kind: str = "auto"
    index: int = 0
    width: int = 2028
    height: int = 1520
    fps: float = 2.0
    path: str = ""

    def problems(self) -> dict[str, str | None]:
        return {
            "kind": _check(self.kind in CAMERA_KINDS, f"expected one of {', '.join(CAMERA_KINDS)}"),
            "index": _check(self.index >= 0, "expected 0 or more"),
            "width": _check(16 <= self.width <= 16384, "expected 16..16384 pixels"),
            "height": _check(16 <= self.height <= 16384, "expected 16..16384 pixels"),
            "fps": _check(0 < self.fps <= 120, "expected more than 0 and at most 120"),
            "path": _check(self.kind != "replay" or bool(self.path), 'a replay needs a path (kind = "replay")'),
        }


@dataclass(frozen=True)
class DetectorConfig:
    model: str = ""
    camera_model: str = ""
    conf: float = 0.25
    crop_views: bool = True

    def problems(self) -> dict[str, str | None]:
        return {"conf": _check(0 < self.conf < 1, "expected between 0 and 1")}


@dataclass(frozen=True)
class LoopConfig:
    max_reads_per_second: float = 1.0
    change_threshold: float = 6.0
    motion_threshold: float = 3.0

    def problems(self) -> dict[str, str | None]:
        return {
            "max_reads_per_second": _check(self.max_reads_per_second > 0, "expected more than 0"),
            "change_threshold": _check(0 <= self.change_threshold <= 255, "expected 0..255"),
            "motion_threshold": _check(0 <= self.motion_threshold <= 255, "expected 0..255"),
        }


@dataclass(frozen=True)
class GameConfig:
    rules: str = "standard"
    db: str = "~/.local/share/jantaku/jantaku.db"
    #: The seat (1..4, as the phones number them) at the bottom edge of the camera's frame; 0: not known.
    camera_seat: int = 0
    #: Seconds after which a result the camera saw (a win, a draw) settles itself; 0: only a phone confirms it.
    auto_confirm_s: float = 0.0

    def problems(self) -> dict[str, str | None]:
        return {
            "rules": _check(self.rules in PRESETS, f"expected one of {', '.join(PRESETS)}"),
            "camera_seat": _check(0 <= self.camera_seat <= 4, "expected 1..4 (0: not known)"),
            "auto_confirm_s": _check(0 <= self.auto_confirm_s <= 3600, "expected 0 (never) to 3600 seconds"),
        }

    @property
    def db_path(self) -> Path:
        return Path(self.db).expanduser()


@dataclass(frozen=True)
class SiteConfig:
    host: str = "0.0.0.0"
    port: int = 8000
    pin: str = ""
    #: A file holding the PIN (kept out of ``ps`` and the journal); empty: ``pin`` beside the game's database.
    pin_file: str = ""
    #: How long a phone stays joined after entering the PIN.
    session_hours: float = 12.0
    #: Serve https with a self-signed certificate made once and kept beside the game's database.
    tls: bool = False

    def problems(self) -> dict[str, str | None]:
        return {
            "host": _check(bool(self.host.strip()), "expected a host name or address"),
            "port": _check(0 <= self.port <= 65535, "expected 0..65535"),
            "pin": _check(
                self.pin == "" or pin_problem(self.pin) is None, f"expected {MIN_PIN_DIGITS}-{MAX_PIN_DIGITS} digits"
            ),
            "session_hours": _check(0 < self.session_hours <= 24 * 365, "expected more than 0 hours (at most a year)"),
        }


@dataclass(frozen=True)
class Config:
    """Everything ``jantaku run`` needs; ``source`` names the file it came from (empty: defaults)."""

    camera: CameraConfig = field(default_factory=CameraConfig)
    detector: DetectorConfig = field(default_factory=DetectorConfig)
    loop: LoopConfig = field(default_factory=LoopConfig)
    game: GameConfig = field(default_factory=GameConfig)
    site: SiteConfig = field(default_factory=SiteConfig)
    source: str = ""

    def with_overrides(self, **sections: dict[str, Any]) -> Config:
        """A copy with some fields changed, checked like a file: ``with_overrides(site={"port": 9000})``."""
        changed = self
        for section, values in sections.items():
            current = getattr(self, section)
            for key, val in values.items():
                _check_type(type(current), key, val, f"{section}.{key}", self.source or "command line")
            changed = replace(changed, **{section: replace(getattr(changed, section), **values)})
        _validate(changed, self.source or "command line")
        return changed


_SECTIONS = {f.name: f for f in fields(Config) if f.name != "source"}


def _type_name(tp: Any) -> str:
    return {int: "an integer", float: "a number", str: "a string", bool: "true or false"}.get(tp, str(tp))


def _check_type(cls: type, key: str, val: Any, where: str, origin: str) -> Any:
    hints = typing.get_type_hints(cls)
    if key not in hints:
        known = ", ".join(f.name for f in fields(cls))
        raise ConfigError(f"{origin}: {where}: unknown key (known: {known})")
    tp = hints[key]
    if isinstance(tp, types.UnionType):  # pragma: no cover - no optional fields yet
        tp = next(t for t in typing.get_args(tp) if t is not type(None))
    ok = isinstance(val, tp) and not (tp in (int, float) and isinstance(val, bool))
    if tp is float and isinstance(val, int) and not isinstance(val, bool):
        val, ok = float(val), True
    if not ok:
        raise ConfigError(f"{origin}: {where}: expected {_type_name(tp)}, got {val!r}")
    return val


def _validate(config: Config, origin: str) -> None:
    for name in _SECTIONS:
        for key, problem in getattr(config, name).problems().items():
            if problem:
                raise ConfigError(f"{origin}: {name}.{key}: {problem}, got {getattr(getattr(config, name), key)!r}")


def parse_config(data: dict[str, Any], origin: str = "config") -> Config:
    """A :class:`Config` from parsed TOML, every key and value checked."""
    sections: dict[str, Any] = {}
    for name, values in data.items():
        if name not in _SECTIONS:
            raise ConfigError(f"{origin}: {name}: unknown section (known: {', '.join(_SECTIONS)})")
        if not isinstance(values, dict):
            raise ConfigError(f"{origin}: {name}: expected a [{name}] table, got {values!r}")
        cls = _SECTIONS[name].default_factory  # type: ignore[misc]
        checked = {key: _check_type(cls, key, val, f"{name}.{key}", origin) for key, val in values.items()}
        sections[name] = cls(**checked)
    config = Config(**sections, source=origin)
    _validate(config, origin)
    return config


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read and check one TOML file."""
    p = Path(path).expanduser()
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such config file") from None
    except PermissionError:
        raise ConfigError(f"{p}: {permission_hint(p)}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{p}: cannot read the config file ({exc})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML ({exc})") from None
    return parse_config(data, str(p))


def permission_hint(path: Path) -> str:
    """What to do about a config file this user may not read. The Pi's install makes it ``root:jantaku``, mode 640,
    and puts the user who ran it in the group ``jantaku``."""
    import getpass

    try:
        import grp

        st = path.stat()
        group = grp.getgrgid(st.st_gid).gr_name if st.st_mode & 0o040 else ""
    except (ImportError, OSError, KeyError):  # no groups here (Windows), or a group without a name
        group = ""
    try:
        user = getpass.getuser()
    except (OSError, KeyError):
        user = "$USER"
    if group and group != "root":
        return f"this user may not read it (the {group} group's): `sudo usermod -aG {group} {user}`, then log in again"
    return f"this user may not read it: `sudo chown root:jantaku {path} && sudo chmod 640 {path}` (the jantaku group's)"


def find_config(explicit: str | os.PathLike[str] | None = None) -> Config:
    """The config to run with: the file given, else ``$JANTAKU_CONFIG``, else the first of
    :data:`DEFAULT_LOCATIONS` that exists, else the defaults."""
    if explicit:
        return load_config(explicit)
    env = os.environ.get(ENV_VAR)
    if env:
        return load_config(env)
    for candidate in DEFAULT_LOCATIONS:
        if candidate.expanduser().is_file():
            return load_config(candidate)
    return Config()


def example_toml() -> str:
    """The documented example file (this module's docstring), every line valid."""
    doc = __doc__ or ""
    start = doc.index("[camera]")
    end = doc.index("A wrong key")
    return "\n".join(line[4:] for line in doc[start - 4 : end].rstrip().splitlines()) + "\n"
