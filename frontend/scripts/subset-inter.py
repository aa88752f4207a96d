"""Inter, cut to what the web app uses, from @fontsource-variable/inter (SIL Open Font License).

Each of the package's upright faces keeps its own characters (the browser downloads a face only
when the page shows one of them), the weights 400 to 700 and the OpenType features the app uses
(kerning, contextual forms, tabular figures), without hinting: the Latin face goes from 49 KB to
28 KB. Writes src/assets/fonts/*.woff2 and src/styles/fonts.css.

Run from frontend/ after `npm install`, with fontTools and brotli:
    python3 -m venv /tmp/fonttools && /tmp/fonttools/bin/pip install fonttools brotli
    /tmp/fonttools/bin/python scripts/subset-inter.py
"""

from __future__ import annotations

import re
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.varLib.instancer import instantiateVariableFont

FRONTEND = Path(__file__).resolve().parent.parent
PACKAGE = FRONTEND / "node_modules" / "@fontsource-variable" / "inter"
FONTS = FRONTEND / "src" / "assets" / "fonts"
STYLESHEET = FRONTEND / "src" / "styles" / "fonts.css"

WEIGHTS = (400, 700)
FEATURES = ["kern", "calt", "ccmp", "locl", "mark", "mkmk", "tnum"]
FACE = re.compile(
    r"/\* (?P<name>inter-[\w-]+-wght-normal) \*/\s*@font-face \{.*?"
    r"src: url\(\./files/(?P<file>[\w-]+\.woff2)\).*?unicode-range: (?P<range>[^;]+);",
    re.DOTALL,
)


def unicodes(unicode_range: str) -> list[int]:
    points: list[int] = []
    for part in unicode_range.split(","):
        start, _, end = part.strip().removeprefix("U+").partition("-")
        points.extend(range(int(start, 16), int(end or start, 16) + 1))
    return points


def cut(source: Path, target: Path, unicode_range: str) -> None:
    font = TTFont(source)
    options = subset.Options()
    options.layout_features = FEATURES
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes(unicode_range))
    subsetter.subset(font)
    font = instantiateVariableFont(font, {"wght": WEIGHTS})
    font.flavor = "woff2"
    font.save(target)


def main() -> None:
    FONTS.mkdir(parents=True, exist_ok=True)
    faces = []
    for face in FACE.finditer((PACKAGE / "index.css").read_text()):
        target = FONTS / face["file"].replace("-wght-", f"-wght-{WEIGHTS[0]}-{WEIGHTS[1]}-")
        cut(PACKAGE / "files" / face["file"], target, face["range"])
        print(f"{target.name}: {target.stat().st_size:,} bytes")
        faces.append(
            f"/* {face['name']} */\n"
            "@font-face {\n"
            "  font-family: 'Inter Variable';\n"
            "  font-style: normal;\n"
            "  font-display: swap;\n"
            f"  font-weight: {WEIGHTS[0]} {WEIGHTS[1]};\n"
            f"  src: url(../assets/fonts/{target.name}) format('woff2-variations');\n"
            f"  unicode-range: {face['range']};\n"
            "}\n"
        )
    header = (
        "/* Inter, weights 400 to 700, cut from @fontsource-variable/inter by\n"
        "   scripts/subset-inter.py (generated: edit the script, not this file). */\n"
    )
    STYLESHEET.write_text(header + "\n".join(faces))


if __name__ == "__main__":
    main()
