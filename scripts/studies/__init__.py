"""The studies behind results/: each module has NAME, TITLE and run(ctx) ->
Section; scripts/run_studies.py runs them in this order."""
from . import compaction_timing, multipath, paired_path, sensitivity, slp_compactability, taxonomy

STUDIES = [slp_compactability, compaction_timing, paired_path, multipath, taxonomy, sensitivity]
