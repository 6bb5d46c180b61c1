// Shared helpers of the warptlm._core extension: JSON <-> Python, and the
// pieces of a run's result every binding returns the same way.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <nlohmann/json.hpp>

#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "exec/trace.h"
#include "frontend/program.h"

namespace warptlm::python {

namespace py = pybind11;

// Through the json module: the values are small (configurations, statistics).
py::object to_python(const nlohmann::json& j);
nlohmann::json from_python(const py::handle& obj);

// A full configuration from a JSON text of flat overrides on the defaults;
// throws std::invalid_argument (ValueError) naming a bad field.
PlatformConfig config_from_text(const std::string& config_json);

// {"step": bytes(u64), "sm": bytes(u32), "warp", "split" (u32), "pc", "mask"
// (u64)}: one little-endian column per record field, for numpy.frombuffer.
py::dict trace_columns(const std::vector<TraceRecord>& records);

// What each traced pc is, for a run's dict: "code_lines" (PTX source line)
// and "code_texts" (instruction text), indexed by pc.
void add_code_columns(py::dict& out, const Module& module);

// KernelFault -> {"message", "kernel", "pc", "thread", "cta", "warp", "lane",
// "space", "address"} (None where the fault has no such part).
py::dict fault_dict(const KernelFault& fault);

// Runs one launch: {"stats", "buffers" (bytes each), "trace" (trace_columns
// or None), "fault" (fault_dict or None), "wall_seconds"}, and with
// `compactability` (functional mode) "compactability" (compactability_dict).
// The GIL is released during the run.
py::dict run_launch(const Program& program, const std::string& entry, LaunchSpec& launch,
                    const PlatformConfig& config, bool trace,
                    const std::string& mode = "functional", const std::string& timeline_path = "",
                    const std::string& vcd_path = "", bool compactability = false);

// Adds what the run record needs to a run's dict: "kernel" (name, source,
// ptx_fnv1a64: cli::fnv1a64 of the PTX text) and "launch" (grid, block,
// shared_bytes).
void describe_run(py::dict& out, const std::string& ptx_fnv1a64, const std::string& source_name,
                  const std::string& entry, const LaunchSpec& launch);

// A PTX scalar type by its name ("u32"); std::invalid_argument otherwise.
Type type_from_name(const std::string& name);
// A launch geometry from a Python 3-tuple.
Dim3 to_dim3(const py::tuple& t);

void bind_config(py::module_& m);
void bind_session(py::module_& m);
void bind_run(py::module_& m);
void bind_scenarios(py::module_& m);
void bind_platforms(py::module_& m);

}  // namespace warptlm::python
