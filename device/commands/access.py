"""The table's PIN and join code from the command line: where the PIN comes from, ``jantaku token`` and
``jantaku card``.

    jantaku token show|rotate [--config FILE] [--db PATH] [--end-sessions]
    jantaku card --out card.pdf [--config FILE] [--db PATH] [--name jantaku.local]   (.pdf, .svg or .png)
    jantaku card --screen [--fb /dev/fb0] [...]     (full-screen on an HDMI screen; one line and nothing when none)

The PIN is read from ``--pin``, else ``[site] pin``, else the PIN file (``[site] pin_file``, by default ``pin``
beside the game's database), which is made with a random PIN, readable by its owner only, when it is missing.
The PIN is never printed or logged: the console says which file holds it. The join code (the token the table's
QR code carries) is in the game's database; ``jantaku token rotate`` makes a new one, which a running table
uses at once.
"""

from __future__ import annotations

import argparse
import os
import socket
from pathlib import Path
from typing import Any

from device.cli import UserError

PIN_FILE_NAME = "pin"


def table_pin(explicit: str | None, configured: str, pin_file: Path) -> tuple[str, str]:
    """The table's PIN and where it came from, said without the PIN itself (for the console).

    ``pin_file`` is made, with a random PIN, mode 0600, when neither ``explicit`` nor ``configured`` gives one and
    it does not exist. Raises UserError (one line) for an unreadable file or a PIN that will not do."""
    from device.table.pin import new_pin, pin_problem

    if explicit:
        pin, where, label = explicit, "the PIN given by --pin", "--pin"
    elif configured:
        pin, where, label = configured, "the PIN set in the config file ([site] pin)", "[site] pin"
    else:
        where, label = f"the PIN in {pin_file}", str(pin_file)
        try:
            pin = pin_file.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            pin = new_pin()
            try:
                pin_file.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(pin_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(pin + "\n")
            except OSError as exc:
                raise UserError(f"pin_file: cannot make {pin_file} ({exc.strerror or exc})") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"pin_file: cannot read {pin_file} ({exc})") from None
    problem = pin_problem(pin)
    if problem:
        raise UserError(f"{label}: {problem}")
    return pin, where


def default_pin_file(db: Path) -> Path:
    return db.parent / PIN_FILE_NAME


def mdns_name() -> str:
    """This machine's name on the local network by mDNS (avahi): its host name and ``.local``."""
    return socket.gethostname().split(".")[0] + ".local"


# --- jantaku token ---------------------------------------------------------------------------------------------


def _open_access(args: argparse.Namespace) -> tuple[Any, Any]:
    from device.config import find_config
    from device.table.access import TableAccess

    config = find_config(args.config)
    db = Path(args.db).expanduser() if args.db else config.game.db_path
    if not db.is_file():
        raise UserError(f"--db: no table database at {db} (start the table once, or give --db)")
    return config, TableAccess(db)


def join_url(base: str, token: str) -> str:
    return base.rstrip("/") + "/join/" + token


def token_command(args: argparse.Namespace) -> int:
    config, access = _open_access(args)
    try:
        token = access.rotate_join_token() if args.action == "rotate" else access.join_token()
        ended = access.delete_sessions() if args.end_sessions else 0
    finally:
        access.close()
    scheme = "https" if config.site.tls else "http"
    url = join_url(f"{scheme}://{args.name or mdns_name()}:{config.site.port}/", token)
    if args.action == "rotate":
        print("jantaku token: a new join code; the old one joins no one from now on (print a new card)")
    if args.end_sessions:
        print(f"jantaku token: {ended} phone(s) logged out")
    print(url)
    return 0


# --- jantaku card ----------------------------------------------------------------------------------------------


def card_command(args: argparse.Namespace) -> int:
    import segno

    if not args.out and not args.screen:
        raise UserError("give --out FILE (a card to print) or --screen (the card on the HDMI screen)")
    if args.screen and not args.out:
        from device.screen import screen_problem

        problem = screen_problem(args.fb)
        if problem is not None:  # a table without a screen: nothing to show, and nothing wrong
            print(f"jantaku card: {problem}: the card is not shown")
            return 0
    config, access = _open_access(args)
    try:
        token = access.join_token()
    finally:
        access.close()
    scheme = "https" if config.site.tls else "http"
    address = f"{scheme}://{args.name or mdns_name()}:{config.site.port}"
    lines = ("Jantaku table", "Scan to join: no PIN needed", "To watch, open", address)
    if args.screen:
        _card_on_screen(join_url(address, token), lines, args.fb)
    if not args.out:
        return 0
    out = Path(args.out).expanduser()
    kind = out.suffix.lower().lstrip(".")
    qr = segno.make(join_url(address, token), error="m")
    try:
        if kind == "pdf":
            out.write_bytes(card_pdf(qr, lines))
        elif kind == "svg":
            out.write_text(card_svg(qr, lines), encoding="utf-8")
        elif kind == "png":  # the code alone: a PNG with text would need Pillow
            qr.save(str(out), kind="png", scale=12, border=4)
        else:
            raise UserError(f"--out: {out.name}: expected a .pdf, .svg or .png file")
    except OSError as exc:
        raise UserError(f"--out: cannot write {out} ({exc.strerror or exc})") from None
    print(f"jantaku card: {out} (join code for {address}; `jantaku token rotate` voids it)")
    return 0


