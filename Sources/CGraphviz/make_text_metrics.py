#!/usr/bin/env python3
"""Writes text_metrics.h: the advance widths LifeSpec measures diagram text with (see shim.h).

Graphviz sizes every label by asking a text-layout plugin how wide its text is; with the system's
plugin (pango) the answer depends on the fonts installed, so the same DOT gave other coordinates on
another machine. LifeSpec answers from these tables instead. They are read from the Liberation 2
fonts (Debian's fonts-liberation2), which are metric-compatible with Helvetica/Arial and Courier,
the fonts the diagrams name.

    python3 Sources/CGraphviz/make_text_metrics.py /usr/share/fonts/truetype/liberation2 > Sources/CGraphviz/text_metrics.h

Run it again only to change the tables: the digest every drawing records covers the version below,
so new tables make every drawing stale once.
"""
import hashlib
import os
import struct
import sys

# Code point ranges the tables cover densely (first, end exclusive): Latin, Greek, Cyrillic,
# punctuation, currency, letterlike, arrows, mathematical operators, box drawing and geometric shapes.
RANGES = [(0x20, 0x250), (0x370, 0x530), (0x2000, 0x2300), (0x2500, 0x2600)]
FACES = [("regular", "LiberationSans-Regular.ttf"), ("bold", "LiberationSans-Bold.ttf"),
         ("italic", "LiberationSans-Italic.ttf"), ("bold_italic", "LiberationSans-BoldItalic.ttf")]


def tables(data):
    count = struct.unpack(">H", data[4:6])[0]
    result = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        result[tag.decode()] = data[offset:offset + length]
    return result


def character_map(cmap):
    """Code point → glyph index, from the Windows Unicode subtable (format 4 or 12)."""
    count = struct.unpack(">H", cmap[2:4])[0]
    best = None
    for i in range(count):
        platform, encoding, offset = struct.unpack(">HHI", cmap[4 + 8 * i:12 + 8 * i])
        form = struct.unpack(">H", cmap[offset:offset + 2])[0]
        if platform == 3 and encoding in (1, 10) and (best is None or form == 12):
            best = (offset, form)
    offset, form = best
    mapping = {}
    if form == 4:
        segments2 = struct.unpack(">H", cmap[offset + 6:offset + 8])[0]
        segments = segments2 // 2
        ends = struct.unpack(">%dH" % segments, cmap[offset + 14:offset + 14 + segments2])
        starts = struct.unpack(">%dH" % segments, cmap[offset + 16 + segments2:offset + 16 + 2 * segments2])
        deltas = struct.unpack(">%dh" % segments, cmap[offset + 16 + 2 * segments2:offset + 16 + 3 * segments2])
        range_offsets_at = offset + 16 + 3 * segments2
        range_offsets = struct.unpack(">%dH" % segments, cmap[range_offsets_at:range_offsets_at + segments2])
        for i in range(segments):
            for point in range(starts[i], ends[i] + 1):
                if point == 0xFFFF:
                    continue
                if range_offsets[i] == 0:
                    glyph = (point + deltas[i]) & 0xFFFF
                else:
                    at = range_offsets_at + 2 * i + range_offsets[i] + 2 * (point - starts[i])
                    glyph = struct.unpack(">H", cmap[at:at + 2])[0]
                    if glyph:
                        glyph = (glyph + deltas[i]) & 0xFFFF
                if glyph:
                    mapping[point] = glyph
    else:
        groups = struct.unpack(">I", cmap[offset + 12:offset + 16])[0]
        for i in range(groups):
            first, last, glyph = struct.unpack(">III", cmap[offset + 16 + 12 * i:offset + 28 + 12 * i])
            for point in range(first, last + 1):
                mapping[point] = glyph + point - first
    return mapping


def face_metrics(path):
    data = open(path, "rb").read()
    table = tables(data)
    units = struct.unpack(">H", table["head"][18:20])[0]
    ascender, descender, gap = struct.unpack(">hhh", table["hhea"][4:10])
    advances_count = struct.unpack(">H", table["hhea"][34:36])[0]
    advances = [struct.unpack(">H", table["hmtx"][4 * i:4 * i + 2])[0] for i in range(advances_count)]
    widths = {point: advances[min(glyph, advances_count - 1)] for point, glyph in character_map(table["cmap"]).items()}
    return units, ascender, descender, gap, widths


# Code points a block: the tables are two-stage, each face's ranges a list of blocks and the
# blocks written once for all faces (most repeat: unmapped runs, and widths the faces share).
BLOCK = 16


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/liberation2"
    faces = []
    blocks = {}
    digest = hashlib.sha256()
    common = None
    for name, file in FACES:
        units, ascender, descender, gap, widths = face_metrics(os.path.join(folder, file))
        assert common in (None, (units, ascender, descender, gap)), "the faces disagree on vertical metrics"
        common = (units, ascender, descender, gap)
        numbers = []
        for first, end in RANGES:
            assert (end - first) % BLOCK == 0, "a range is whole blocks"
            values = [widths.get(point, 0) for point in range(first, end)]
            digest.update(struct.pack(">%dH" % len(values), *values))
            numbers += [blocks.setdefault(tuple(values[i:i + BLOCK]), len(blocks)) for i in range(0, len(values), BLOCK)]
        faces.append("    /* %s */ { %s }," % (name, ", ".join(str(n) for n in numbers)))
    units, ascender, descender, gap = common
    version = "liberation-sans-2/" + digest.hexdigest()[:16]
    print("/* Generated by make_text_metrics.py from the Liberation 2 fonts — do not edit. */")
    print("#ifndef LIFESPEC_TEXT_METRICS_H\n#define LIFESPEC_TEXT_METRICS_H\n#include <stdint.h>\n")
    print('/* Names the tables in the digest every drawing records. */')
    print('#define LIFESPEC_TEXT_METRICS_VERSION "%s"' % version)
    print("#define LIFESPEC_SANS_UNITS_PER_EM %d" % units)
    print("#define LIFESPEC_SANS_ASCENDER %d" % ascender)
    print("#define LIFESPEC_SANS_DESCENDER %d" % -descender)
    print("#define LIFESPEC_SANS_LINE_GAP %d" % gap)
    print("#define LIFESPEC_METRIC_RANGE_COUNT %d" % len(RANGES))
    print("static const uint32_t lifespec_metric_range_first[%d] = { %s };" % (len(RANGES), ", ".join("0x%04X" % f for f, _ in RANGES)))
    print("static const uint32_t lifespec_metric_range_end[%d] = { %s };" % (len(RANGES), ", ".join("0x%04X" % e for _, e in RANGES)))
    print("#define LIFESPEC_METRIC_BLOCK %d" % BLOCK)
    print("static const uint16_t lifespec_metric_blocks[%d][%d] = {" % (len(blocks), BLOCK))
    for block in blocks:
        print("    { %s }," % ", ".join(str(v) for v in block))
    print("};")
    print()
    starts = [0]
    for first, end in RANGES[:-1]:
        starts.append(starts[-1] + (end - first) // BLOCK)
    total = starts[-1] + (RANGES[-1][1] - RANGES[-1][0]) // BLOCK
    print("/* Where each range's blocks start in a face's list. */")
    print("static const uint16_t lifespec_metric_range_block[%d] = { %s };" % (len(RANGES), ", ".join(str(n) for n in starts)))
    print("/* Per face (regular, bold, italic, bold italic), the block of each LIFESPEC_METRIC_BLOCK code points. */")
    print("static const uint16_t lifespec_sans_blocks[%d][%d] = {" % (len(FACES), total))
    print("\n".join(faces))
    print("};")
    print("\n#endif")


main()
