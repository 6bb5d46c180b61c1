// The Gpu top: structure (children and their bindings), elaboration-time
// defaults (DRAM, irq channel), program loading and the register socket.
// The launch sequence is in gpu_launch.cc, the statistics in gpu_stats.cc.
#include "gpu/gpu.h"

#include <stdexcept>

#include "exec/prepared_program.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {

const PlatformConfig& checked(const PlatformConfig& config) {
  validate(config);  // throws std::invalid_argument naming the field
  return config;
}

InterconnectParams interconnect_params(const PlatformConfig& c, sc_core::sc_time cycle) {
  InterconnectParams p;
  p.inputs = c.num_sms;
  p.outputs = c.memory.l2.slices;
  p.line = c.memory.l2.line;
  p.latency = c.memory.interconnect_latency;
  p.cycle = cycle;
  return p;
}

}  // namespace

sc_core::sc_time core_clock_period(const PlatformConfig& config) {
  if (!(config.sm.clock_mhz > 0))
    throw std::invalid_argument("sm.clock_mhz: must be positive, got " +
                                std::to_string(config.sm.clock_mhz));
  return sc_core::sc_time(1e6 / config.sm.clock_mhz, sc_core::SC_PS);
}

Gpu::Gpu(sc_core::sc_module_name name, const PlatformConfig& config)
    : sc_module(name),
      control("control"),
      memory("memory"),
      irq("irq"),
      rst("rst"),
      config_(checked(config)),
      cycle_(core_clock_period(config_)),
      regs_(
          ControlRegisters::Hooks{[this] { return cycles(); }, [this] { doorbell(); },
                                  [this](bool) { outputs_changed_.notify(sc_core::SC_ZERO_TIME); },
                                  [this](uint32_t value) { command(value); }, [this] { reset(); }}),
      wakeups_("wakeups"),
      sm_clock_(wakeups_),
      distributor_("distributor", config_, cycle_),
      sms_("sm", config_.num_sms,
           [this](const char* n, size_t i) {
             return new StreamingMultiprocessor(n, static_cast<unsigned>(i), config_);
           }),
      interconnect_("interconnect", interconnect_params(config_, cycle_)),
      l2_("l2", config_.memory.l2.slices,
          [this](const char* n, size_t i) {
            L2Params p;
            p.cache = config_.memory.l2;
            p.cache.size = config_.memory.l2.size / config_.memory.l2.slices;
            p.index = static_cast<unsigned>(i);
            p.cycle = cycle_;
            return new L2Slice(n, p);
          }),
      port_("memory_port", config_.memory.l2.slices, config_.memory.port_protocol, cycle_,
            config_.memory.dmi),
      bound_memory_(port_, config_.coding_style == "lt"),
      irq_internal_("irq_internal"),
      rst_internal_("rst_internal"),
      irq_level_("irq_level"),
      status_signal_("status"),
      running_signal_("running") {
  control.register_b_transport(this, &Gpu::b_transport);
  control.register_transport_dbg(this, &Gpu::transport_dbg);
  for (StreamingMultiprocessor& sm : sms_) {
    distributor_.dispatch.bind(sm.dispatch);
    sm.report.bind(distributor_);
    sm.memory.bind(interconnect_.in);
  }
  for (L2Slice& slice : l2_) {
    interconnect_.out.bind(slice.in);
    slice.out.bind(port_.in);
  }
  port_.out.bind(memory);  // hierarchical: the port's traffic leaves on the GPU's socket

  // Same-time wake-ups run in this order (docs/timing-model.md, "Order within
  // a cycle"): the SM clock (rank 0, constructed first; it ticks the SMs by
  // index), the distributor (its round then runs a delta
  // cycle later, after every SM's tick), the interconnect's request senders
  // then its response senders, the L2 slices, the memory port, the DRAM.
  for (StreamingMultiprocessor& sm : sms_) sm.use_clock(sm_clock_);
  sm_clock_.set_host_threads(config_.host_threads);
  distributor_.use_wakeups(wakeups_);
  interconnect_.use_wakeups(wakeups_);
  for (L2Slice& slice : l2_) slice.use_wakeups(wakeups_);
  port_.use_wakeups(wakeups_);

  if (config_.coding_style == "lt")
    lt_ = std::make_unique<LtRunner>("lt", config_, cycle_, &bound_memory_);

  SC_HAS_PROCESS(Gpu);
  SC_METHOD(on_finished);
  sensitive << distributor_.finished_event();
  if (lt_) sensitive << lt_->finished_event();
  dont_initialize();
  SC_METHOD(drive_outputs);
  sensitive << outputs_changed_;
  dont_initialize();
  SC_METHOD(on_rst);
  sensitive << rst.pos();
  dont_initialize();
}

