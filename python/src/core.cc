#include "core.h"

#include <cmath>
#include <cstring>

namespace warptlm::python {

py::object to_python(const nlohmann::json& j) {
  // What json.loads(j.dump()) gives, built directly (a timing run's 1,500
  // statistics took 1 ms through the text). nlohmann writes non-finite
  // numbers as null.
  switch (j.type()) {
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (auto it = j.begin(); it != j.end(); ++it) d[py::str(it.key())] = to_python(it.value());
      return std::move(d);
    }
    case nlohmann::json::value_t::array: {
      py::list l(j.size());
      for (size_t i = 0; i < j.size(); ++i) l[i] = to_python(j[i]);
      return std::move(l);
    }
    case nlohmann::json::value_t::string:
      return py::str(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_unsigned:
      return py::int_(j.get<uint64_t>());
    case nlohmann::json::value_t::number_integer:
      return py::int_(j.get<int64_t>());
    case nlohmann::json::value_t::number_float: {
      const double v = j.get<double>();
      return std::isfinite(v) ? py::object(py::float_(v)) : py::object(py::none());
    }
    default:
      return py::none();
  }
}

nlohmann::json from_python(const py::handle& obj) {
  return nlohmann::json::parse(py::module_::import("json").attr("dumps")(obj).cast<std::string>());
}

PlatformConfig config_from_text(const std::string& config_json) {
  nlohmann::json j = nlohmann::json::parse(config_json, nullptr, false);
  if (j.is_discarded()) throw std::invalid_argument("configuration: not valid JSON");
  return apply_overrides(PlatformConfig{}, j);
}

namespace {

template <typename T, typename F>
py::bytes column(const std::vector<TraceRecord>& records, F field) {
  std::string out(records.size() * sizeof(T), '\0');
  for (size_t i = 0; i < records.size(); ++i) {
    T v = static_cast<T>(field(records[i]));
    std::memcpy(&out[i * sizeof(T)], &v, sizeof(T));
  }
  return py::bytes(out);
}

py::object dim(const Dim3& d) { return py::make_tuple(d.x, d.y, d.z); }

}  // namespace

py::dict trace_columns(const std::vector<TraceRecord>& records) {
  py::dict d;
  d["step"] = column<uint64_t>(records, [](const TraceRecord& r) { return r.step; });
  d["sm"] = column<uint32_t>(records, [](const TraceRecord& r) { return r.sm; });
  d["warp"] = column<uint32_t>(records, [](const TraceRecord& r) { return r.warp; });
  d["split"] = column<uint32_t>(records, [](const TraceRecord& r) { return r.split; });
  d["pc"] = column<uint64_t>(records, [](const TraceRecord& r) { return r.pc; });
  d["mask"] = column<uint64_t>(records, [](const TraceRecord& r) { return r.mask; });
  return d;
}

py::dict fault_dict(const KernelFault& fault) {
  const FaultSite& s = fault.site;
  py::dict d;
  d["message"] = std::string(fault.what());
  d["kernel"] = s.kernel.empty() ? py::object(py::none()) : py::str(s.kernel);
  d["pc"] = s.pc == kExitPc ? py::object(py::none()) : py::int_(s.pc);
  d["thread"] = s.has_thread ? dim(s.tid) : py::none();
  d["cta"] = s.has_thread ? dim(s.ctaid) : py::none();
  d["warp"] = s.has_thread ? py::object(py::int_(s.warp)) : py::none();
  d["lane"] = s.has_thread ? py::object(py::int_(s.lane)) : py::none();
  d["space"] = s.has_address ? py::object(py::str(space_name(s.space))) : py::none();
  d["address"] = s.has_address ? py::object(py::int_(s.address)) : py::none();
  d["output"] = fault.output;
  return d;
}

}  // namespace warptlm::python
