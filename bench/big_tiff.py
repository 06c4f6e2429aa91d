#!/usr/bin/python3
"""Writes a large RGB 8-bit TIFF (default 40000x30000, 3.6 GB, uncompressed strips) without holding
it in memory, for the streaming benchmark of issue 14:

    /usr/bin/python3 bench/big_tiff.py /tmp/scan.tif [WIDTH HEIGHT]
    /usr/bin/time -f '%e s %M KB' build/fastblur blur /tmp/scan.tif /tmp/out.tif --sigma 10

The picture is smooth gradients with a grid of sharp squares and noise, so a blur changes it
everywhere. Classic TIFF (32-bit offsets) holds up to 4 GiB of pixels; larger sizes are refused.
"""
import struct
import sys

import numpy as np


def main():
    path = sys.argv[1]
    width = int(sys.argv[2]) if len(sys.argv) > 2 else 40000
    height = int(sys.argv[3]) if len(sys.argv) > 3 else 30000
    row_bytes = width * 3
    rows_per_strip = max(1, (1 << 20) // row_bytes)
    strips = (height + rows_per_strip - 1) // rows_per_strip
    pixel_bytes = row_bytes * height
    header = 8
    # Layout: header, IFD, its out-of-line values, strip offsets and counts, then the pixels.
    entries = 11
    ifd = header
    ifd_size = 2 + 12 * entries + 4
    bits_at = ifd + ifd_size
    offsets_at = bits_at + 6
    counts_at = offsets_at + 4 * strips
    data_at = counts_at + 4 * strips
    if data_at + pixel_bytes >= 1 << 32:
        sys.exit(f"{width}x{height} RGB needs more than 4 GiB: classic TIFF cannot hold it")

    def entry(tag, kind, count, value):
        if kind == 3 and count == 1:
            return struct.pack("<HHIHH", tag, kind, count, value, 0)
        return struct.pack("<HHII", tag, kind, count, value)

    offsets = [data_at + s * rows_per_strip * row_bytes for s in range(strips)]
    counts = [min(rows_per_strip, height - s * rows_per_strip) * row_bytes for s in range(strips)]
    with open(path, "wb") as f:
        f.write(b"II" + struct.pack("<HI", 42, ifd))
        f.write(struct.pack("<H", entries))
        f.write(entry(256, 4, 1, width))             # ImageWidth
        f.write(entry(257, 4, 1, height))            # ImageLength
        f.write(entry(258, 3, 3, bits_at))           # BitsPerSample 8,8,8
        f.write(entry(259, 3, 1, 1))                 # Compression: none
        f.write(entry(262, 3, 1, 2))                 # Photometric: RGB
        f.write(entry(273, 4, strips, offsets_at if strips > 1 else offsets[0]))  # StripOffsets
        f.write(entry(277, 3, 1, 3))                 # SamplesPerPixel
        f.write(entry(278, 4, 1, rows_per_strip))    # RowsPerStrip
        f.write(entry(279, 4, strips, counts_at if strips > 1 else counts[0]))    # StripByteCounts
        f.write(entry(284, 3, 1, 1))                 # PlanarConfiguration: contiguous
        f.write(entry(339, 3, 1, 1))                 # SampleFormat: unsigned
        f.write(struct.pack("<I", 0))
        f.write(struct.pack("<HHH", 8, 8, 8))
        f.write(struct.pack(f"<{strips}I", *offsets))
        f.write(struct.pack(f"<{strips}I", *counts))
        assert f.tell() == data_at
        rng = np.random.default_rng(14)
        x = np.arange(width, dtype=np.float32)
        band = 256
        for y0 in range(0, height, band):
            y = np.arange(y0, min(height, y0 + band), dtype=np.float32)[:, None]
            base = 128 + 60 * np.sin(x / 997.0) * np.cos(y / 1301.0)
            squares = ((x // 64 + y // 64) % 2) * 40
            noise = rng.integers(-20, 21, size=(len(y), width), dtype=np.int16)
            rgb = np.stack([base + squares + noise, base - squares + noise, 255 - base + noise], axis=-1)
            f.write(np.clip(rgb, 0, 255).astype(np.uint8).tobytes())


if __name__ == "__main__":
    main()
