// Decoders for control flow, synchronisation and warp-level operations:
// bra, call, ret, exit, trap, bar, barrier, membar, fence, vote, shfl,
// activemask, redux, match, elect, nanosleep.
#include "frontend/parser_decoder.h"

namespace warptlm::ptx {

namespace {

void decode_bra(Decoder& d) {
  d.inst.op = Opcode::Bra;
  d.inst.uni = d.mods.take("uni");
  d.no_pipe();
  d.expect_count(1);
  d.inst.ops = {d.label(0)};
}

void decode_call(Decoder& d) {
  // The operand parser already shaped (rets), callee, (args).
  d.inst.op = Opcode::Call;
  d.inst.uni = d.mods.take("uni");
  d.inst.ops = {d.raw(0).op, d.raw(1).op, d.raw(2).op};
}

void decode_ret(Decoder& d) {
  d.inst.op = Opcode::Ret;
  d.inst.uni = d.mods.take("uni");
  d.expect_count(0);
}

void decode_exit(Decoder& d) {
  d.inst.op = Opcode::Exit;
  d.expect_count(0);
}

// bar.sync a{, b} / barrier.sync{.aligned} a{, b}: a CTA barrier with an id
// and an optional thread count. bar.sync is defined as barrier.sync.aligned.
void cta_barrier(Decoder& d, bool aligned) {
  d.inst.op = Opcode::Bar;
  d.inst.sync = true;
  d.inst.aligned = aligned;
  d.no_pipe();
  d.expect_count(1, 2);
  d.inst.ops = {d.src(0, Type::U32)};
  if (d.count() == 2) d.inst.ops.push_back(d.src(1, Type::U32));
}

// bar.red.popc.u32 d, a{, b}, {!}c and bar.red.{and,or}.pred p, a{, b}, {!}c
// (barrier.red likewise): a barrier that also reduces predicate c over the
// threads that arrive; each of them gets the result when it completes.
void cta_barrier_red(Decoder& d, bool aligned) {
  d.inst.op = Opcode::Bar;
  d.inst.sync = true;
  d.inst.aligned = aligned;
  const Modifier* m = d.mods.take_any({"popc", "and", "or"});
  if (m == nullptr) d.fail("'" + d.name() + ".red' needs an operation (.popc, .and or .or)");
  d.inst.barrier_red = m->name == "popc"  ? BarrierRed::Popc
                       : m->name == "and" ? BarrierRed::And
                                          : BarrierRed::Or;
  const Type want = d.inst.barrier_red == BarrierRed::Popc ? Type::U32 : Type::Pred;
  const Type t = d.inst.type = d.one_type(type_set({Type::U32, Type::Pred}));
  if (t != want)
    d.fail("'" + d.name() + ".red." + m->name + "' takes ." + type_name(want) + ", not ." +
           type_name(t));
  d.no_pipe();
  d.expect_count(3, 4);
  Operand count;  // Kind::None: the whole CTA
  if (d.count() == 4) count = d.src(2, Type::U32);
  d.inst.ops = {d.dst(0, t), d.src(1, Type::U32), count,
                d.src(d.count() - 1, Type::Pred, kAllowNegate)};
}

// bar.arrive a, b / barrier.arrive{.aligned} a, b: the threads count as
// arrived at barrier a (of b threads) and go on without waiting (a producer's
// side of a producer-consumer barrier). An Opcode::Bar with `sync` false;
// the count is required (PTX).
void cta_barrier_arrive(Decoder& d, bool aligned) {
  d.inst.op = Opcode::Bar;
  d.inst.sync = false;
  d.inst.aligned = aligned;
  d.no_pipe();
  if (d.count() == 1)
    d.fail("'" + d.name() + ".arrive' needs a thread count: " + d.name() + ".arrive a, b");
  d.expect_count(2);
  d.inst.ops = {d.src(0, Type::U32), d.src(1, Type::U32)};
}

void decode_bar(Decoder& d) {
  d.mods.take("cta");
  if (d.mods.take("arrive")) return cta_barrier_arrive(d, true);
  if (d.mods.take("red")) return cta_barrier_red(d, true);
  if (d.mods.take("warp")) {
    // bar.warp.sync mask: under stack-based reconvergence the lanes that
    // reach it together are already in lockstep, so all it adds is memory
    // ordering among them. It becomes a membar with no operands; the mask
    // is still checked.
    if (!d.mods.take("sync")) d.fail("'bar.warp' needs .sync");
    d.no_pipe();
    d.expect_count(1);
    d.src(0, Type::B32);
    d.inst.op = Opcode::Membar;
    return;
  }
  if (!d.mods.take("sync")) d.fail("'bar' needs .sync, .arrive or .red");
  cta_barrier(d, true);
}

void decode_barrier(Decoder& d) {
  d.mods.take("cta");
  if (d.mods.take("arrive")) return cta_barrier_arrive(d, d.mods.take("aligned"));
  if (d.mods.take("red")) return cta_barrier_red(d, d.mods.take("aligned"));
  if (!d.mods.take("sync")) d.fail("'barrier' needs .sync");
  cta_barrier(d, d.mods.take("aligned"));
}

void decode_membar(Decoder& d) {
  d.inst.op = Opcode::Membar;
  if (d.mods.take_any({"cta", "gl", "sys"}) == nullptr)
    d.fail("'membar' needs a level (.cta, .gl or .sys)");
  d.expect_count(0);
}

// fence.proxy.alias and fence.proxy.async{.global,.shared::cta}: order the
// generic proxy with the async proxy (cp.async, ...) or with aliased
// addresses. Every access here is one coherent sequentially consistent
// memory, so they order nothing more than a membar does.
void decode_fence_proxy(Decoder& d) {
  const Modifier* kind = d.mods.take_any({"alias", "async"});
  if (kind == nullptr) {
    for (const char* tm : {"tensormap::generic", "tensormap"})
      if (const Modifier* m = d.mods.take_any({tm}))
        d.fail(m->loc, "'fence.proxy." + m->name + "' (sm_90, tensor maps) is not supported");
    d.fail("'fence.proxy' needs .alias or .async");
  }
  if (kind->name == "async") {
    d.mods.take_space();
    if (const Modifier* m = d.mods.take_any({"shared::cluster"}))
      d.fail(m->loc, "'fence.proxy.async." + m->name + "': clusters are not supported");
  }
  d.expect_count(0);
}

void decode_fence(Decoder& d) {
  d.inst.op = Opcode::Membar;
  if (d.mods.take("proxy")) return decode_fence_proxy(d);
  if (const Modifier* p = d.mods.take_any({"mbarrier_init"}))
    d.fail(p->loc, "'fence." + p->name +
                       "' orders mbarrier.init for a cluster: clusters are not supported");
  d.mods.take_any({"sc", "acq_rel"});
  const Modifier* scope = d.mods.take_any({"cta", "gpu", "sys", "cluster"});
  if (scope == nullptr) d.fail("'fence' needs a scope (.cta, .gpu or .sys)");
  if (scope->name == "cluster") d.fail(scope->loc, "the .cluster scope is not supported");
  d.expect_count(0);
}

void decode_vote(Decoder& d) {
  d.inst.op = Opcode::Vote;
  d.inst.sync = d.mods.take("sync");
  const Modifier* m = d.mods.take_any({"all", "any", "uni", "ballot"});
  if (m == nullptr) d.fail("'vote' needs a mode (.all, .any, .uni or .ballot)");
  d.inst.vote = m->name == "all"   ? VoteMode::All
                : m->name == "any" ? VoteMode::Any
                : m->name == "uni" ? VoteMode::Uni
                                   : VoteMode::Ballot;
  Type want = d.inst.vote == VoteMode::Ballot ? Type::B32 : Type::Pred;
  Type t = d.inst.type = d.one_type(type_set({Type::Pred, Type::B32}));
  if (t != want)
    d.fail("'vote." + m->name + "' takes ." + type_name(want) + ", not ." + type_name(t));
  d.no_pipe();
  d.expect_count(d.inst.sync ? 3 : 2);
  d.inst.ops = {d.dst(0, t), d.src(1, Type::Pred, kAllowNegate)};
  if (d.inst.sync) d.inst.ops.push_back(d.src(2, Type::B32));
}

void decode_shfl(Decoder& d) {
  d.inst.op = Opcode::Shfl;
  d.inst.sync = d.mods.take("sync");
  const Modifier* m = d.mods.take_any({"up", "down", "bfly", "idx"});
  if (m == nullptr) d.fail("'shfl' needs a mode (.up, .down, .bfly or .idx)");
  d.inst.shfl = m->name == "up"     ? ShflMode::Up
                : m->name == "down" ? ShflMode::Down
                : m->name == "bfly" ? ShflMode::Bfly
                                    : ShflMode::Idx;
  Type t = d.inst.type = d.one_type(type_set({Type::B32}));
  size_t dsts = d.has_pipe() ? 2 : 1;
  d.expect_count(dsts + (d.inst.sync ? 4 : 3));
  Operand p;  // Kind::None without `|p`
  if (d.has_pipe()) p = d.dst(1, Type::Pred);
  Operand mask;  // Kind::None without .sync
  if (d.inst.sync) mask = d.src(dsts + 3, Type::B32);
  d.inst.ops = {
      d.dst(0, t), p, d.src(dsts, t), d.src(dsts + 1, Type::B32), d.src(dsts + 2, Type::B32), mask};
}

void decode_activemask(Decoder& d) {
  d.inst.op = Opcode::Activemask;
  Type t = d.inst.type = d.one_type(type_set({Type::B32}));
  d.no_pipe();
  d.expect_count(1);
  d.inst.ops = {d.dst(0, t, false)};
}

void decode_trap(Decoder& d) {
  d.inst.op = Opcode::Trap;
  d.expect_count(0);
}

// redux.sync.op.type d, a, membermask: .add/.min/.max on .u32/.s32,
// .and/.or/.xor on .b32 (the f32 forms of sm_100a are not supported).
void decode_redux(Decoder& d) {
  d.inst.op = Opcode::Redux;
  if (!d.mods.take("sync")) d.fail("'redux' needs .sync");
  static const struct {
    const char* name;
    AtomOp op;
  } kOps[] = {{"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max},
              {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor}};
  const Modifier* m = d.mods.take_any({"add", "min", "max", "and", "or", "xor"});
  if (m == nullptr) d.fail("'redux' needs an operation (.add, .min, .max, .and, .or or .xor)");
  for (const auto& k : kOps)
    if (m->name == k.name) d.inst.atom = k.op;
  const bool logic =
      d.inst.atom == AtomOp::And || d.inst.atom == AtomOp::Or || d.inst.atom == AtomOp::Xor;
  // .abs and .NaN come before the type; only the .f32 min/max take them.
  const Modifier* abs = d.mods.take_any({"abs"});
  const Modifier* nan = d.mods.take_any({"NaN"});
  Type t = d.inst.type = d.one_type(type_set({Type::U32, Type::S32, Type::B32, Type::F32}));
  if (t == Type::F32) {
    if (d.inst.atom != AtomOp::Min && d.inst.atom != AtomOp::Max)
      d.fail("'redux." + m->name + "' has no .f32 form: .f32 takes .min or .max");
    d.inst.abs = abs != nullptr;
    d.inst.nan = nan != nullptr;
  } else if (abs != nullptr || nan != nullptr) {
    const Modifier* which = abs != nullptr ? abs : nan;
    d.fail(which->loc, "'." + which->name + "' belongs to redux's .f32 .min and .max");
  } else if (logic != (t == Type::B32)) {
    d.fail("'redux." + m->name + "' takes " + (logic ? ".b32" : ".u32 or .s32") + ", not ." +
           type_name(t));
  }
  d.no_pipe();
  d.expect_count(3);
  d.inst.ops = {d.dst(0, t), d.src(1, t), d.src(2, Type::B32)};
}

// match.any.sync.b32/.b64 d, a, membermask; match.all.sync.b32/.b64 d{|p},
// a, membermask.
void decode_match(Decoder& d) {
  d.inst.op = Opcode::Match;
  const Modifier* m = d.mods.take_any({"any", "all"});
  if (m == nullptr) d.fail("'match' needs a mode (.any or .all)");
  d.inst.vote = m->name == "any" ? VoteMode::Any : VoteMode::All;
  if (!d.mods.take("sync")) d.fail("'match' needs .sync");
  d.inst.sync = true;
  const Type t = d.inst.type = d.one_type(type_set({Type::B32, Type::B64}));
  if (d.inst.vote == VoteMode::Any) d.no_pipe();
  const size_t dsts = d.has_pipe() ? 2 : 1;
  d.expect_count(dsts + 2);
  Operand p;  // Kind::None without `|p`
  if (d.has_pipe()) p = d.dst(1, Type::Pred);
  d.inst.ops = {d.dst(0, Type::B32), p, d.src(dsts, t), d.src(dsts + 1, Type::B32)};
}

// elect.sync d|p, membermask (d may be `_`).
void decode_elect(Decoder& d) {
  d.inst.op = Opcode::Elect;
  if (!d.mods.take("sync")) d.fail("'elect' needs .sync");
  d.inst.sync = true;
  d.inst.type = Type::B32;
  if (!d.has_pipe()) d.fail("'elect.sync' writes d|p: a lane id and a predicate");
  d.expect_count(3);
  d.inst.ops = {d.dst(0, Type::B32), d.dst(1, Type::Pred), d.src(2, Type::B32)};
}

// nanosleep.u32 t: t nanoseconds, a register or a literal.
void decode_nanosleep(Decoder& d) {
  d.inst.op = Opcode::Nanosleep;
  d.inst.type = d.one_type(type_set({Type::U32}));
  d.no_pipe();
  d.expect_count(1);
  d.inst.ops = {d.src(0, Type::U32)};
}

}  // namespace

DecodeFn find_control_decoder(const std::string& name) {
  static const struct {
    const char* name;
    DecodeFn fn;
  } kTable[] = {{"bra", decode_bra},
                {"call", decode_call},
                {"ret", decode_ret},
                {"exit", decode_exit},
                {"bar", decode_bar},
                {"barrier", decode_barrier},
                {"membar", decode_membar},
                {"fence", decode_fence},
                {"vote", decode_vote},
                {"shfl", decode_shfl},
                {"activemask", decode_activemask},
                {"trap", decode_trap},
                {"redux", decode_redux},
                {"match", decode_match},
                {"elect", decode_elect},
                {"nanosleep", decode_nanosleep}};
  for (const auto& e : kTable)
    if (name == e.name) return e.fn;
  return nullptr;
}

}  // namespace warptlm::ptx
