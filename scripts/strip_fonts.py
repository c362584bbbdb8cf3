"""Copy a stylesheet without its @font-face rules whose fonts are inlined as data: URLs (the Makefile's
static/vendor step, for jsPsych's CSS: 32 base64 Open Sans files, 468 KB of its 476). The rules that name the family
stay, so the page falls back to the next font in the stack (studyhive.css sets the system's UI font).

    python3 scripts/strip_fonts.py SOURCE DEST

Standard library only: the Makefile runs it before the virtual environment exists.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

# An @font-face block has no nested braces; base64 and the rest of a data: URL have none either.
FONT_FACE = re.compile(r"@font-face\s*\{[^{}]*\}\s*")


def strip_inlined_fonts(css: str) -> str:
    return FONT_FACE.sub(lambda m: "" if "data:" in m.group(0) else m.group(0), css)


def main(argv: list[str]) -> None:
    if len(argv) != 2:
        sys.exit(__doc__)
    source, dest = map(Path, argv)
    dest.write_text(strip_inlined_fonts(source.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
