"""A small HIVE stimulus set drawn from scratch (no downloads), so a demo study shows every HIVE task.

"Photos" are coloured shapes on textured backgrounds; a class is a (shape, colour) pair. A candidate's heatmap
explanation puts its heat on the object when the candidate is the true class and elsewhere otherwise; prototype
explanations pair a prototype patch with the matched region of the photo (boxed). The model is right on half of the
test images. Images are small JPEGs drawn with a fixed seed, so the set is identical on every machine and
re-syncing stores nothing new (assets are content-addressed)."""

from __future__ import annotations

import io
import random
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from ...tasktype.manifest_files import write_manifest

SIZE = 160
SHAPES = ("circle", "square", "triangle", "diamond")
COLOURS = {"red": (210, 50, 40), "blue": (40, 90, 210), "green": (40, 160, 70), "orange": (235, 140, 30)}
N_TEST = 12  # 6 correct + 6 incorrect predictions: plans of 10 (5 + 5) still differ between participants
MATCHES = 2  # prototype matches per candidate (ProtoPNet-style explanations); few files keep each sync fast


def _jpeg(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=85)
    return buffer.getvalue()


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")  # text and lines: sharper and smaller as PNG
    return buffer.getvalue()


def _draw_shape(draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, fill) -> None:
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif shape == "square":
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif shape == "triangle":
        draw.polygon([(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)], fill=fill)
    else:
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill)


def _photo(rng: random.Random, cls: tuple[str, str]) -> tuple[Image.Image, tuple[int, int]]:
    """A textured background with one object of class `cls`; returns the image and the object's centre."""
    grid = np.random.default_rng(rng.randrange(2**32))
    base = np.array([rng.randrange(150, 230) for _ in range(3)], dtype=float)
    ramp = np.linspace(-30, 30, SIZE)[None, :, None]
    pixels = np.clip(base + ramp + grid.normal(0, 10, (SIZE, SIZE, 3)), 0, 255).astype(np.uint8)
    image = Image.fromarray(pixels)
    draw = ImageDraw.Draw(image)
    for _ in range(3):  # distractor blobs in muted colours
        x, y, r = rng.randrange(10, SIZE - 10), rng.randrange(10, SIZE - 10), rng.randrange(6, 14)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(int(v * 0.7) for v in base))
    centre = (rng.randrange(45, SIZE - 45), rng.randrange(45, SIZE - 45))
    _draw_shape(draw, cls[0], *centre, rng.randrange(22, 32), COLOURS[cls[1]])
    return image, centre


def _heatmap(photo: Image.Image, centre: tuple[int, int], spread: float, strength: float) -> Image.Image:
    """The photo under a red–yellow heat overlay peaking at `centre` (GradCAM/BagNet style)."""
    yy, xx = np.mgrid[0:SIZE, 0:SIZE]
    heat = strength * np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * spread**2))
    colour = np.stack([np.full_like(heat, 255), 255 * (1 - heat), np.zeros_like(heat)], axis=-1)
    alpha = (0.65 * heat)[..., None]
    mixed = np.asarray(photo, dtype=float) * (1 - alpha) + colour * alpha
    return Image.fromarray(mixed.astype(np.uint8))


def _match(photo: Image.Image, prototype: Image.Image, centre: tuple[int, int]) -> Image.Image:
    """A prototype patch (left) beside the photo with the matched region boxed (right)."""
    canvas = Image.new("RGB", (SIZE * 2 + 8, SIZE), "white")
    canvas.paste(prototype.resize((SIZE, SIZE)), (0, 0))
    boxed = photo.copy()
    ImageDraw.Draw(boxed).rectangle(
        (centre[0] - 24, centre[1] - 24, centre[0] + 24, centre[1] + 24), outline=(255, 230, 0), width=3
    )
    canvas.paste(boxed, (SIZE + 8, 0))
    return canvas


def _patch(rng: random.Random, cls: tuple[str, str]) -> Image.Image:
    """A prototype: a close-up of an object of class `cls` from a "previously-seen photo"."""
    photo, (x, y) = _photo(rng, cls)
    return photo.crop((x - 32, y - 32, x + 32, y + 32))


