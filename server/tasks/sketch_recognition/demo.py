"""Demo sketches for sketch-recognition studies, drawn here from a few strokes per concept (no downloads).

Each concept is a list of strokes (polylines on a 100 × 100 canvas) ordered from most to least telling, so the
first k strokes are a sparser, more abstract drawing of it: the demo's abstraction level is the stroke count, as
for the benchmark's machine sketches. Two producers differ in hand: "human" (small wobble, PNG) and "demo-model"
(straight strokes, SVG), so both image formats go through the import. One full, bold umbrella is a catch trial."""

from __future__ import annotations

import io
import math
import random
from pathlib import Path

from PIL import Image, ImageDraw

from ...tasktype.manifest_files import write_manifest

Stroke = list[tuple[float, float]]
SIZE = 256
LEVELS = (2, 4, 8)


def _arc(cx: float, cy: float, rx: float, ry: float, start: float, end: float, steps: int = 12) -> Stroke:
    return [
        (cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
        for a in (start + (end - start) * i / steps for i in range(steps + 1))
    ]


def _circle(cx: float, cy: float, r: float) -> Stroke:
    return _arc(cx, cy, r, r, 0, 360, 16)


# concept unique id → strokes, most telling first (at least max(LEVELS) of them)
CONCEPTS: dict[str, list[Stroke]] = {
    "fish": [
        _arc(45, 50, 30, 16, 180, 360),
        _arc(45, 50, 30, 16, 0, 180),
        [(75, 50), (92, 36), (92, 64), (75, 50)],
        _circle(28, 46, 3),
        _arc(40, 50, 6, 12, 300, 420, 6),
        [(45, 34), (55, 24), (62, 35)],
        [(15, 52), (20, 54)],
        [(48, 60), (56, 70), (60, 62)],
    ],
    "cup": [
        [(30, 30), (35, 80), (65, 80), (70, 30)],
        _arc(50, 30, 20, 5, 0, 360, 16),
        _arc(72, 52, 10, 12, 270, 450),
        [(25, 84), (75, 84)],
        [(42, 22), (45, 12)],
        [(52, 22), (55, 10)],
        [(36, 45), (64, 45)],
        [(40, 70), (60, 70)],
    ],
    "ladder": [
        [(30, 10), (30, 90)],
        [(70, 10), (70, 90)],
        [(30, 25), (70, 25)],
        [(30, 45), (70, 45)],
        [(30, 65), (70, 65)],
        [(30, 85), (70, 85)],
        [(30, 15), (70, 15)],
        [(30, 55), (70, 55)],
    ],
    "mushroom": [
        _arc(50, 45, 35, 25, 180, 360),
        [(15, 45), (85, 45)],
        [(42, 45), (40, 85), (60, 85), (58, 45)],
        _circle(40, 32, 5),
        _circle(62, 30, 4),
        _circle(52, 40, 2),
        [(30, 90), (70, 90)],
        [(25, 38), (32, 36)],
    ],
    "umbrella": [
        _arc(50, 45, 38, 28, 180, 360),
        [(12, 45), (88, 45)],
        [(50, 45), (50, 82)],
        _arc(44, 82, 6, 6, 0, 180, 6),
        [(50, 17), (50, 10)],
        [(31, 45), (38, 20)],
        [(69, 45), (62, 20)],
        [(12, 45), (21, 40), (31, 45), (40, 40), (50, 45), (60, 40), (69, 45), (79, 40), (88, 45)],
    ],
    "envelope": [
        [(15, 30), (85, 30), (85, 75), (15, 75), (15, 30)],
        [(15, 30), (50, 55), (85, 30)],
        [(15, 75), (42, 50)],
        [(85, 75), (58, 50)],
        [(65, 36), (78, 36), (78, 46), (65, 46), (65, 36)],
        [(22, 62), (40, 62)],
        [(22, 67), (36, 67)],
        [(50, 55), (50, 57)],
    ],
}
CATCH = "umbrella"  # drawn in full and bold: anyone paying attention recognises it
HUMAN, MODEL = "human", "demo-model"


def _hand(strokes: list[Stroke], rng: random.Random, wobble: float) -> list[Stroke]:
    return [[(x + rng.uniform(-wobble, wobble), y + rng.uniform(-wobble, wobble)) for x, y in s] for s in strokes]


def _png(strokes: list[Stroke], width: int) -> bytes:
    image = Image.new("RGB", (SIZE, SIZE), "white")
    draw = ImageDraw.Draw(image)
    scale = SIZE / 100
    for stroke in strokes:
        draw.line([(x * scale, y * scale) for x, y in stroke], fill="black", width=width, joint="curve")
    out = io.BytesIO()
    image.save(out, "PNG", optimize=False)
    return out.getvalue()


def _svg(strokes: list[Stroke]) -> bytes:
    paths = "".join(f'<polyline points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in s)}"/>' for s in strokes)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="{SIZE}" height="{SIZE}">'
        f'<rect width="100" height="100" fill="white"/><g fill="none" stroke="black" stroke-width="1.6" '
        f'stroke-linecap="round" stroke-linejoin="round">{paths}</g></svg>'
    ).encode()


def write_demo(out_dir: Path, seed: int = 7) -> Path:
    """Draw every concept at every level by both producers, plus the catch sketch; return manifest.csv's path."""
    rng = random.Random(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for concept, strokes in CONCEPTS.items():
        for level in LEVELS:
            for producer in (HUMAN, MODEL):
                sketch_id = f"{concept}-{producer}-{level}"
                if producer == HUMAN:
                    name, data = f"{sketch_id}.png", _png(_hand(strokes[:level], rng, 1.5), 4)
                else:
                    name, data = f"{sketch_id}.svg", _svg(strokes[:level])
                (out_dir / name).write_bytes(data)
                rows.append(
                    {
                        "sketch_id": sketch_id,
                        "image": name,
                        "concept": concept,
                        "abstraction_level": level,
                        "producer": producer,
                        "catch": "",
                    }
                )
    (out_dir / "catch-umbrella.png").write_bytes(_png(CONCEPTS[CATCH], 8))
    rows.append(
        {
            "sketch_id": "catch-umbrella",
            "image": "catch-umbrella.png",
            "concept": CATCH,
            "abstraction_level": len(CONCEPTS[CATCH]),
            "producer": HUMAN,
            "catch": "true",
        }
    )
    return write_manifest(out_dir / "manifest.csv", rows)
