"""The layout of the project's own code, read from its source (ast, nothing imported): a private name (``_x``) never
crosses a module boundary, no module of analysis/ is named like a module or package of server/ -- two
``hive.py`` (or ``errors.py``) in one project make every traceback, grep and import ambiguous -- and server/ is
grouped by area: its top level is the foundation and one package per area, each placed in .importlinter's layers
with a contract listing the areas it may import."""

from __future__ import annotations

import ast
import configparser
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("analysis", "server")

#: Names a server task package is likely to use (a task type's own modules, and the names server/ gave up in the
#: move of issue #14): analysis/ keeps off them even where server/ has none today, so a new package cannot clash.
PLANNED_SERVER_NAMES = {
    "ratio_estimation",
    "hypothesis_rating",
    "sketch_recognition",
    "hive",
    "sketch",
    "hypoml",
    "task",
    "analyzer",
    "demo",
    "charts",
    "sampling",
    "errors",
    "vocabulary",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _modules() -> dict[str, Path]:
    """Dotted module name → file, for every module and package of :data:`PACKAGES`."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The module a ``from … import`` names, relative imports resolved against ``module`` (defined in ``path``)."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def crossings(module: str, path: Path, source: str | None = None) -> set[tuple[str, str, str]]:
    """(file, module, private name) for each ``from m import _x`` and each ``m._x`` (``m`` a project module, or a
    name imported from one) in ``module``, defined in ``path`` (whose text is ``source``, default: read it)."""
    text = path.read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text, filename=str(path))
    where = path.relative_to(ROOT).as_posix()
    bound: dict[str, str] = {}  # local name → the project module it is, or the module it came from
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    bound[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0]
                    )
        elif isinstance(node, ast.ImportFrom):
            origin = _absolute(module, path, node)
            if origin.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                submodule = f"{origin}.{alias.name}"
                if _private(alias.name) and submodule not in MODULES and origin != module:
                    found.add((where, origin, alias.name))
                bound[alias.asname or alias.name] = submodule if submodule in MODULES else origin
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            base = _dotted(node.value)
            if base is None or base.split(".")[0] not in bound:
                continue
            head, _, rest = base.partition(".")
            target = bound[head] + (f".{rest}" if rest else "")
            if target in MODULES and target != module and f"{target}.{node.attr}" not in MODULES:
                found.add((where, target, node.attr))
            elif target not in MODULES and bound[head] != module:  # an attribute of a name imported from elsewhere
                found.add((where, bound[head], f"{rest + '.' if rest else ''}{node.attr}"))
    return found


def test_no_private_name_crosses_a_module_boundary():
    found = set().union(*(crossings(m, p) for m, p in MODULES.items()))
    assert not found, "private names used outside their module (make them public, or keep them at home):\n" + "\n".join(
        f"  {f}: {m}.{n}" for f, m, n in sorted(found)
    )


@pytest.mark.parametrize(
    "source, expected",
    [
        ("from .render import _num\n", {("analysis/reports/x.py", "analysis.reports.render", "_num")}),
        ("from ..inference import _t_row\n", {("analysis/reports/x.py", "analysis.inference", "_t_row")}),
        (
            "import analysis.hypoml_inference as hm\nhm._evaluate({})\n",
            {("analysis/reports/x.py", "analysis.hypoml_inference", "_evaluate")},
        ),
        (
            "from .. import inference\ninference._quiet_pingouin()\n",
            {("analysis/reports/x.py", "analysis.inference", "_quiet_pingouin")},
        ),
        (
            "from .ratio_study import RatioReport\nRatioReport._hidden\n",
            {("analysis/reports/x.py", "analysis.reports.ratio_study", "_hidden")},
        ),
        ("from .. import _checks\nfrom .._checks import check_frame\nimport numpy as np\nnp._x\n", set()),
        ("def _own():\n    pass\n\n\n_own()\n", set()),
    ],
)
def test_the_check_finds_crossings_and_only_those(source, expected):
    """The checker on a made-up module analysis/reports/x.py: would it notice?"""
    assert crossings("analysis.reports.x", ROOT / "analysis" / "reports" / "x.py", source) == expected


def _basenames(package: str) -> dict[str, list[str]]:
    """Basename → files, for every module (``x.py``) and package (a folder with ``__init__.py``) under ``package``."""
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        name = path.parent.name if path.name == "__init__.py" else path.stem
        if path.parent == ROOT / package and path.name == "__init__.py":
            continue  # the top-level package itself
        out.setdefault(name, []).append(path.relative_to(ROOT).as_posix())
    return out


def test_no_analysis_module_is_named_like_a_server_module():
    analysis, server = _basenames("analysis"), _basenames("server")
    clashes = {
        name: analysis[name] + server.get(name, ["(planned in server/tasks/)"])
        for name in sorted(set(analysis) & (set(server) | PLANNED_SERVER_NAMES))
    }
    assert not clashes, f"same basename in analysis/ and server/: {clashes}"
    assert "reports" in analysis and "render" in analysis  # the walk reaches subpackages


#: server/'s top-level modules: the app factory and the foundation every area uses. Anything else is an area's.
FOUNDATION = {"__init__", "config", "db", "models", "exceptions", "schema", "identifiers", "i18n"}
#: Packages at server/'s top level that are not domain areas: the edges, the task packages, and data folders.
EDGES = {"web", "cli", "tasks"}


def _contracts() -> configparser.ConfigParser:
    parser = configparser.ConfigParser()
    parser.read(ROOT / ".importlinter", encoding="utf-8")
    return parser


def _layers(contract) -> list[list[str]]:
    """A layers contract's layers, top first, each the list of its names (``a | b`` and ``a : b`` alike)."""
    return [
        [name.strip() for name in line.replace(":", "|").split("|")] for line in contract["layers"].strip().splitlines()
    ]


def test_server_top_level_is_the_foundation_and_packages():
    modules = {p.stem for p in (ROOT / "server").glob("*.py")}
    assert modules == FOUNDATION, f"server/ holds modules outside any area: {sorted(modules - FOUNDATION)}"


def test_every_area_is_a_layer_with_its_edges():
    contracts = _contracts()
    areas = {p.parent.name for p in (ROOT / "server").glob("*/__init__.py") if p.parent.name not in EDGES}
    assert {"tasktype", "studies", "stimuli", "participation", "imports", "results", "researchers"} <= areas
    layered = {name for layer in _layers(contracts["importlinter:contract:layers"]) for name in layer}
    assert areas <= layered, f"areas missing from the layers contract: {sorted(areas - layered)}"
    for area in areas:
        edges = contracts[f"importlinter:contract:{area}-edges"]
        assert edges["type"] == "forbidden" and edges["source_modules"].split() == [f"server.{area}"]


def test_no_layer_groups_more_than_six():
    """A layer of many ``:`` (or ``|``) names says nothing about how they depend on each other."""
    contracts = _contracts()
    for section in contracts.sections():
        if contracts[section].get("type") == "layers":
            big = [layer for layer in _layers(contracts[section]) if len(layer) > 6]
            assert not big, f"{section}: layers of more than six names: {big}"


def test_the_product_never_names_the_corpus():
    """corpus/ (published experiments under their own licences, and their pinned packages) is the bench's and the
    tests' (tests/test_corpus_browser.py): no file of server/ names the folder, and the image leaves it out."""
    names = re.compile(r"""corpus/|["']corpus["']""")
    naming = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "server").rglob("*"))
        if path.suffix in {".py", ".js", ".html", ".toml", ".json"} and names.search(path.read_text())
    ]
    assert naming == []
    assert "corpus" in (ROOT / ".dockerignore").read_text().split()