Gpu::~Gpu() = default;

void Gpu::before_end_of_elaboration() {
  if (memory.get_base_port().bind_count() == 0) {
    dram_ =
        std::make_unique<DramModel>("dram", config_.memory.dram, config_.memory.l2.line, store_);
    memory.bind(dram_->in);
    dram_->use_wakeups(wakeups_);  // the last rank
  }
  if (irq.bind_count() == 0) irq.bind(irq_internal_);
  if (rst.bind_count() == 0) rst.bind(rst_internal_);
}

void Gpu::on_rst() { reset(); }

void Gpu::reset() {
  ++resets_;
  const bool was_running = distributor_.running() || (lt_ && lt_->running());
  distributor_.reset();
  if (lt_) lt_->abandon();
  for (StreamingMultiprocessor& sm : sms_) sm.reset();
  faulted_ = false;
  fault_.reset();
  last_error_.clear();
  regs_.reset();
  reset_cycle_ = cycles_at(sc_core::sc_time_stamp());
  outputs_changed_.notify(sc_core::SC_ZERO_TIME);
  if (was_running) launch_finished_.notify(sc_core::SC_ZERO_TIME);
}

void Gpu::set_error(const std::string& message) {
  last_error_ = message;
  regs_.set_error_text(message);
}

void Gpu::warn(const std::string& message) const { SC_REPORT_WARNING(name(), message.c_str()); }

bool Gpu::memory_bound_outside() {
  // Before elaboration ends, dram_ is not made yet: a binding decides.
  return dram_ == nullptr && memory.get_base_port().bind_count() > 0;
}

GlobalMemory& Gpu::functional_memory() {
  if (memory_bound_outside()) return bound_memory_;
  return store_;
}

uint32_t Gpu::load_program(const Program& program, uint64_t globals_address) {
  const Module& m = program.module;
  check_program_form(program, config_.reconvergence);
  auto lp = std::make_unique<LoadedProgram>();
  lp->program = program;
  if (memory_bound_outside()) {
    if (m.global_data_size && globals_address == 0)
      throw std::invalid_argument(
          "load_program: the program has " + std::to_string(m.global_data_size) +
          " bytes of .global variables and the GPU's memory socket is bound to a platform "
          "memory: give load_program the device address where they go");
    lp->globals_base = globals_address;  // written through the port at the first launch
  } else {
    if (m.global_data_size)
      lp->globals_base = store_.allocate(m.global_data_size, "module .global variables");
    write_module_globals(m, store_, lp->globals_base);  // as run_functional's module load
    lp->globals_written = true;
  }
  lp->constants = module_constant_bank(m);
  programs_.push_back(std::move(lp));
  return static_cast<uint32_t>(programs_.size());
}

const Program* Gpu::program(uint32_t handle) const {
  return handle >= 1 && handle <= programs_.size() ? &programs_[handle - 1]->program : nullptr;
}

void Gpu::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  (void)delay;  // register accesses take no modelled time
  regs_.transport(payload);
}

unsigned Gpu::transport_dbg(tlm::tlm_generic_payload& payload) {
  return regs_.debug_transport(payload);
}

uint64_t Gpu::cycles_at(sc_core::sc_time t) const { return t.value() / cycle_.value(); }

uint64_t Gpu::cycles() const { return cycles_at(sc_core::sc_time_stamp()) - reset_cycle_; }

void Gpu::set_trace(TraceSink* trace) {
  if (lt_) lt_->set_trace(trace);
  for (StreamingMultiprocessor& sm : sms_) sm.set_trace(trace);
}

void Gpu::drive_outputs() {
  const bool level = regs_.irq();
  irq.write(level);
  irq_level_.write(level);
  status_signal_.write(static_cast<uint32_t>(regs_.status()));
  running_signal_.write(regs_.status() == GpuStatus::Running);
}

void Gpu::trace_signals(sc_core::sc_trace_file* file) const {
  sc_core::sc_trace(file, irq_level_, std::string(name()) + ".irq");
  sc_core::sc_trace(file, status_signal_, std::string(name()) + ".status");
  sc_core::sc_trace(file, running_signal_, std::string(name()) + ".running");
  for (unsigned i = 0; i < config_.num_sms; ++i)
    sc_core::sc_trace(file, distributor_.resident_signal(i),
                      std::string(name()) + ".sm" + std::to_string(i) + ".resident_ctas");
}

}  // namespace warptlm
