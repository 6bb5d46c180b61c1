"""Platform configuration: a named preset plus overrides by field name.

The fields, their types, ranges, allowed values and presets are defined once,
in C++ (models/config), and shared with the CLI and the timing model; this
module only names them the Python way. Nested fields are addressed as
``"memory.l1.size"`` or, as keyword arguments, ``memory__l1__size``.
"""

import json
import os
import numbers

from . import _core
from .launch import launch

__all__ = ["Platform", "presets", "fields", "field_names", "normalise_overrides"]


def presets():
    """Names of the presets, in their fixed order (``small`` first)."""
    return [name for name, _ in _core.presets()]


def preset_docs():
    """{preset name: what it models and where its figures come from}."""
    return dict(_core.presets())


def fields():
    """Every configuration field as a dict: name, type, doc, default, allowed,
    min, max, power_of_two, describe (the allowed values in words), functional
    (whether functional mode reads it)."""
    return _core.config_fields()


def field_names():
    return [f["name"] for f in _core.config_fields()]


def _plain(value):
    """numpy scalars and other number types as plain JSON-able Python values."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if hasattr(value, "dtype") and getattr(value, "shape", None) == ():
        value = value.item()  # numpy scalar or 0-d array
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return value


def _flatten(prefix, value, out):
    if isinstance(value, dict):
        for key, inner in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), inner, out)
    else:
        out[prefix] = _plain(value)


def normalise_overrides(overrides):
    """Flat {"memory.l1.size": value} from keyword-style or nested overrides.

    Raises ValueError for an unknown field, naming it, the closest known names
    and every field.
    """
    flat = {}
    for key, value in overrides.items():
        _flatten(key.replace("__", "."), value, flat)
    for name in flat:
        _core.check_field(name)  # the model's message, as the C++ CLI gives it
    return flat


class Platform:
    """A GPU configuration: ``Platform(preset="small", **overrides)``.

    ``Platform("fermi", warp_size=16, memory__l1__size=16384)`` or
    ``Platform("small", **{"memory.l1.size": 16384})``. Unknown fields and bad
    values raise ValueError naming the field and its allowed values or range.
    Immutable: :meth:`with_` returns a changed copy.
    """

    def __init__(self, preset="small", **overrides):
        if not isinstance(preset, str):
            raise TypeError(f"preset must be a preset name (str), got {type(preset).__name__}")
        self._preset = preset
        self._overrides = normalise_overrides(overrides)
        self._config = _core.make_config(preset, json.dumps(self._overrides))

    @property
    def preset(self):
        return self._preset

    @property
    def config(self):
        """The full configuration as a flat dict {field name: value} (a copy)."""
        return dict(self._config)

    @property
    def overrides(self):
        """The fields set on top of the preset (a copy)."""
        return dict(self._overrides)

    def __getitem__(self, name):
        name = name.replace("__", ".")
        if name not in self._config:
            normalise_overrides({name: None})  # raises naming the field
        return self._config[name]

    @classmethod
    def from_file(cls, path, default_preset="fermi"):
        """The configuration a JSON or YAML file describes: an object whose
        optional ``preset`` is the starting point (else ``default_preset``) and
        whose other entries set fields, flat or nested; read as the C++ API's
        ``load_config_file`` reads it. ValueError names the file (and the field,
        or line:column)."""
        path = os.fspath(path)
        preset, fields = _core.read_config_file(path, default_preset)
        try:
            return cls(preset, **json.loads(fields))
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None

    def with_(self, **overrides):
        """A new Platform: this one's preset and overrides, then ``overrides``."""
        merged = dict(self._overrides)
        merged.update(normalise_overrides(overrides))
        return Platform(self._preset, **merged)

    def config_json(self):
        """The configuration as the JSON text the native core reads."""
        return json.dumps(self._config)

    def launch(self, kernel, grid, block, args, shared_bytes=0, mode="functional", trace=False, **outputs):
        """Run ``kernel`` over ``grid`` x ``block`` threads; see :func:`warptlm.launch.launch`
        (``outputs``: timeline, vcd, timeout, outdir, compactability, cooperative)."""
        return launch(self, kernel, grid, block, args, shared_bytes=shared_bytes, mode=mode, trace=trace,
                      **outputs)

    def session(self, mode="functional", timeout=None):
        """A :class:`warptlm.Session` on this platform: several launches on one
        device (and, in timing mode, one elaboration of the model)."""
        from .session import Session
        return Session(self, mode=mode, timeout=timeout)

    def launch_sequence(self, launches, mode="functional", between=None, timeout=None):
        """Run a list of launches in one session; see :func:`warptlm.session.launch_sequence`."""
        from .session import launch_sequence
        return launch_sequence(self, launches, mode=mode, between=between, timeout=timeout)

    def __eq__(self, other):
        return isinstance(other, Platform) and self._config == other._config

    def __hash__(self):
        return hash(json.dumps(self._config, sort_keys=True))

    def __repr__(self):
        args = [repr(self._preset)] + [f"{k.replace('.', '__')}={v!r}" for k, v in self._overrides.items()]
        return f"Platform({', '.join(args)})"
