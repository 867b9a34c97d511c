"""Byte counts in charts, as npusim's tables print them (sim/common/ByteSize.h): the largest
binary unit reached, a whole number of it as is ("512 KiB", "1000 B"), any other to one
decimal ("1.5 KiB"). results.csv keeps exact integers; only what people read changes."""
import math

UNITS = ("B", "KiB", "MiB", "GiB", "TiB")


def byte_size_text(count):
    """512 KiB for 524288, 1.5 KiB for 1536, 1000 B for 1000; negative counts get a '-'."""
    if count < 0:
        return "-" + byte_size_text(-count)
    value, unit = float(round(count)), 0
    while value >= 1024 and unit + 1 < len(UNITS):
        value /= 1024
        unit += 1
    return f"{int(value)} {UNITS[unit]}" if value.is_integer() else f"{value:.1f} {UNITS[unit]}"


def is_byte_valued(column):
    """A column counting bytes, by its name's last dotted part: bytes, ..._bytes or bytes_...
    (bytes_read), not a rate (bytes_per_cycle)."""
    name = column.rsplit(".", 1)[-1]
    ends = name.endswith("_bytes") and name != "_bytes"
    starts = name.startswith("bytes_") and "_per_" not in name
    return name == "bytes" or ends or starts


def power_of_two_step(values):
    """A tick step of 2^k bytes giving 4 to 8 ticks over the values' span."""
    span = (max(values) - min(values)) or max(values) or 1
    return 2 ** max(0, math.floor(math.log2(span / 4)))


def label_bytes(axis, values, log):
    """Ticks of a byte-valued axis in binary units: at powers of two on a log axis, at a
    power-of-two step on a linear one, so they read 256 KiB, 512 KiB, not 195.3 KiB."""
    import matplotlib.ticker as ticker

    if log:
        axis.set_major_locator(ticker.LogLocator(base=2, numticks=9))
        axis.set_minor_locator(ticker.NullLocator())
    else:
        axis.set_major_locator(ticker.MultipleLocator(power_of_two_step(values)))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: byte_size_text(v)))
