// The front end and the functional executor: analyze() a PTX module, and
// run_kernel() one launch, returning statistics, buffers, trace and fault as
// plain Python values (picklable, so a forked child can send them back).
#include <chrono>

#include "cli_text.h"
#include "compactability_dict.h"
#include "core.h"
#include "exec/launch_session.h"
#include "exec/prepared_program.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "frontend/register_pressure.h"
#include "gpu/timing_run.h"
#include "image_dict.h"
#include "reconverge/function_reconvergence.h"
#include "simt/reconvergence_unit.h"

namespace warptlm::python {

Type type_from_name(const std::string& name) {
  for (unsigned t = static_cast<unsigned>(Type::Pred); t <= static_cast<unsigned>(Type::F64); ++t)
    if (name == type_name(static_cast<Type>(t))) return static_cast<Type>(t);
  throw std::invalid_argument("unknown PTX scalar type '" + name + "'");
}

Dim3 to_dim3(const py::tuple& t) {
  if (t.size() != 3) throw std::invalid_argument("geometry must be a 3-tuple");
  return Dim3{t[0].cast<uint32_t>(), t[1].cast<uint32_t>(), t[2].cast<uint32_t>()};
}

namespace {

py::dict analyze(const std::string& ptx, const std::string& source_name) {
  Program program = finalize(parse_ptx(ptx, source_name));
  const Module& mod = program.module;
  py::list kernels, functions, branches;
  for (uint32_t fi = 0; fi < mod.functions.size(); ++fi) {
    const Function& f = mod.functions[fi];
    if (!f.is_entry) {
      functions.append(f.name);
      continue;
    }
    py::list params;
    for (uint32_t s : f.params) {
      const Symbol& p = mod.symbols[s];
      py::dict d;
      d["name"] = p.name;
      d["type"] = type_name(p.type);
      d["size"] = p.size;
      params.append(d);
    }
    py::dict k;
    k["name"] = f.name;
    k["params"] = params;
    k["begin"] = f.begin;
    k["end"] = f.end;
    k["registers"] = register_pressure(mod, fi);
    kernels.append(k);
  }
  for (const BranchInfo& b : program.branches) {
    py::dict d;
    d["function"] = mod.function_at(b.pc).name;
    d["pc"] = b.pc;
    d["target"] = b.target;
    d["reconvergence_pc"] = b.reconv == kExitPc ? py::object(py::none()) : py::int_(b.reconv);
    d["conditional"] = b.conditional;
    d["uniform_hint"] = b.uniform_hint;
    d["structured"] = b.structured;
    d["taint"] = taint_name(b.taint);
    d["line"] = mod.at(b.pc).loc.line;
    branches.append(d);
  }
  py::dict out;
  out["kernels"] = kernels;
  out["functions"] = functions;
  out["branches"] = branches;
  return out;
}

// The reconverging CFG of each function of a module (compiler-side
// reconvergence): per function its blocks (name, pc or None, successors by
// name, divergent, flow, routes) and its Graphviz text, or the reason it has
// none.
py::list reconverging_cfgs(const std::string& ptx, const std::string& source_name) {
  Program program = finalize(parse_ptx(ptx, source_name));
  py::list out;
  for (uint32_t fi = 0; fi < program.module.functions.size(); ++fi) {
    py::dict f;
    f["function"] = program.module.functions[fi].name;
    if (program.cfgs[fi].blocks.empty()) continue;
    try {
      const FunctionReconvergence r = reconverge_function(program, fi);
      const ReconvergingCfg& c = r.cfg;
      py::list blocks;
      for (uint32_t b = 0; b < c.blocks.size(); ++b) {
        const ReconvergingCfg::Block& blk = c.blocks[b];
        py::dict d;
        d["name"] = blk.name;
        d["pc"] = !blk.flow && r.begin[b] != kExitPc ? py::object(py::int_(r.begin[b]))
                                                     : py::object(py::none());
        py::list succ, routes;
        for (uint32_t t : blk.succ) succ.append(c.blocks[t].name);
        for (const ReconvergingCfg::Route& rt : blk.routes)
          routes.append(py::make_tuple(c.blocks[rt.from].name, c.blocks[rt.intent].name,
                                       c.blocks[rt.to].name));
        d["successors"] = succ;
        d["divergent"] = blk.divergent;
        d["flow"] = blk.flow;
        d["routes"] = routes;
        blocks.append(d);
      }
      f["blocks"] = blocks;
      f["dot"] = reconverging_dot(program, r);
      f["error"] = py::none();
    } catch (const CfgError& e) {
      f["blocks"] = py::list();
      f["dot"] = "";
      f["error"] = std::string(e.what());
    }
    out.append(f);
  }
  return out;
}

// args: ("buffer", name, bytes) for a new buffer, ("same_buffer", name, index)
// for one passed before (one device pointer for both parameters),
// ("image", name, bytes or buffer index, descriptor dict) for a texture or
// surface object, or ("scalar", ptx_type_name, bits).
LaunchSpec make_launch(const py::tuple& grid, const py::tuple& block, uint32_t shared_bytes,
                       const py::list& args) {
  LaunchSpec launch;
  launch.grid = to_dim3(grid);
  launch.block = to_dim3(block);
  launch.shared_bytes = shared_bytes;
  for (const py::handle& item : args) {
    py::tuple a = item.cast<py::tuple>();
    std::string kind = a[0].cast<std::string>();
    if (kind == "buffer") {
      std::string bytes = a[2].cast<std::string>();
      launch.buffers.push_back(HostBuffer{a[1].cast<std::string>(), {bytes.begin(), bytes.end()}});
      launch.args.push_back(
          KernelArg::buffer_arg(static_cast<uint32_t>(launch.buffers.size() - 1)));
    } else if (kind == "same_buffer") {
      uint32_t index = a[2].cast<uint32_t>();
      if (index >= launch.buffers.size())
        throw std::invalid_argument("same_buffer: no buffer " + std::to_string(index));
      launch.args.push_back(KernelArg::buffer_arg(index));
    } else if (kind == "scalar") {
      launch.args.push_back(
          KernelArg::scalar(type_from_name(a[1].cast<std::string>()), a[2].cast<uint64_t>()));
    } else if (kind == "image") {
      // ("image", name, bytes or buffer index, descriptor dict)
      uint32_t index = 0;
      if (py::isinstance<py::bytes>(a[2])) {
        std::string bytes = a[2].cast<std::string>();
        launch.buffers.push_back(
            HostBuffer{a[1].cast<std::string>(), {bytes.begin(), bytes.end()}});
        index = static_cast<uint32_t>(launch.buffers.size() - 1);
      } else {
        index = a[2].cast<uint32_t>();
        if (index >= launch.buffers.size())
          throw std::invalid_argument("image: no buffer " + std::to_string(index));
      }
      launch.images.push_back(LaunchImage{image_desc_from_dict(a[3].cast<py::dict>()), index});
      launch.args.push_back(KernelArg::image_arg(static_cast<uint32_t>(launch.images.size() - 1)));
    } else {
      throw std::invalid_argument(
          "argument kind must be 'buffer', 'same_buffer', 'image' or 'scalar', got '" + kind + "'");
    }
  }
  return launch;
}

}  // namespace

py::dict run_launch(const Program& program, const std::string& entry, LaunchSpec& launch,
                    const PlatformConfig& config, bool trace, const std::string& mode,
                    const std::string& timeline_path, const std::string& vcd_path,
                    bool compactability) {
  if (mode != "functional" && mode != "timing")
    throw std::invalid_argument("mode must be 'functional' or 'timing', got '" + mode + "'");
  if (compactability && mode != "functional")
    throw std::invalid_argument(
        "compactability: the analysis runs in the functional executor: use mode='functional'");
  if (mode != "timing" && (!timeline_path.empty() || !vcd_path.empty()))
    throw std::invalid_argument(
        "timeline and vcd files come from the timing model: use mode='timing'");
  TimingOptions options;
  options.timeline_path = timeline_path;
  options.vcd_path = vcd_path;
  TraceBuffer records;
  RunStats stats;
  CompactionAnalysis analysis;
  py::dict out;
  out["fault"] = py::none();
  auto t0 = std::chrono::steady_clock::now();
  nlohmann::json timing;
  try {
    py::gil_scoped_release release;
    if (mode == "timing")
      timing =
          run_timing(program, entry, launch, config, &stats, trace ? &records : nullptr, options);
    else
      stats = run_functional(program, entry, launch, config.exec_config(),
                             trace ? &records : nullptr, compactability ? &analysis : nullptr);
  } catch (const KernelFault& f) {
    out["fault"] = fault_dict(f);
  }
  out["wall_seconds"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Timing runs add the GPU's statistics (cycles, IPC, stalls, caches...).
  out["stats"] = to_python(all_statistics(stats, std::move(timing)));
  py::list buffers;
  for (const HostBuffer& b : launch.buffers)
    buffers.append(py::bytes(reinterpret_cast<const char*>(b.bytes.data()), b.bytes.size()));
  out["buffers"] = buffers;
  out["output"] = launch.output;
  out["trace"] = trace ? py::object(trace_columns(records.records)) : py::none();
  if (trace) add_code_columns(out, program.module);
  if (compactability) out["compactability"] = compactability_dict(analysis);
  return out;
}

void add_code_columns(py::dict& out, const Module& module) {
  py::list lines, texts;
  for (const Instruction& in : module.code) {
    lines.append(in.loc.line);
    texts.append(in.text);
  }
  out["code_lines"] = lines;
  out["code_texts"] = texts;
}

void describe_run(py::dict& out, const std::string& ptx_fnv1a64, const std::string& source_name,
                  const std::string& entry, const LaunchSpec& launch) {
  py::dict kernel;
  kernel["name"] = entry;
  kernel["source"] = source_name;
  kernel["ptx_fnv1a64"] = ptx_fnv1a64;
  out["kernel"] = kernel;
  py::dict geometry;
  geometry["grid"] = py::make_tuple(launch.grid.x, launch.grid.y, launch.grid.z);
  geometry["block"] = py::make_tuple(launch.block.x, launch.block.y, launch.block.z);
  geometry["shared_bytes"] = launch.shared_bytes;
  geometry["cooperative"] = launch.cooperative;
  out["launch"] = geometry;
}

void bind_run(py::module_& m) {
  m.def("analyze", &analyze, py::arg("ptx"), py::arg("source_name") = "<string>",
        "Parse and finalize a PTX module: its kernels with parameters, device functions, and "
        "the finalizer's facts per branch. Raises PtxError.");
  m.def("reconverging_cfgs", &reconverging_cfgs, py::arg("ptx"),
        py::arg("source_name") = "<string>",
        "Each function's reconverging CFG (compiler-side reconvergence): blocks, successors, "
        "flow blocks and their routes, Graphviz text; or the reason it has none.");
  m.def("read_ptx_file", &read_ptx_file, py::arg("path"),
        "The text of a PTX file; PtxError for a missing, unreadable or empty file or a "
        "directory, as the C++ CLI reports it.");
  m.def(
      "run_kernel",
      [](const std::string& ptx, const std::string& source_name, const std::string& entry,
         const std::string& config_json, const py::tuple& grid, const py::tuple& block,
         uint32_t shared_bytes, const py::list& args, bool trace, const std::string& mode,
         const std::string& timeline_path, const std::string& vcd_path, bool compactability,
         bool cooperative) {
        PlatformConfig config = config_from_text(config_json);
        Program program = prepare_program(parse_ptx(ptx, source_name), config.reconvergence);
        LaunchSpec launch = make_launch(grid, block, shared_bytes, args);
        launch.cooperative = cooperative;
        py::dict out = run_launch(program, entry, launch, config, trace, mode, timeline_path,
                                  vcd_path, compactability);
        describe_run(out, cli::fnv1a64(ptx), source_name, entry, launch);
        return out;
      },
      py::arg("ptx"), py::arg("source_name"), py::arg("entry"), py::arg("config_json"),
      py::arg("grid"), py::arg("block"), py::arg("shared_bytes"), py::arg("args"),
      py::arg("trace") = false, py::arg("mode") = "functional", py::arg("timeline_path") = "",
      py::arg("vcd_path") = "", py::arg("compactability") = false, py::arg("cooperative") = false,
      "One launch, functional or timing (mode); with compactability, also the compactability "
      "analysis (functional mode); cooperative: a cooperative launch (every CTA resident, "
      "grid.sync()). Timing runs elaborate SystemC, which works once "
      "per process: call them in a fresh child (the package does). Returns {stats, buffers, trace, "
      "fault, wall_seconds}; a kernel "
      "fault is returned in 'fault', a bad launch raises ValueError.");
}

}  // namespace warptlm::python