def _card_on_screen(url: str, lines: tuple[str, ...], fb: str) -> None:
    """The card full-screen on the framebuffer ``fb`` (:mod:`device.screen`), or one line saying why not."""
    from device.screen import ScreenError, show_on_screen

    try:
        shown = show_on_screen(url, lines, fb)
    except ScreenError as exc:
        raise UserError(f"--screen: {exc}") from None
    if shown is None:
        print(f"jantaku card: no screen attached ({fb}): the card is not shown")
    else:
        print(f"jantaku card: shown on {fb} ({shown.width}x{shown.height}, {shown.bpp} bits a pixel)")


def _modules(qr: Any) -> list[tuple[int, int]]:
    return [(x, y) for y, row in enumerate(qr.matrix) for x, dark in enumerate(row) if dark]


def card_svg(qr: Any, lines: tuple[str, ...]) -> str:
    """An A6 card (105 x 148 mm): the title, the QR code, and the address underneath."""
    from xml.sax.saxutils import escape

    size = len(qr.matrix)
    module = 70.0 / size
    left, top = (105 - 70) / 2, 24.0
    rects = "".join(
        f'<rect x="{left + x * module:.3f}" y="{top + y * module:.3f}" width="{module:.3f}" height="{module:.3f}"/>'
        for x, y in _modules(qr)
    )
    title, scan, watch, address = (escape(line) for line in lines)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="105mm" height="148mm" viewBox="0 0 105 148">'
        '<rect width="105" height="148" fill="#fff"/>'
        f'<text x="52.5" y="16" font-family="sans-serif" font-size="8" text-anchor="middle">{title}</text>'
        f'<g fill="#000" shape-rendering="crispEdges">{rects}</g>'
        f'<text x="52.5" y="106" font-family="sans-serif" font-size="5" text-anchor="middle">{scan}</text>'
        f'<text x="52.5" y="120" font-family="sans-serif" font-size="4" text-anchor="middle">{watch}</text>'
        f'<text x="52.5" y="127" font-family="monospace" font-size="4.2" text-anchor="middle">{address}</text>'
        "</svg>\n"
    )


def card_pdf(qr: Any, lines: tuple[str, ...]) -> bytes:
    """The same A6 card as a one-page PDF (Helvetica and Courier, which every PDF reader has: nothing embedded)."""
    mm = 72 / 25.4
    width, height = 105 * mm, 148 * mm
    size = len(qr.matrix)
    module = 70 * mm / size
    left, top = (width - 70 * mm) / 2, height - 24 * mm
    ops = ["0 g"]
    ops += [
        f"{left + x * module:.2f} {top - (y + 1) * module:.2f} {module:.2f} {module:.2f} re" for x, y in _modules(qr)
    ]
    ops.append("f")

    def text(font: str, points: float, y_mm: float, line: str) -> str:
        # centred by the font's average advance (Courier: 0.6 em; Helvetica: about 0.5 em for this text)
        advance = 0.6 if font == "F2" else 0.52
        x = (width - len(line) * points * advance) / 2
        safe = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        return f"BT /{font} {points} Tf {x:.2f} {height - y_mm * mm:.2f} Td ({safe}) Tj ET"

    title, scan, watch, address = lines
    ops += [
        text("F1", 22, 16, title),
        text("F1", 14, 106, scan),
        text("F1", 11, 120, watch),
        text("F2", 12, 127, address),
    ]
    content = "\n".join(ops).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width:.2f} {height:.2f}] /Contents 4 0 R "
            "/Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>"
        ).encode(),
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
    ]
    pdf = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(pdf))
        pdf += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(pdf)
    pdf += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    pdf += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    pdf += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(pdf)


def register(commands: Any) -> None:
    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--config", metavar="FILE", help="TOML config (default: as jantaku run finds it)")
        p.add_argument("--db", metavar="PATH", help="the table's database (default: [game] db)")
        p.add_argument("--name", help="the table's name on the network (default: this machine's, .local)")

    p = commands.top.add_parser("token", help="show or rotate the join code the table's QR code carries")
    p.add_argument("action", choices=("show", "rotate"))
    p.add_argument("--end-sessions", action="store_true", help="also log every phone out")
    common(p)
    p.set_defaults(func=token_command)
    p = commands.top.add_parser("card", help="print the table card: the join code's QR and the table's address")
    p.add_argument("--out", metavar="FILE", help="card.pdf, card.svg, or card.png (the code alone)")
    p.add_argument(
        "--screen", action="store_true", help="show the card full-screen on the HDMI screen, if one is there"
    )
    p.add_argument("--fb", default="/dev/fb0", metavar="DEVICE", help="the screen's framebuffer (default /dev/fb0)")
    common(p)
    p.set_defaults(func=card_command)


__all__ = ["register", "table_pin"]
