#!/usr/bin/env bash
# One detector training run on a lent GPU machine, in one call, within its time limit (models/tiles.md).
#
# The machine is bare and offline: the call carries .gpu/ (ignored by git), made here beforehand:
#   .gpu/whl/          wheels missing there: ultralytics, ultralytics-thop, mahjong
#   .gpu/art/Export/   the FluffyStuff artwork (../shared does not travel)
#   .gpu/real-photos/  a copy of ../shared/data/real-photos/leo-miura-robot (its training split is used)
#   .gpu/start.pt      the checkpoint to continue from; a fresh machine has no .pt, so make it from the shipped model:
#     python -c "from pathlib import Path as P; from vision.train import training as t; t.checkpoint_from_onnx(P('.gpu/start.pt'),
#       P('models/tiles.onnx'), t.calibration_batch([P('datasets/synth1/train')], 512))"   (norms calibrated: see there)
#     (without it the call starts from models/tiles.onnx itself, which needs the onnx package there)
#   .gpu/extra/        optional: rendered images made here (drawn faces need CJK fonts that machine lacks)
# It renders synth-1 images there on every core until RENDER_S, trains on the GPU for what is left of BUDGET_S
# (ultralytics fits its schedule to the time), and leaves last.pt, results.csv and the log in $OUT.
# Dry run on a CPU: BUDGET_S=240 RENDER_S=30 DEVICE=cpu BATCH=8 OUT=/tmp/out bash vision/train/train_on_lent_gpu.sh
set -u
T0=$(date +%s)
BUDGET_S=${BUDGET_S:-535}
RENDER_S=${RENDER_S:-140}
IMGSZ=${IMGSZ:-512}
BATCH=${BATCH:-64}
DEVICE=${DEVICE:-0}
SEED=${SEED:-11}
# 0.001: going on from the shipped model (run 5), 0.002 shakes it more than a short run wins back (docs/experiments/tiles-detector.md)
LR0=${LR0:-0.001}
OUT=${OUT:?OUT must name the folder for the results}
CORES=$(nproc)
# torch's loader workers pass batches through /dev/shm: a small one (as in some containers) kills them
SHM_KB=$(df -k --output=avail /dev/shm 2>/dev/null | tail -n 1); SHM_KB=${SHM_KB:-0}
if [ "$SHM_KB" -ge 8000000 ]; then LOADERS=$CORES; elif [ "$SHM_KB" -ge 1000000 ]; then LOADERS=4; else LOADERS=0; fi
elapsed() { echo $(( $(date +%s) - T0 )); }

python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/jantaku-site \
    .gpu/whl/*.whl || exit 1
# ultralytics imports polars only to read its own results.csv back; a few lines of csv stand in for a 54 MB wheel
if [ -n "${POLARS_SHIM:-}" ] || ! python3 -c "import polars" 2>/dev/null; then
    mkdir -p /tmp/jantaku-shim/polars
    cat > /tmp/jantaku-shim/polars/__init__.py <<'PY'
"""Stand-in for the two polars calls ultralytics' trainer makes (read its results.csv, build a summary frame)."""
import csv
import io


class DataFrame:
    def __init__(self, data=None, **_):
        if isinstance(data, dict):
            self.columns = {k: list(v) for k, v in data.items()}
        else:
            rows = list(data or [])
            self.columns = {k: [r.get(k) for r in rows] for k in (rows[0] if rows else {})}

    def to_dict(self, as_series=True):
        return dict(self.columns)

    def write_csv(self):
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(self.columns)
        writer.writerows(zip(*self.columns.values()))
        return out.getvalue()


def read_csv(source, **_):
    text = source.decode() if isinstance(source, bytes) else open(source, encoding="utf-8").read()
    rows = list(csv.reader(io.StringIO(text)))
    def value(v):
        try:
            return float(v)
        except ValueError:
            return v
    return DataFrame({h.strip(): [value(r[i]) for r in rows[1:]] for i, h in enumerate(rows[0])})
PY
fi
export PYTHONPATH=/tmp/jantaku-site:/tmp/jantaku-shim:$PWD PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
export JANTAKU_TILE_ART=$PWD/.gpu/art JANTAKU_REAL_PHOTOS=$PWD/.gpu/real-photos
command -v nvidia-smi >/dev/null && nvidia-smi -L
echo "cores $CORES, /dev/shm ${SHM_KB} kB free: $LOADERS loader workers; python $(python3 -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__, "cuda", torch.cuda.is_available())')"

# pre-flight, in seconds rather than after the render: the art, the real frames and the start weights are there
python3 - <<'PY' || { echo "pre-flight failed: fix .gpu/ before spending device time"; exit 1; }
from pathlib import Path
from vision.eval import real_photos
from vision.synth import art
art.art_dir()
frames = real_photos.training_split()
assert frames, "no real training frames"
if Path(".gpu/start.pt").is_file():
    start = "start.pt"
else:
    import onnx  # noqa: F401  (the checkpoint is made from models/tiles.onnx there)
    start = "models/tiles.onnx"
print(f"pre-flight: artwork, {len(frames)} real training frames, start from {start}")
PY
START=.gpu/start.pt; [ -f "$START" ] || START=models/tiles.onnx
DATA=datasets/lent_gpu
python3 -m device.cli synth --n 48 --out $DATA/val --seed 2 --workers "$CORES" 2>&1 | tr '\r' '\n' | tail -n 2
LEFT=$(( RENDER_S - $(elapsed) )); [ "$LEFT" -lt 10 ] && LEFT=10
python3 -m device.cli synth --n 100000 --out $DATA/train --seed "$SEED" --workers "$CORES" --max-seconds "$LEFT" \
    2>&1 | tr '\r' '\n' | tail -n 2
echo "rendered by $(elapsed) s"
TRAIN=("$DATA/train")
[ -d .gpu/extra/images ] && TRAIN+=(.gpu/extra)
# what is left, less ~70 s for the data scan and RAM cache before the clock starts, the final val and the save
HOURS=$(python3 -c "print(max($BUDGET_S - $(elapsed) - 70, 20) / 3600)")
echo "training for $HOURS h from $(elapsed) s"
timeout --signal=INT --kill-after=15 "$(( BUDGET_S - $(elapsed) - 5 ))" \
    python3 -m device.cli train --data "${TRAIN[@]}" --val $DATA/val --real-repeats 12 --model "$START" \
        --imgsz "$IMGSZ" --batch "$BATCH" --device "$DEVICE" --workers "$LOADERS" --lr0 "$LR0" --hours "$HOURS" \
        --epochs 300 --close-mosaic 4 --cache --final-val-only --project runs/detect --name lent_gpu 2>&1 \
    | tee "$OUT/train.log" | tr '\r' '\n' | grep -v -E "it/s|s/it|^\s*$" | tail -n 70
echo "done at $(elapsed) s"
RUN=runs/detect/lent_gpu
for f in "$RUN/weights/last.pt" "$RUN/weights/best.pt" "$RUN/results.csv" "$RUN/args.yaml" "$DATA/train/synth.json"; do
    [ -f "$f" ] && cp "$f" "$OUT/$(basename "$(dirname "$f")")_$(basename "$f")"
done
ls -la "$OUT"