def _path(rng: random.Random, classes) -> Image.Image:
    """The model's decisions before the last two nodes: two earlier prototypes, each marked present or absent."""
    canvas = Image.new("RGB", (2 * 110 + 20, 130), "white")
    draw = ImageDraw.Draw(canvas)
    for i in range(2):
        x = 10 + i * 115
        canvas.paste(_patch(rng, rng.choice(classes)).resize((90, 90)), (x, 5))
        present = rng.random() < 0.5
        draw.text((x + 10, 105), "present" if present else "absent", fill=(20, 110, 40) if present else (180, 30, 30))
        if i == 0:
            draw.line((x + 92, 50, x + 112, 50), fill="black", width=2)
    return canvas


def write_demo(task_id: str, method: str, out_dir: Path, seed: int = 2022) -> Path:
    """Write the demo set for task `task_id` explained by `method` into `out_dir`; return the manifest's path."""
    rows, files = _draw(task_id, method, seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (out_dir / name).write_bytes(data)
    return write_manifest(out_dir / "manifest.csv", rows)


@lru_cache(maxsize=8)  # every test app syncs the demo studies: draw each set once per process
def _draw(task_id: str, method: str, seed: int) -> tuple[list[dict], dict[str, bytes]]:
    """The manifest rows and image files (name → JPEG bytes). ProtoTree leaves are one prototype patch each;
    ProtoPNet candidates are MATCHES prototype matches with the model's similarity scores."""
    rng = random.Random(seed)
    classes = [(s, c) for s in SHAPES for c in COLOURS]
    tree = task_id == "hive-prototree"
    prototypes = method == "protopnet"
    rows = []
    files: dict[str, bytes] = {}
    for i in range(N_TEST + 2):
        preview = i >= N_TEST
        correct = i % 2 == 0
        image_id = f"{'preview' if preview else 'demo'}-{i:02d}"
        four = rng.sample(classes, 4)
        ranks = list(range(1, 5))
        rng.shuffle(ranks)  # candidate k has rank ranks[k - 1]
        by_rank = {r: k for k, r in enumerate(ranks, 1)}
        truth = by_rank[1] if correct else by_rank[rng.choice((2, 3, 4))]
        photo, centre = _photo(rng, four[truth - 1])
        files[f"{image_id}.jpg"] = _jpeg(photo)
        row = {
            "image_id": image_id,
            "photo": f"{image_id}.jpg",
            "ground_truth": truth,
            "model_correct": str(correct).lower(),
            "preview": str(preview).lower(),
        }
        for k in range(1, 5):
            on_object = k == truth or (k == by_rank[1] and rng.random() < 0.5)
            focus = centre if on_object else (rng.randrange(20, SIZE - 20), rng.randrange(20, SIZE - 20))
            if tree:
                name = f"{image_id}-leaf{k}.jpg"
                files[name] = _jpeg(_patch(rng, four[k - 1]).resize((96, 96)))
                row[f"candidate{k}_explanation"] = name
            elif prototypes:
                names, scores = [], []
                for m in range(MATCHES):
                    name = f"{image_id}-c{k}-m{m}.jpg"
                    files[name] = _jpeg(_match(photo, _patch(rng, four[k - 1]), focus))
                    names.append(name)
                    scores.append(round((4.0 if on_object else 1.5) + rng.uniform(-1, 1), 2))
                row[f"candidate{k}_explanation"] = ";".join(names)
                row[f"candidate{k}_similarity"] = ";".join(map(str, scores))
            else:
                name = f"{image_id}-c{k}.jpg"
                files[name] = _jpeg(_heatmap(photo, focus, rng.uniform(14, 24), rng.uniform(0.6, 1.0)))
                row[f"candidate{k}_explanation"] = name
            row[f"candidate{k}_rank"] = ranks[k - 1]
            row[f"candidate{k}_label"] = f"{four[k - 1][1]} {four[k - 1][0]}"
        if tree:
            files[f"{image_id}-path.png"] = _png(_path(rng, classes))
            row["path"] = f"{image_id}-path.png"
            for node in ("root", "present", "absent"):
                name = f"{image_id}-node-{node}.jpg"
                files[name] = _jpeg(_patch(rng, rng.choice(classes)).resize((96, 96)))
                row[f"node_{node}"] = name
        rows.append(row)
    return rows, files
