// warptlm._core: the pybind11 extension behind the warptlm package. It only
// converts; configuration, runs, isolation and sweeps are in the pure-Python
// package, which calls simulations from forked children (warptlm/_launcher.py).
//
// When the timing model links libsystemc (issue 5) this file must also define
// an exported dummy `extern "C" int sc_main(int, char**)`: libsystemc defines
// main() and references sc_main, which an extension module would otherwise
// leave undefined at load time.
#include <csignal>
#include <cstdlib>

#include "config/plugins.h"
#include "core.h"
#include "frontend/ptx_error.h"

namespace py = pybind11;
using namespace warptlm::python;

PYBIND11_MODULE(_core, m) {
  m.doc() = "warptlm native core: PTX front end, functional executor, scenarios, configuration";
  // A PTX syntax or semantic error: a ValueError with the compiler-style message.
  py::register_exception<warptlm::PtxError>(m, "PtxError", PyExc_ValueError);
  // The component plug-ins WARPTLM_PLUGINS names (docs/plugins.md), before
  // anything asks a registry; a bad one fails the import with its message.
  try {
    warptlm::load_plugins_from_environment();
  } catch (const std::exception& e) {
    throw py::import_error(std::string("WARPTLM_PLUGINS: ") + e.what());
  }
  m.def("load_plugin", &warptlm::load_plugin, py::arg("path"));
  m.def("loaded_plugins", &warptlm::loaded_plugins);
  bind_config(m);
  bind_run(m);
  bind_scenarios(m);
  bind_platforms(m);
  bind_session(m);
  // A real native crash, for testing that the package turns one into a Python
  // exception (the launcher calls it when WARPTLM_DEBUG_CRASH matches a run).
  m.def(
      "debug_crash",
      [](const std::string& kind) {
        if (kind == "abort") std::abort();
        if (kind == "segv") std::raise(SIGSEGV);
        throw std::invalid_argument("debug_crash: kind must be 'abort' or 'segv', got '" + kind +
                                    "'");
      },
      py::arg("kind"));
}
