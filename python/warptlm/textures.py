"""Texture and surface objects: a numpy array with a description, passed
where a kernel takes a ``cudaTextureObject_t`` or ``cudaSurfaceObject_t``.

The array's last axes are the image (``(width,)``, ``(height, width)`` or
``(depth, height, width)``), with one more axis of 2 or 4 channels when
``channels`` is greater than 1; its dtype is the channel type. A surface's
array receives what the kernel wrote, as a buffer does. The sampling rules
are the CUDA Programming Guide's; docs/textures.md says what warptlm computes.
"""

import numpy as np

from . import _core

__all__ = ["Texture", "Surface"]


def _element(dtype):
    """The PTX name of a dtype's elements ("f32"), or its numpy name."""
    kinds = {"u": "u", "i": "s", "f": "f"}
    if dtype.kind in kinds:
        return f"{kinds[dtype.kind]}{dtype.itemsize * 8}"
    return dtype.name


def _describe(kind, array, **options):
    name = "Texture" if kind == "texture" else "Surface"
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{name}: the texels must be a numpy array, got {type(array).__name__}")
    address = options.pop("address", "clamp")
    address = [address] if isinstance(address, str) else list(address)
    border = [float(b) for b in options.pop("border", (0.0,) * 4)]
    # One set of rules for both CLIs and this class: the C++ side's.
    return _core.make_image_desc(kind, list(array.shape), _element(array.dtype), address=address,
                                 border=border, **options)


class Texture:
    """A texture object (``cudaCreateTextureObject``) over ``array``.

    ``filter``: "point" or "linear" (linear needs float texels or
    ``read="normalized_float"``). ``address``: one mode or one per axis,
    among "wrap", "clamp", "mirror", "border" (wrap and mirror act as clamp
    without normalised coordinates). ``read``: "element_type" or
    "normalized_float" (8- and 16-bit integers read as [0, 1] or [-1, 1]).
    ``border``: the value outside a "border" texture, per channel.
    """

    kind = "texture"

    def __init__(self, array, *, channels=1, filter="point", address="clamp", normalized_coords=False,
                 read="element_type", border=(0.0, 0.0, 0.0, 0.0)):
        self.array = array
        self.desc = _describe("texture", array, channels=channels, filter=filter, address=address,
                              normalized_coords=bool(normalized_coords), read=read, border=border)

    def __repr__(self):
        d = self.desc
        shape = "x".join(str(d[k]) for k in ("width", "height", "depth")[:d["dims"]])
        return (f"Texture({shape} {d['type']}x{d['channels']}, {d['filter']}, address {d['address'][:d['dims']]}"
                f"{', normalized' if d['normalized_coords'] else ''})")


class Surface:
    """A surface object (``cudaCreateSurfaceObject``) over ``array``: the kernel
    reads and writes it with surf*Dread/surf*Dwrite (x in bytes), and the
    array receives what it wrote."""

    kind = "surface"

    def __init__(self, array, *, channels=1):
        self.array = array
        self.desc = _describe("surface", array, channels=channels, filter="point", address="clamp",
                              normalized_coords=False, read="element_type")

    def __repr__(self):
        d = self.desc
        shape = "x".join(str(d[k]) for k in ("width", "height", "depth")[:d["dims"]])
        return f"Surface({shape} {d['type']}x{d['channels']})"
