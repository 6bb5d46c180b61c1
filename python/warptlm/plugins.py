"""Component plug-ins: shared libraries that register reconvergence schemes,
warp schedulers or lane permutations by name (docs/plugins.md).

    warptlm.load_plugin("build/examples/components/libwarptlm_example_components.so")
    warptlm.Platform("small", reconvergence="not_taken_first", scheduler="youngest_first")

The plug-ins named by the environment variable WARPTLM_PLUGINS (paths
separated by ':') are loaded when warptlm is imported, by both CLIs too.
"""

import os

from . import _core, isolation

__all__ = ["load_plugin", "loaded_plugins"]


def load_plugin(path):
    """Load the plug-in at ``path`` into this process and every simulation
    child started from now on; its components are then accepted by name
    (configuration, ``warptlm.schemes()``, runs, sweeps). Loading the same
    file again does nothing. ValueError naming the path for a missing file,
    one that is not a plug-in, or a component name already registered."""
    path = os.path.abspath(os.fspath(path))
    _core.load_plugin(path)
    # Children (the isolation launchers, sweep workers) load what the
    # variable names: launchers started before this one are closed.
    listed = [p for p in os.environ.get("WARPTLM_PLUGINS", "").split(os.pathsep) if p]
    if path not in listed:
        os.environ["WARPTLM_PLUGINS"] = os.pathsep.join(listed + [path])
        isolation.shutdown()


def loaded_plugins():
    """The plug-ins loaded in this process (absolute, resolved paths), in load order."""
    return list(_core.loaded_plugins())
