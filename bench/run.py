"""`make bench`: run every benchmark against PostgreSQL and print one table.

    BENCH_SIZES=1000000 make bench      # sizes in predictions, comma-separated (default 1,000,000 and 16,000,000)
    BENCH_ONLY=import make bench        # only the benchmarks whose module name starts with this (import, analyze,
                                        # save: the trial save with and without interaction records, wrk + granian)

Adding a benchmark (e.g. `flask analyze`): write bench/<name>_bench.py with `run(bench: Bench) -> list[Result]`
(and optionally `summary(results) -> list[str]` for lines under the table), and append the module to BENCHES.
Benchmarks run in order; after import_bench the database holds the largest size imported by our command
(observer `bench`, study `bench`), so a later benchmark can analyse it (see bench/common.py for Bench/Result).
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
import time
from pathlib import Path

from server.config import PROJECT_ROOT

from . import analyze_bench, import_bench, save_bench
from .common import print_table, setup

BENCHES = [import_bench, analyze_bench, save_bench]
DEFAULT_SIZES = "1000000,16000000"


def main() -> int:
    sizes = sorted(int(s.replace("_", "")) for s in os.environ.get("BENCH_SIZES", DEFAULT_SIZES).split(",") if s)
    with tempfile.TemporaryDirectory(prefix="studyhive-bench-") as scratch:
        bench = setup(sizes, Path(scratch))
        print(f"benchmark database: {bench.url}; sizes: {', '.join(f'{s:,}' for s in sizes)}", flush=True)
        results, notes = [], []
        for module in BENCHES:
            if not module.__name__.rsplit(".", 1)[-1].startswith(os.environ.get("BENCH_ONLY", "")):
                continue
            got = module.run(bench)
            print_table(got)  # as each benchmark ends, so a later one's failure loses nothing
            results += got
            notes += getattr(module, "summary", lambda _: [])(got)
    out = io.StringIO()
    print_table(results, out)
    out.write("".join(f"{line}\n" for line in notes))
    print("\n" + out.getvalue(), end="")
    # Also kept in bench-results/ (git-ignored) to compare runs.
    saved = PROJECT_ROOT / "bench-results" / f"bench-{time.strftime('%Y%m%d-%H%M%S')}.md"
    saved.parent.mkdir(exist_ok=True)
    saved.write_text(f"sizes {', '.join(map(str, sizes))}, {os.cpu_count()} CPUs\n\n" + out.getvalue())
    print(f"(saved as {saved.relative_to(PROJECT_ROOT)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
