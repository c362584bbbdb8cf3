"""The regressors: a CNN feature extractor and the seed papers' head, the ratio out.

Haehn et al. (2018) and Jiang et al. (Appendix C) put a one-hidden-layer MLP on VGG19 or ResNet50 features: 256
ReLU units, dropout 0.5, one linear output (the ratio). `vgg19` and `resnet50` follow that, with one difference:
the papers trained one network per chart type, and here one network has one output per chart type (the forward pass
takes the image and its chart type, 1–5, and answers with that type's output). The backbone is shared by the five
types; that is what made `small` learn the task on a CPU (docs/models.md), and all three architectures do it so
that they differ in the backbone only. A training export of one chart type (`--chart-type`) gives the papers'
one-network-per-type design exactly. Their backbones are
torchvision's layer for layer, with torchvision's parameter names (features.0.weight …; conv1, layer1.0.conv1 …), so
`--weights` can load a torchvision state dict saved on another machine: pretrained weights are never downloaded here.
The grayscale chart is repeated on three channels, as the papers fed VGG19 and ResNet50. Both start from
Keras's initialisation, as the papers' Keras/TensorFlow models did (`keras_init`).

`small` is this project's CPU model (docs/models.md): a few convolutions, then the same head. See `Small`.
"""

from __future__ import annotations

import torch
from torch import nn

HIDDEN = 256
DROPOUT = 0.5
CHART_TYPES = 5


class Head(nn.Sequential):
    """Runs in fp32 whatever autocast says (`--bf16` speeds up the backbone only): the answer is a ratio read to
    a fraction of a percent, below bfloat16's 8-bit mantissa."""

    def forward(self, x):
        with torch.autocast(x.device.type, enabled=False):
            return super().forward(x.float())


def head(features: int, dropout: float = DROPOUT) -> Head:
    """The papers' regression head: Linear(features, 256) → ReLU → Dropout(0.5) → Linear(256, ·), here with one
    output per chart type."""
    return Head(
        nn.Flatten(),
        nn.Linear(features, HIDDEN),
        nn.ReLU(inplace=True),
        nn.Dropout(dropout),
        nn.Linear(HIDDEN, CHART_TYPES),
    )


def keras_init(model: nn.Module) -> None:
    """Keras's defaults for Conv2D and Dense layers, which the papers' models (Keras 2, TensorFlow 2.4) started from
    when trained from scratch: Glorot-uniform kernels (Glorot & Bengio 2010: U(±√(6 / (fan_in + fan_out)))), zero
    biases; batch norm keeps γ = 1, β = 0 in both frameworks.

    PyTorch's own defaults do not train VGG19 (16 convolutions, no batch norm): its biases, drawn from ±1/√fan_in,
    swamp the image, so every chart gets practically the same features and the head can learn only the mean answer
    (measured in docs/models.md, "Initialisation")."""
    for m in model.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.xavier_uniform_(m.weight)
            if m.bias is not None:
                nn.init.zeros_(m.bias)


def _answer(outputs: torch.Tensor, chart_type: torch.Tensor) -> torch.Tensor:
    """Each image's output for its own chart type (1–5)."""
    return outputs.gather(1, (chart_type.long() - 1).view(-1, 1)).squeeze(1)


def _ink(x: torch.Tensor) -> torch.Tensor:
    """uint8 ink (0 paper … 255 ink) → float in [0, 1]."""
    return x.float() / 255.0


# VGG19 ("configuration E" of Simonyan & Zisserman 2015): 16 3×3 convolutions, 5 max-pools.
VGG19_LAYERS = (64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M")


class VGG19(nn.Module):
    """`layers`: the configuration, 3×3 convolutions (padding 1) with ReLU and "M" 2×2 max-pools (bench.model_init
    trains a thinner one)."""

    def __init__(self, layers: tuple[int | str, ...] = VGG19_LAYERS):
        super().__init__()
        modules: list[nn.Module] = []
        channels = 3
        for v in layers:
            if v == "M":
                modules.append(nn.MaxPool2d(2, 2))
            else:
                modules += [nn.Conv2d(channels, v, 3, padding=1), nn.ReLU(inplace=True)]
                channels = v
        self.features = nn.Sequential(*modules)
        self.regressor = head(channels * 3 * 3)  # 100 → 50 → 25 → 12 → 6 → 3
        keras_init(self)

    def forward(self, x, chart_type):
        return _answer(self.regressor(self.features(_ink(x).expand(-1, 3, -1, -1))), chart_type)


class Bottleneck(nn.Module):
    """ResNet's bottleneck block (He et al. 2016), torchvision's v1.5 variant (stride on the 3×3 convolution)."""

    expansion = 4

    def __init__(self, inplanes: int, planes: int, stride: int = 1):
        super().__init__()
        out = planes * self.expansion
        self.conv1 = nn.Conv2d(inplanes, planes, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv3 = nn.Conv2d(planes, out, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(out)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = (
            nn.Sequential(nn.Conv2d(inplanes, out, 1, stride=stride, bias=False), nn.BatchNorm2d(out))
            if stride != 1 or inplanes != out
            else None
        )

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.relu(self.bn2(self.conv2(y)))
        return self.relu(self.bn3(self.conv3(y)) + identity)


class ResNet50(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        inplanes = 64
        for i, (planes, blocks, stride) in enumerate(((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)), 1):
            layer = []
            for b in range(blocks):
                layer.append(Bottleneck(inplanes, planes, stride if b == 0 else 1))
                inplanes = planes * Bottleneck.expansion
            setattr(self, f"layer{i}", nn.Sequential(*layer))
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.regressor = head(inplanes)
        keras_init(self)

    def forward(self, x, chart_type):
        x = self.maxpool(self.relu(self.bn1(self.conv1(_ink(x).expand(-1, 3, -1, -1)))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return _answer(self.regressor(self.avgpool(x)), chart_type)


class Small(nn.Module):
    """This project's CPU model: halve the columns only (a 2-px max-pool along rows keeps every height: the answer
    lies in heights), then four blocks of 3×3 convolution, batch norm, ReLU and 2×2 max-pool (16, 32, 64, 64
    channels) on the ink plus two coordinate channels (CoordConv: where a bar is tells which one is marked), and the
    papers' head without dropout. 0.36 M parameters; about 16 M multiply-adds per image."""

    def __init__(self, channels: tuple[int, ...] = (16, 32, 64, 64)):
        super().__init__()
        layers: list[nn.Module] = [nn.MaxPool2d((1, 2))]  # 100×100 → 100 rows × 50 columns
        before = 3
        for c in channels:
            layers += [nn.Conv2d(before, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(inplace=True), nn.MaxPool2d(2)]
            before = c
        self.features = nn.Sequential(*layers)
        self.regressor = head(before * (100 >> len(channels)) * (50 >> len(channels)), dropout=0.0)
        y, x = torch.meshgrid(torch.linspace(-1, 1, 100), torch.linspace(-1, 1, 100), indexing="ij")
        self.register_buffer("coords", torch.stack([x, y])[None], persistent=False)

    def forward(self, x, chart_type):
        x = _ink(x)
        x = torch.cat([x, self.coords.expand(x.shape[0], -1, -1, -1)], 1)
        return _answer(self.regressor(self.features(x)), chart_type)


ARCHITECTURES = {"small": Small, "vgg19": VGG19, "resnet50": ResNet50}


def build(arch: str) -> nn.Module:
    return ARCHITECTURES[arch]()
