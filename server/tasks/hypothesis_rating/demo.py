"""A Two4Two-like demo stimulus set drawn with Pillow (no Blender, no downloads): two abstract "animals", each a
spine of four blocks with a pair of arm blocks (one above, one below) at either end.

* Peaky has its right pair of arms moved inwards (towards the spine's centre); Stretchy has both pairs outwards.
  As in the paper, the arm offset is drawn from slightly overlapping distributions, so the shape alone does not
  decide every image.
* Planted bias: the animal's colour. Peakies are mostly red, Stretchies mostly blue (hue drawn from overlapping
  distributions), and the simulated classifier's score uses the colour as well as the arms.
* Irrelevant to the score: background colour, block shape (cubes or spheres) and rotation.

The simulated model score is P(peaky) = logistic(4·arm + 2·colour + noise), with arm and colour the standardised
class evidence of the image; `column` is left out of the manifest, so the task bins the images by score."""

from __future__ import annotations

import colorsys
import io
import math
import random
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw

from ...tasktype.manifest_files import write_manifest

SIZE = 96
N_IMAGES = 100
SEED = 2021  # fixed: every demo study draws the same images (and the drawing is cached per process)
CLASSES = ("peaky", "stretchy")
LEFT_ARMS = -0.35  # both classes hold their left arms outwards; only the right arms tell them apart


def _block(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, rgb: tuple[int, int, int], cube: bool) -> None:
    """One block: a cube (a square with a lit top-left edge) or a sphere (a disc with a highlight)."""
    box = (x - r, y - r, x + r, y + r)
    dark = tuple(int(c * 0.6) for c in rgb)
    light = tuple(min(255, int(c + (255 - c) * 0.5)) for c in rgb)
    if cube:
        draw.rectangle(box, fill=rgb, outline=dark)
        draw.line([(x - r, y + r), (x - r, y - r), (x + r, y - r)], fill=light, width=2)
    else:
        draw.ellipse(box, fill=rgb, outline=dark)
        draw.ellipse((x - r * 0.55, y - r * 0.55, x - r * 0.1, y - r * 0.1), fill=light)


def _animal(arm_shift_left: float, arm_shift_right: float) -> list[tuple[float, float]]:
    """Block centres in units of one block: four spine blocks on y = 0, an arm block above and below each end.
    A positive shift moves that end's arms inwards (Peaky's right arms), a negative one outwards."""
    spine = [(-1.5, 0.0), (-0.5, 0.0), (0.5, 0.0), (1.5, 0.0)]
    left_x, right_x = -1.5 + arm_shift_left, 1.5 - arm_shift_right
    return spine + [(left_x, -1.0), (left_x, 1.0), (right_x, -1.0), (right_x, 1.0)]


def draw(arm: float, hue: float, background: float, cube: bool, angle: float) -> bytes:
    """PNG bytes of one animal. `arm`: inward shift of the right arms (blocks); `hue`, `background`: 0–1."""
    bg = tuple(int(c * 255) for c in colorsys.hsv_to_rgb(background, 0.18, 0.92))
    rgb = tuple(int(c * 255) for c in colorsys.hsv_to_rgb(hue, 0.75, 0.85))
    image = Image.new("RGB", (SIZE, SIZE), bg)
    painter = ImageDraw.Draw(image)
    unit = SIZE / 7.5
    cos, sin = math.cos(angle), math.sin(angle)
    for bx, by in _animal(LEFT_ARMS, arm):
        x, y = bx * cos - by * sin, bx * sin + by * cos
        _block(painter, SIZE / 2 + x * unit, SIZE / 2 + y * unit, unit * 0.48, rgb, cube)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=False, compress_level=1)
    return out.getvalue()


@cache
def demo_images() -> tuple[tuple[dict[str, str], bytes], ...]:
    """(manifest row, PNG bytes) for every demo image; drawn once per process (the seed fixes them)."""
    rng = random.Random(SEED)
    items = []
    for i in range(N_IMAGES):
        kind = CLASSES[i % 2]
        peaky = kind == "peaky"
        # Overlapping arm distributions: inward shift ~ N(0.45, 0.25) for Peaky, N(-0.35, 0.25) for Stretchy.
        arm = rng.gauss(0.45 if peaky else -0.35, 0.25)
        # Colour bias: Peaky hues around red (0.0), Stretchy around blue (0.6), overlapping through purple.
        redness = min(1.0, max(0.0, rng.gauss(0.7 if peaky else 0.3, 0.25)))
        hue = (0.6 + 0.4 * redness) % 1.0  # redness 0 → blue (0.6), 1 → red (1.0)
        arm_evidence = (arm - 0.05) / 0.4
        colour_evidence = (redness - 0.5) / 0.25
        score = 1 / (1 + math.exp(-(4 * arm_evidence + 2 * colour_evidence + rng.gauss(0, 1.0)) / 2))
        background, cube, angle = rng.random(), rng.random() < 0.5, rng.uniform(-0.5, 0.5)
        name = f"{kind}-{i:03d}"
        png = draw(arm, hue, background, cube, angle)
        items.append(({"image_id": name, "file": f"{name}.png", "score": f"{score:.4f}", "label": kind}, png))
    return tuple(items)


def write_demo(out_dir: Path) -> Path:
    """Write the demo images and manifest.csv into `out_dir`; return the manifest's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for row, png in demo_images():
        (out_dir / row["file"]).write_bytes(png)
        rows.append(row)
    return write_manifest(out_dir / "manifest.csv", rows)
