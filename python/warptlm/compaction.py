"""The compactability analysis of the SLP paper (Rhu & Erez, ISCA 2013) as DataFrames.

One functional run executes each CTA in lockstep under the block-wide IPDOM
stack and, for every CTA-wide path a divergent branch creates, counts the
warps it needs without compaction (NW_NoTBC), with ideal compaction
(NW_ideal) and with thread block compaction under every lane permutation
(NW_TBC). ``scenarios.run(..., compactability=True)`` and
``launch(..., compactability=True)`` attach a :class:`Compactability` to the
Result; ``warptlm.compactability`` (scenarios.compactability) runs a
scenario for it. docs/compaction.md
defines every quantity.
"""

from dataclasses import dataclass

import pandas as pd

__all__ = ["Compactability", "compaction_rates"]


@dataclass
class Compactability:
    """What the analysis measured.

    ``paths``: one row per (branch_pc, direction, activity, permutation) with
    the branch's class (``branch_class``: "P" programmatic, "D" data-dependent),
    the number of dynamic CTA-wide ``paths`` and their summed ``threads``,
    ``nw_no_compaction``, ``nw_ideal``, ``nw_tbc`` (sums over the paths),
    ``ideal_compacted`` and ``tbc_compacted`` (paths whose NW_ideal / NW_TBC is
    below NW_NoTBC). ``activity`` is the fraction of the CTA's threads in the
    path: "0-25%", "25-50%", "50-75%", "75-100%".
    ``totals``: sums over every lockstep instruction (instructions, threads,
    nw_no_compaction, nw_ideal, nw_tbc per permutation).
    """

    warp_size: int
    permutations: list
    paths: pd.DataFrame
    totals: dict

    @classmethod
    def from_native(cls, native):
        paths = pd.DataFrame(native["paths"], columns=list(native["paths"]))
        return cls(warp_size=int(native["warp_size"]), permutations=list(native["permutations"]),
                   paths=paths, totals=dict(native["totals"]))

    def summary(self):
        """Compaction rates per branch class and permutation (the paper's
        Figure 11): one row per (branch_class, permutation) with ``paths``,
        ``compaction_rate`` (fraction with NW_TBC < NW_NoTBC) and
        ``ideal_compaction_rate`` (NW_ideal < NW_NoTBC)."""
        return self._rates(["branch_class", "permutation"])

    def by_activity(self):
        """The same rates split by the fraction of the CTA's threads active in
        the path (the paper's Figures 12 and 13)."""
        return self._rates(["branch_class", "activity", "permutation"])

    def simd_utilisation(self):
        """Active threads over issued warp slots over every lockstep
        instruction: one row per scheme ("no_compaction", "ideal", then
        "tbc:<permutation>"), with the warps issued and the utilisation."""
        t = self.totals
        rows = [("no_compaction", t["nw_no_compaction"]), ("ideal", t["nw_ideal"])]
        rows += [(f"tbc:{name}", t["nw_tbc"][name]) for name in self.permutations]
        frame = pd.DataFrame(rows, columns=["scheme", "warp_instructions"])
        slots = frame["warp_instructions"] * self.warp_size
        frame["simd_utilisation"] = (t["threads"] / slots).where(slots > 0, 0.0)
        return frame.set_index("scheme")

    def _rates(self, keys):
        return compaction_rates(self.paths, keys)


def compaction_rates(paths, keys):
    """Compaction rates of ``paths`` (a :attr:`Compactability.paths` frame, or
    several concatenated with a column telling them apart) grouped by
    ``keys``: ``paths``, ``compaction_rate`` and ``ideal_compaction_rate``."""
    if paths.empty:
        return pd.DataFrame(columns=list(keys) + ["paths", "compaction_rate", "ideal_compaction_rate"])
    grouped = paths.groupby(list(keys), sort=True)[["paths", "tbc_compacted", "ideal_compacted"]].sum()
    out = pd.DataFrame({"paths": grouped["paths"]})
    out["compaction_rate"] = grouped["tbc_compacted"] / grouped["paths"]
    out["ideal_compaction_rate"] = grouped["ideal_compacted"] / grouped["paths"]
    return out.reset_index()
