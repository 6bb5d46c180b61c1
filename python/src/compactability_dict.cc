// The compactability analysis as plain Python values: column lists the
// package turns into DataFrames (warptlm/compaction.py).
#include "compactability_dict.h"

namespace warptlm::python {

py::dict compactability_dict(const CompactionAnalysis& a) {
  const std::vector<std::string>& names = a.permutations();
  // Long form: one row per (branch, direction, activity bucket, permutation),
  // so a groupby gives any of the paper's breakdowns.
  py::list branch_pc, direction, bucket, branch_class, permutation, paths, threads, nw_no, nw_ideal,
      ideal_compacted, nw_tbc, tbc_compacted;
  for (const auto& [key, g] : a.groups()) {
    for (size_t p = 0; p < names.size(); ++p) {
      branch_pc.append(key.branch_pc);
      direction.append(key.taken ? "taken" : "not_taken");
      bucket.append(activity_bucket_name(key.bucket));
      branch_class.append(taint_name(g.taint));
      permutation.append(names[p]);
      paths.append(g.paths);
      threads.append(g.threads);
      nw_no.append(g.nw_no_compaction);
      nw_ideal.append(g.nw_ideal);
      ideal_compacted.append(g.ideal_compacted);
      nw_tbc.append(g.nw_tbc[p]);
      tbc_compacted.append(g.tbc_compacted[p]);
    }
  }
  py::dict rows;
  rows["branch_pc"] = branch_pc;
  rows["direction"] = direction;
  rows["activity"] = bucket;
  rows["branch_class"] = branch_class;
  rows["permutation"] = permutation;
  rows["paths"] = paths;
  rows["threads"] = threads;
  rows["nw_no_compaction"] = nw_no;
  rows["nw_ideal"] = nw_ideal;
  rows["ideal_compacted"] = ideal_compacted;
  rows["nw_tbc"] = nw_tbc;
  rows["tbc_compacted"] = tbc_compacted;

  const InstructionTotals& t = a.totals();
  py::dict totals;
  totals["instructions"] = t.instructions;
  totals["threads"] = t.threads;
  totals["nw_no_compaction"] = t.nw_no_compaction;
  totals["nw_ideal"] = t.nw_ideal;
  py::dict per_permutation;
  for (size_t p = 0; p < names.size(); ++p) per_permutation[py::str(names[p])] = t.nw_tbc[p];
  totals["nw_tbc"] = per_permutation;

  py::dict out;
  out["warp_size"] = a.warp_size();
  out["permutations"] = names;
  out["paths"] = rows;
  out["totals"] = totals;
  return out;
}

}  // namespace warptlm::python
