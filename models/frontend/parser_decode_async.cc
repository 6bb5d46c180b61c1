// Decoders for the asynchronous copies and memory barriers of sm_80
// (docs/async-copy.md): cp.async (+ commit_group, wait_group, wait_all,
// cp.async.mbarrier.arrive) and mbarrier. The sm_90 forms that need the
// tensor memory accelerator or thread-block clusters (cp.async.bulk,
// .expect_tx, .shared::cluster) are refused by name.
#include "frontend/parser_decoder.h"

namespace warptlm::ptx {

namespace {

// .shared / .shared::cta or generic addresses; clusters are refused.
void take_shared_or_generic(Decoder& d) {
  SourceLoc sloc;
  const Space s = d.mods.take_space(&sloc);
  if (s != Space::Generic && s != Space::Shared)
    d.fail(sloc, "'" + d.name() + "' works on .shared or generic addresses");
  if (const Modifier* c = d.mods.take_any({"shared::cluster"}))
    d.fail(c->loc, "'" + d.name() + ".shared::cluster': clusters are not supported");
  d.inst.space = s;
}

// Memory-ordering qualifiers (.release, .acquire, .relaxed) and the .cta
// scope are accepted and dropped (one sequentially consistent memory); the
// .cluster scope is refused.
void take_mbarrier_ordering(Decoder& d) {
  d.mods.take_any({"release", "acquire", "relaxed"});
  d.mods.take_any({"cta"});
  if (const Modifier* c = d.mods.take_any({"cluster"}))
    d.fail(c->loc, "'" + d.name() + ".cluster': clusters are not supported");
}

void need_b64(Decoder& d) { d.one_type(type_set({Type::B64})); }

// cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]
void decode_cp_async_arrive(Decoder& d) {
  d.inst.op = Opcode::Mbarrier;
  d.inst.mbarrier = MbarrierOp::CpAsyncArrive;
  if (!d.mods.take("arrive")) d.fail("'cp.async.mbarrier' needs .arrive");
  d.inst.no_complete = d.mods.take("noinc");
  take_shared_or_generic(d);
  need_b64(d);
  d.no_pipe();
  d.expect_count(1);
  d.inst.ops = {d.address(0)};
}

// cp.async.{ca,cg}.shared{::cta}.global{.level::cache_hint}
// {.level::prefetch_size} [dst], [src], cp-size{, src-size | ignore-src}
// {, cache-policy}
void decode_cp_async_copy(Decoder& d) {
  d.inst.op = Opcode::CpAsync;
  d.inst.space = Space::Shared;  // where it writes
  const Modifier* cache = d.mods.take_any({"ca", "cg"});
  if (cache == nullptr) d.fail("'cp.async' needs a cache operator (.ca or .cg)");
  if (d.mods.take_space() != Space::Shared || d.mods.take_space() != Space::Global)
    d.fail("'cp.async' copies .shared.global: cp.async.ca.shared.global [dst], [src], size");
  d.mods.take_any({"L2::64B", "L2::128B", "L2::256B"});  // a prefetch hint
  const bool hint = d.mods.take("L2::cache_hint");
  d.no_pipe();
  const size_t last = hint ? 1 : 0;  // the cache policy operand
  d.expect_count(3, 4 + last);
  Operand dst = d.address(0), src = d.address(1);
  const RawOperand& size_op = d.raw(2);
  if (size_op.op.kind != Operand::Kind::Imm)
    d.fail(size_op.loc, "the copy size of 'cp.async' must be a literal: 4, 8 or 16");
  const uint64_t n = size_op.op.imm;
  if (cache->name == "cg" ? n != 16 : (n != 4 && n != 8 && n != 16))
    d.fail(size_op.loc, "'cp.async." + cache->name + "' copies " +
                            (cache->name == "cg" ? "16 bytes" : "4, 8 or 16 bytes") + ", not " +
                            std::to_string(n));
  d.inst.ops = {dst, src, d.src(2, Type::U32)};
  const size_t n_ops = d.count() - last;
  if (n_ops == 4) {
    // src-size (u32) or ignore-src (a predicate: true reads nothing).
    const RawOperand& r = d.raw(3);
    const bool pred = r.op.kind == Operand::Kind::Reg && r.op.reg_type == Type::Pred;
    Operand extra = d.src(3, pred ? Type::Pred : Type::U32);
    if (extra.kind == Operand::Kind::Imm && extra.imm > n)
      d.fail(r.loc, "the source size of 'cp.async' (" + std::to_string(extra.imm) +
                        ") exceeds the copy size (" + std::to_string(n) + ")");
    d.inst.ops.push_back(extra);
  } else {
    d.inst.ops.push_back(Operand{});
  }
  if (hint) d.src(d.count() - 1, Type::B64);  // the policy: checked, not modelled
}

void decode_cp(Decoder& d) {
  if (const Modifier* r = d.mods.take_any({"reduce"}))
    d.fail(r->loc, "'cp.reduce.async.bulk' (sm_90) is not supported");
  if (!d.mods.take("async")) d.fail("'cp' needs .async: cp.async.ca.shared.global ...");
  if (const Modifier* b = d.mods.take_any({"bulk"}))
    d.fail(b->loc,
           "'cp.async.bulk' (sm_90, the tensor memory accelerator) is not supported; "
           "cp.async.ca/.cg are");
  if (d.mods.take("commit_group")) {
    d.inst.op = Opcode::CpAsyncCommit;
    d.no_pipe();
    d.expect_count(0);
    return;
  }
  if (d.mods.take("wait_all")) {
    d.inst.op = Opcode::CpAsyncWait;
    d.no_pipe();
    d.expect_count(0);
    Operand zero;
    zero.kind = Operand::Kind::Imm;
    d.inst.ops = {zero};
    return;
  }
  if (d.mods.take("wait_group")) {
    d.inst.op = Opcode::CpAsyncWait;
    d.no_pipe();
    d.expect_count(1);
    if (d.raw(0).op.kind != Operand::Kind::Imm)
      d.fail(d.raw(0).loc, "the group count of 'cp.async.wait_group' must be a literal");
    d.inst.ops = {d.src(0, Type::U32)};
    return;
  }
  if (d.mods.take("mbarrier")) return decode_cp_async_arrive(d);
  decode_cp_async_copy(d);
}

// mbarrier.init / arrive / arrive_drop / test_wait / try_wait /
// pending_count / inval (docs/async-copy.md has the operand layouts).
void decode_mbarrier(Decoder& d) {
  d.inst.op = Opcode::Mbarrier;
  static const struct {
    const char* name;
    MbarrierOp op;
  } kOps[] = {{"init", MbarrierOp::Init},
              {"arrive", MbarrierOp::Arrive},
              {"arrive_drop", MbarrierOp::ArriveDrop},
              {"test_wait", MbarrierOp::TestWait},
              {"try_wait", MbarrierOp::TryWait},
              {"pending_count", MbarrierOp::PendingCount},
              {"inval", MbarrierOp::Inval}};
  for (const char* tx : {"expect_tx", "complete_tx"})
    if (const Modifier* m = d.mods.take_any({tx}))
      d.fail(m->loc, "'mbarrier." + m->name +
                         "' (sm_90, transaction counts of bulk copies) is not supported");
  const Modifier* m = d.mods.take_any(
      {"init", "arrive", "arrive_drop", "test_wait", "try_wait", "pending_count", "inval"});
  if (m == nullptr)
    d.fail(
        "'mbarrier' needs an operation (.init, .arrive, .arrive_drop, .test_wait, .try_wait, "
        ".pending_count or .inval)");
  for (const auto& k : kOps)
    if (m->name == k.name) d.inst.mbarrier = k.op;
  const MbarrierOp op = d.inst.mbarrier;
  d.no_pipe();
  if (op == MbarrierOp::PendingCount) {
    need_b64(d);
    d.expect_count(2);
    d.inst.ops = {d.dst(0, Type::U32, false), d.src(1, Type::B64, 0)};
    return;
  }
  const bool arrive = op == MbarrierOp::Arrive || op == MbarrierOp::ArriveDrop;
  const bool wait = op == MbarrierOp::TestWait || op == MbarrierOp::TryWait;
  if (arrive) d.inst.no_complete = d.mods.take("noComplete");
  if (wait) d.inst.parity = d.mods.take("parity");
  if (arrive || wait) take_mbarrier_ordering(d);
  take_shared_or_generic(d);
  need_b64(d);
  switch (op) {
    case MbarrierOp::Init:
      d.expect_count(2);
      d.inst.ops = {d.address(0), d.src(1, Type::U32)};
      return;
    case MbarrierOp::Inval:
      d.expect_count(1);
      d.inst.ops = {d.address(0)};
      return;
    case MbarrierOp::Arrive:
    case MbarrierOp::ArriveDrop:
      if (d.inst.no_complete) {
        d.expect_count(3);
      } else {
        d.expect_count(2, 3);
      }
      d.inst.ops = {d.dst(0, Type::B64), d.address(1)};
      if (d.count() == 3) d.inst.ops.push_back(d.src(2, Type::U32));
      return;
    default: {  // test_wait / try_wait p, [addr], state|parity {, suspend hint}
      d.expect_count(3, op == MbarrierOp::TryWait ? 4 : 3);
      d.inst.ops = {d.dst(0, Type::Pred, false), d.address(1),
                    d.src(2, d.inst.parity ? Type::B32 : Type::B64)};
      if (d.count() == 4) d.src(3, Type::U32);  // the suspend-time hint: checked, not modelled
      return;
    }
  }
}

}  // namespace

DecodeFn find_async_decoder(const std::string& name) {
  if (name == "cp") return decode_cp;
  if (name == "mbarrier") return decode_mbarrier;
  return nullptr;
}

}  // namespace warptlm::ptx
