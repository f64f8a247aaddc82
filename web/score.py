"""The score page: a hand from a photo, the table camera or the tile keyboard."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("score", __name__)

FLAG_LABELS = (
    ("riichi", "Riichi"),
    ("ippatsu", "Ippatsu"),
    ("double_riichi", "Double riichi"),
    ("open_riichi", "Open riichi"),
    ("rinshan", "Rinshan"),
    ("chankan", "Chankan"),
    ("haitei", "Haitei"),
    ("houtei", "Houtei"),
    ("tenhou", "Tenhou"),
    ("chiihou", "Chiihou"),
    ("renhou", "Renhou"),
)


@bp.get("/score")
def page():
    return render_template("score.html", flags=FLAG_LABELS)
