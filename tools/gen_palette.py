"""Generate pixel art's palette, the colour of each wool, concrete and terracotta block, from
the game's own textures in Mojang's bedrock-samples.

A block's colour is the mean of its texture's pixels (the opaque ones), in sRGB, rounded:
the colour it shows from a few blocks away, which is what a picture made of blocks is seen
from. The textures are ``resource_pack/textures/blocks/<texture>.png`` (16 x 16), named as
the game's resource pack names them (``wool_colored_silver`` is light gray wool,
``hardened_clay`` plain terracotta); the block names are the Bedrock ids the simulated
world's block list holds (``mcbews_repl/sim/evidence/block_types.json``). This writes
``mcbews_repl/toolkit/block_colours.json`` from one commit of that repository::

    python tools/gen_palette.py --samples ../bedrock-samples [--commit <sha>]

``--samples`` is a clone or a bare mirror (its git directory); the commit, the repository and
every texture's path are recorded in the file. PNGs are decoded here with the standard library
(``zlib``), so nothing beyond Python is needed.
"""

from __future__ import annotations

import argparse
import json
import struct
import subprocess
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "mcbews_repl" / "toolkit" / "block_colours.json"
TEXTURES = "resource_pack/textures/blocks"
REPOSITORY = "Mojang/bedrock-samples"

# The sixteen dyes in the game's order: (the block ids' word, the textures' word).
COLOURS = (
    ("white", "white"), ("orange", "orange"), ("magenta", "magenta"),
    ("light_blue", "light_blue"), ("yellow", "yellow"), ("lime", "lime"), ("pink", "pink"),
    ("gray", "gray"), ("light_gray", "silver"), ("cyan", "cyan"), ("purple", "purple"),
    ("blue", "blue"), ("brown", "brown"), ("green", "green"), ("red", "red"),
    ("black", "black"),
)  # fmt: skip


def blocks() -> list[tuple[str, str, str]]:
    """(family, block id, texture file) of every block in the palette."""
    out = []
    for word, texture in COLOURS:
        out.append(("wool", f"minecraft:{word}_wool", f"wool_colored_{texture}.png"))
    for word, texture in COLOURS:
        out.append(("concrete", f"minecraft:{word}_concrete", f"concrete_{texture}.png"))
    out.append(("terracotta", "minecraft:hardened_clay", "hardened_clay.png"))
    for word, texture in COLOURS:
        out.append(("terracotta", f"minecraft:{word}_terracotta",
                    f"hardened_clay_stained_{texture}.png"))  # fmt: skip
    return out


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def decode_png(data: bytes) -> list[tuple[int, int, int, int]]:
    """Every pixel of an 8-bit, non-interlaced PNG (grey, RGB, palette, grey+alpha, RGBA)
    as (r, g, b, a)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    at, idat, plte, trns = 8, b"", b"", b""
    width = height = depth = kind = interlace = 0
    while at < len(data):
        (n,), tag = struct.unpack(">I", data[at : at + 4]), data[at + 4 : at + 8]
        body = data[at + 8 : at + 8 + n]
        at += 12 + n
        if tag == b"IHDR":
            width, height, depth, kind, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif tag == b"PLTE":
            plte = body
        elif tag == b"tRNS":
            trns = body
        elif tag == b"IDAT":
            idat += body
    if depth != 8 or interlace:
        raise ValueError(f"a PNG of bit depth {depth}, interlace {interlace}: not read here")
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[kind]
    raw, stride = zlib.decompress(idat), width * channels
    rows: list[bytearray] = []
    prior = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        method, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = prior[i], (prior[i - channels] if i >= channels else 0)
            add = (0, left, up, (left + up) // 2, _paeth(left, up, corner))[method]
            line[i] = (line[i] + add) & 0xFF
        rows.append(line)
        prior = line
    pixels = []
    for line in rows:
        for x in range(width):
            px = line[x * channels : (x + 1) * channels]
            if kind == 0:
                pixels.append((px[0], px[0], px[0], 255))
            elif kind == 2:
                pixels.append((px[0], px[1], px[2], 255))
            elif kind == 3:
                i = px[0]
                alpha = trns[i] if i < len(trns) else 255
                pixels.append((plte[3 * i], plte[3 * i + 1], plte[3 * i + 2], alpha))
            elif kind == 4:
                pixels.append((px[0], px[0], px[0], px[1]))
            else:
                pixels.append((px[0], px[1], px[2], px[3]))
    return pixels


def mean_rgb(pixels: list[tuple[int, int, int, int]]) -> list[int]:
    """The mean colour of the opaque pixels, each channel rounded to a whole number."""
    opaque = [p for p in pixels if p[3] > 0] or pixels
    return [round(sum(p[c] for p in opaque) / len(opaque)) for c in range(3)]


def git(samples: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(samples), *args], check=True,
                          capture_output=True).stdout  # fmt: skip


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--samples", type=Path, required=True, help="bedrock-samples' git dir")
    args.add_argument("--commit", default="HEAD")
    parsed = args.parse_args()
    samples = parsed.samples
    if (samples / ".git").exists():
        samples = samples / ".git"
    commit = git(samples, "rev-parse", parsed.commit).decode().strip()
    described = git(samples, "log", "-1", "--format=%s", commit).decode().strip()  # v1.26...
    colours = {}
    for family, block, texture in blocks():
        path = f"{TEXTURES}/{texture}"
        colours[block] = {"family": family, "rgb": mean_rgb(decode_png(git(samples, "show",
                          f"{commit}:{path}"))), "texture": path}  # fmt: skip
    out = {
        "$comment": (
            "The colour of each wool, concrete and terracotta block for pixel art "
            "(toolkit/shapes.py, pixel_art): the mean sRGB of the opaque pixels of the "
            "block's texture in the game's resource pack, generated by tools/gen_palette.py"
        ),
        "source": {"repository": REPOSITORY, "commit": commit, "version": described},
    }
    lines = [f"  {json.dumps(block)}: {json.dumps(entry)}" for block, entry in colours.items()]
    text = json.dumps(out, indent=1)[:-2] + ',\n "blocks": {\n' + ",\n".join(lines) + "\n }\n}\n"
    assert json.loads(text)["blocks"] == colours
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {len(colours)} colours from {REPOSITORY} {described} ({commit[:12]}) to {OUT}")


if __name__ == "__main__":
    main()
