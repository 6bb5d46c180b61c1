// _core.Session: a LaunchSession (exec/launch_session.h) for Python. The
// package runs it in a process of its own (warptlm.session); every method
// takes and returns plain values, so requests and answers pickle.
#include <algorithm>
#include <chrono>
#include <memory>

#include "cli_text.h"
#include "core.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_session.h"
#include "image_dict.h"

namespace warptlm::python {
namespace {

class Session {
 public:
  Session(const std::string& config_json, const std::string& mode)
      : config_(config_from_text(config_json)),
        mode_(mode),
        session_(make_launch_session(config_, mode)) {}

  // Parses and loads a PTX module; its handle. (The package loads each
  // module once per session and reuses the handle.)
  uint32_t load(const std::string& ptx, const std::string& source_name) {
    const uint32_t handle =
        session_->load(prepare_program(parse_ptx(ptx, source_name), config_.reconvergence));
    hashes_.resize(std::max<size_t>(hashes_.size(), handle));
    hashes_[handle - 1] = cli::fnv1a64(ptx);  // for the run records, once per module
    return handle;
  }

  uint64_t upload(const py::bytes& data, const std::string& name) {
    const std::string bytes = data;
    const uint64_t address = session_->allocate(bytes.size(), name);
    session_->write(address, bytes.data(), bytes.size());
    return address;
  }
  void write(uint64_t address, const py::bytes& data) {
    const std::string bytes = data;
    session_->write(address, bytes.data(), bytes.size());
  }
  py::bytes read(uint64_t address, uint64_t size) const {
    std::string bytes(size, '\0');
    session_->read(address, bytes.data(), size);
    return py::bytes(bytes);
  }
  void release(uint64_t address) { session_->release(address); }

  // args: ("buffer", name, device address), ("same_buffer", name, index),
  // ("scalar", ptx_type_name, bits), ("image", name, ("device", address) or
  // buffer index, descriptor dict).
  py::dict launch(uint32_t handle, const std::string& entry, const py::tuple& grid,
                  const py::tuple& block, uint32_t shared_bytes, const py::list& args,
                  bool cooperative, bool trace) {
    const Program& program = session_->program(handle);
    LaunchSpec spec;
    spec.grid = to_dim3(grid);
    spec.block = to_dim3(block);
    spec.shared_bytes = shared_bytes;
    spec.cooperative = cooperative;
    std::vector<uint64_t> addresses;
    auto add_buffer = [&](const std::string& name, uint64_t address) {
      spec.buffers.push_back(HostBuffer{name, {}});
      addresses.push_back(address);
      return static_cast<uint32_t>(addresses.size() - 1);
    };
    for (const py::handle& item : args) {
      const py::tuple a = item.cast<py::tuple>();
      const std::string kind = a[0].cast<std::string>();
      if (kind == "buffer") {
        spec.args.push_back(
            KernelArg::buffer_arg(add_buffer(a[1].cast<std::string>(), a[2].cast<uint64_t>())));
      } else if (kind == "same_buffer" || kind == "image") {
        uint32_t index = 0;
        if (kind == "image" && py::isinstance<py::tuple>(a[2]))
          index = add_buffer(a[1].cast<std::string>(), a[2].cast<py::tuple>()[1].cast<uint64_t>());
        else
          index = a[2].cast<uint32_t>();
        if (index >= addresses.size())
          throw std::invalid_argument(kind + ": no buffer " + std::to_string(index));
        if (kind == "same_buffer") {
          spec.args.push_back(KernelArg::buffer_arg(index));
        } else {
          spec.images.push_back(LaunchImage{image_desc_from_dict(a[3].cast<py::dict>()), index});
          spec.args.push_back(KernelArg::image_arg(static_cast<uint32_t>(spec.images.size() - 1)));
        }
      } else if (kind == "scalar") {
        spec.args.push_back(
            KernelArg::scalar(type_from_name(a[1].cast<std::string>()), a[2].cast<uint64_t>()));
      } else {
        throw std::invalid_argument(
            "argument kind must be 'buffer', 'same_buffer', 'image' or 'scalar', got '" + kind +
            "'");
      }
    }
    TraceBuffer records;
    py::dict out;
    out["fault"] = py::none();
    const auto t0 = std::chrono::steady_clock::now();
    try {
      py::gil_scoped_release release;
      session_->launch(handle, entry, spec, addresses, trace ? &records : nullptr);
    } catch (const KernelFault& f) {
      out["fault"] = fault_dict(f);
    }
    out["wall_seconds"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out["stats"] = stats();
    out["buffers"] = py::list();
    out["output"] = spec.output;
    out["trace"] = trace ? py::object(trace_columns(records.records)) : py::none();
    if (trace) add_code_columns(out, program.module);
    describe_run(out, hashes_[handle - 1], program.module.source_name,
                 resolve_kernel_name(program.module, entry), spec);
    return out;
  }

  // Over every launch so far: the functional counts, and in timing mode the
  // GPU's statistics on top.
  py::object stats() const { return to_python(session_->statistics()); }
  uint64_t launches() const { return session_->launches(); }

 private:
  PlatformConfig config_;
  std::string mode_;
  std::unique_ptr<LaunchSession> session_;
  std::vector<std::string> hashes_;  // the PTX text's fnv1a64, by handle - 1
};

}  // namespace

void bind_session(py::module_& m) {
  py::class_<Session>(m, "Session",
                      "A device that keeps programs, buffers and (in timing mode) one "
                      "elaborated GPU across launches. SystemC elaborates once per process: "
                      "one timing session per process (the package runs each in its own).")
      .def(py::init<const std::string&, const std::string&>(), py::arg("config_json"),
           py::arg("mode"))
      .def("load", &Session::load, py::arg("ptx"), py::arg("source_name"),
           "Parse and load a PTX module; returns its handle.")
      .def("upload", &Session::upload, py::arg("data"), py::arg("name"),
           "A new device allocation holding `data`; returns its address.")
      .def("write", &Session::write, py::arg("address"), py::arg("data"))
      .def("read", &Session::read, py::arg("address"), py::arg("size"))
      .def("release", &Session::release, py::arg("address"))
      .def("launch", &Session::launch, py::arg("handle"), py::arg("entry"), py::arg("grid"),
           py::arg("block"), py::arg("shared_bytes"), py::arg("args"),
           py::arg("cooperative") = false, py::arg("trace") = false,
           "One launch; returns {stats (over the session so far), output, trace, fault, "
           "wall_seconds, kernel, launch}. A kernel fault is returned in 'fault'.")
      .def("stats", &Session::stats)
      .def("launches", &Session::launches);
}

}  // namespace warptlm::python
