"""Whether VGG19 sees the image at initialisation, and learns, under each initialisation: docs/models.md
"Initialisation, measured". Not a test: nothing is asserted (tests/test_modelruns.py checks the one VGG19 uses).

    python -m bench.model_init EXPORT_DIR [IMAGES]
    python -m bench.model_init EXPORT_DIR --train EPOCHS LR INIT[,INIT…]

EXPORT_DIR is a training export (`flask stimuli export SLUG --training N`); its first IMAGES charts (default 64)
go through VGG19 once, built with seed 0 under

- `pytorch`: PyTorch's layer defaults (what `modelruns` used before; biases drawn from ±1/√fan_in),
- `keras`: Keras's defaults, Glorot-uniform kernels and zero biases (`architectures.keras_init`, what it uses now),
- `torchvision`: torchvision's VGG initialisation (Kaiming-normal, fan-out, for convolutions; N(0, 0.01) for dense
  layers; zero biases).

Per initialisation: the features' RMS and their spread between charts (the RMS over features of each feature's
standard deviation across the charts) and the ratio of the two, which is ~0 when every chart gets the same features;
and, after one MSE backward pass on the true ratios (training mode), each layer's gradient norm relative to its
weight norm for the first and last convolutions and the head's first dense layer.

With --train: a VGG19 at an eighth of its width (all 16 convolutions and 5 pools, 8 … 64 channels, and the papers'
head: what a CPU can train for tens of epochs) is trained on the export's training images under each INIT with
SGD at LR (Nesterov 0.9), batch 32, seed 0, one line per epoch: training MSE, validation MAE against always
answering the training mean.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch
from torch import nn

from modelruns.architectures import VGG19, VGG19_LAYERS, keras_init
from modelruns.data import read_images

from .tables import markdown_table


def torchvision_init(model: nn.Module) -> None:
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
        elif isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, 0, 0.01)
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.zeros_(m.bias)


def pytorch_init(model: nn.Module) -> None:
    for m in model.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            m.reset_parameters()


INITIALISATIONS = {"pytorch": pytorch_init, "keras": keras_init, "torchvision": torchvision_init}


def start(name: str, layers: tuple[int | str, ...] = VGG19_LAYERS) -> VGG19:
    """VGG19 built with seed 0 under initialisation `name`. It is built with Keras's; only the others are drawn
    anew (drawing Keras's twice would change the draws)."""
    torch.manual_seed(0)
    model = VGG19(layers)
    if name != "keras":
        INITIALISATIONS[name](model)
    return model


def relative_grad(layer: nn.Module) -> float:
    return (layer.weight.grad.norm() / layer.weight.norm()).item()


def measure(export: Path, n: int) -> list[tuple[str, ...]]:
    images = read_images(export / "manifest.csv", labels=True)
    x = torch.from_numpy(images.ink[:n])
    chart_type, ratio = torch.from_numpy(images.chart_type[:n]), torch.from_numpy(images.ratio[:n])
    rows = [("initialisation", "feature RMS", "spread between charts", "spread / RMS", "grad/weight conv 1",
             "grad/weight conv 16", "grad/weight dense 1")]  # fmt: skip
    for name in INITIALISATIONS:
        model = start(name)
        with torch.no_grad():
            features = model.features(x.float().div(255).expand(-1, 3, -1, -1)).flatten(1)
        rms, spread = features.pow(2).mean().sqrt().item(), features.std(0).pow(2).mean().sqrt().item()
        model.train()
        ((model(x, chart_type) - ratio) ** 2).mean().backward()
        convs = [m for m in model.features if isinstance(m, nn.Conv2d)]
        rows.append(
            (name, f"{rms:.2e}", f"{spread:.2e}", f"{spread / rms:.2e}")
            + tuple(f"{relative_grad(m):.1e}" for m in (convs[0], convs[-1], model.regressor[1]))
        )
    return rows


THIN = tuple(v if v == "M" else v // 8 for v in VGG19_LAYERS)  # VGG19 at an eighth of its channels


def train_thin(export: Path, epochs: int, lr: float, inits: list[str]) -> None:
    train, val = (read_images(export / name, labels=True) for name in ("manifest.csv", "validation.csv"))
    x, t, y = (torch.from_numpy(a) for a in (train.ink, train.chart_type, train.ratio))
    vx, vt, vy = (torch.from_numpy(a) for a in (val.ink, val.chart_type, val.ratio))
    constant = (vy - y.mean()).abs().mean().item()
    for name in inits:
        model = start(name, THIN)
        optimiser = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True)
        order = torch.Generator().manual_seed(0)
        for epoch in range(1, epochs + 1):
            model.train()
            total = 0.0
            for batch in torch.randperm(len(y), generator=order).split(32):
                optimiser.zero_grad()
                loss = ((model(x[batch], t[batch]) - y[batch]) ** 2).mean()
                loss.backward()
                optimiser.step()
                total += loss.item() * len(batch)
            model.eval()
            with torch.no_grad():
                p = torch.cat([model(vx[i : i + 256], vt[i : i + 256]) for i in range(0, len(vy), 256)])
            print(
                f"{name} epoch {epoch}: train MSE {total / len(y):.4f} (variance {y.var().item():.4f}), "
                f"validation MAE {(p - vy).abs().mean().item():.4f} (the mean's {constant:.4f})",
                flush=True,
            )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.model_init", description=__doc__.split("\n\n")[0])
    parser.add_argument("export", type=Path, help="a training export (`flask stimuli export SLUG --training N`)")
    parser.add_argument("images", type=int, nargs="?", default=64, help="charts measured at initialisation [64]")
    parser.add_argument("--train", nargs=3, metavar=("EPOCHS", "LR", "INITS"), help="train the thin VGG19 instead")
    args = parser.parse_args(argv)
    if args.train is None:
        print(markdown_table(measure(args.export, args.images)))
        return 0
    epochs, lr, inits = args.train
    unknown = set(inits.split(",")) - set(INITIALISATIONS)
    if unknown:
        parser.error(
            f"--train: unknown initialisation(s) {', '.join(sorted(unknown))}; one of {', '.join(INITIALISATIONS)}"
        )
    train_thin(args.export, int(epochs), float(lr), inits.split(","))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
