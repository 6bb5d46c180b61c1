// The decoded PTX program: what the parser produces and everything downstream
// (finalizer, semantics, executors, timing model) reads. Immutable once built.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace warptlm {

using Pc = uint64_t;
// PCs are byte addresses; every instruction occupies 8 bytes.
constexpr unsigned kInstrBytes = 8;
// Reconvergence at the exit of the current function (or kernel): the virtual
// exit node of the CFG.
constexpr Pc kExitPc = ~Pc(0);

struct SourceLoc {
  uint32_t line = 0;  // 1-based
  uint32_t col = 0;   // 1-based
};

enum class Type : uint8_t {
  None,
  Pred,
  B8,
  B16,
  B32,
  B64,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  BF16,  // bfloat16: the upper half of an f32 (8 exponent, 7 fraction bits)
  F32,
  F64,
  // Two halves packed in 32 bits (element 0 in bits 0-15): the operand type
  // of the .f16x2 / .bf16x2 forms of the half-precision instructions.
  F16x2,
  BF16x2,
};

// Inline: the semantics decode the types of every instruction they execute.
inline unsigned type_bits(Type t) {  // Pred -> 1, None -> 0
  static constexpr uint8_t kBits[] = {0, 1,  8,  16, 32, 64, 8,  16, 32, 64,
                                      8, 16, 32, 64, 16, 16, 32, 64, 32, 32};
  static_assert(sizeof kBits == static_cast<unsigned>(Type::BF16x2) + 1, "one entry per type");
  const unsigned i = static_cast<unsigned>(t);
  return i < sizeof kBits ? kBits[i] : 0;
}
// The kinds are consecutive in Type (B*, U*, S*, F*, each by width; the
// packed pairs last). is_float is true for the scalar float types.
inline bool is_signed(Type t) { return t >= Type::S8 && t <= Type::S64; }
inline bool is_float(Type t) { return t >= Type::F16 && t <= Type::F64; }
inline bool is_packed_half(Type t) { return t == Type::F16x2 || t == Type::BF16x2; }
// The types of the half-precision instructions (docs/half-precision.md).
inline bool is_half(Type t) { return t == Type::F16 || t == Type::BF16 || is_packed_half(t); }
inline bool is_bits(Type t) { return t >= Type::B8 && t <= Type::B64; }
const char* type_name(Type t);  // "s32", "pred", ...

enum class Space : uint8_t { Generic, Global, Shared, Local, Param, Const };
const char* space_name(Space s);

enum class SpecialReg : uint8_t {
  Tid,
  Ntid,
  Ctaid,
  Nctaid,  // take a component .x/.y/.z
  Laneid,
  Warpid,
  Nwarpid,
  Smid,
  Nsmid,
  Gridid,
  Clock,
  Clock64,
  LanemaskEq,
  LanemaskLe,
  LanemaskLt,
  LanemaskGe,
  LanemaskGt,
  DynamicSmemSize,  // %dynamic_smem_size: the launch's dynamic shared bytes
  TotalSmemSize,    // %total_smem_size: static + dynamic shared bytes of the CTA
  GlobalTimer,      // %globaltimer: nanoseconds (timing: simulated time; functional: issue count)
  GlobalTimerLo,    // %globaltimer_lo / _hi: its low and high 32 bits
  GlobalTimerHi,
  WarpSize,  // the predefined identifier WARP_SZ: the configured warp size
  EnvReg,    // %envreg0..31 (the number in `comp`): the driver's per-launch values
             // (docs/cooperative-launch.md)
};
const char* special_name(SpecialReg s);

enum class Opcode : uint8_t {
  Mov,
  Add,
  Sub,
  Mul,
  Mad,
  Mul24,
  Mad24,
  Div,
  Rem,
  Abs,
  Neg,
  Min,
  Max,
  And,
  Or,
  Xor,
  Not,
  Cnot,
  Shl,
  Shr,
  Bfe,
  Bfi,
  Popc,
  Clz,
  Brev,
  Prmt,
  Setp,
  Selp,
  Set,
  Slct,
  Cvt,
  Cvta,
  Fma,
  Rcp,
  Sqrt,
  Rsqrt,
  Ex2,
  Lg2,
  Sin,
  Cos,
  Copysign,
  Tanh,  // tanh.approx
  Testp,
  Ld,
  St,
  Atom,
  Red,
  Bar,
  Membar,
  Bra,
  Call,
  Ret,
  Exit,
  Vote,
  Shfl,
  Activemask,
  Shf,
  Bfind,
  Lop3,
  Bmsk,
  Redux,
  Trap,
  Match,      // match.any / match.all (mode in `vote`)
  Elect,      // elect.sync
  Nanosleep,  // nanosleep: the warp sleeps about t ns (timing model)
  // Texture and surface objects (docs/textures.md): the handle is the device
  // address of a descriptor.
  Tex,   // tex / tex.base / tex.level / tex.grad: a filtered texture fetch
  Tld4,  // tld4.{r,g,b,a}.2d: one component of the 4 texels of a bilinear footprint
  Txq,   // txq.<query>: a texture attribute
  Suld,  // suld.b: an unformatted surface load
  Sust,  // sust.b: an unformatted surface store
  Suq,   // suq.<query>: a surface attribute
  // Tensor cores (docs/tensor-cores.md): warp-wide matrix instructions, the
  // details in Instruction::mma.
  WmmaLoad,   // wmma.load.{a,b,c}: a fragment from memory
  WmmaStore,  // wmma.store.d: a fragment to memory
  WmmaMma,    // wmma.mma: D = A x B + C on fragments
  Mma,        // mma.sync.aligned: the same with the PTX ISA's fixed fragment layouts
  Ldmatrix,   // ldmatrix.sync.aligned.m8n8: 8x8 b16 matrices from shared memory
  // Asynchronous copies and memory barriers (docs/async-copy.md).
  CpAsync,        // cp.async.{ca,cg}.shared.global: global to shared, without a register
  CpAsyncCommit,  // cp.async.commit_group: closes the thread's group of cp.async
  CpAsyncWait,    // cp.async.wait_group N / wait_all: until at most N groups are in flight
  Mbarrier,       // mbarrier.<op> and cp.async.mbarrier.arrive (the op in Instruction::mbarrier)
  // Explicit reconvergence marker inserted by the finalizer at an IPDOM (the
  // explicit paired-path-comparison scheme compares paths only here). Has no
  // effect on data; counts as a dynamic instruction.
  Reconverge,
  // The exec-mask instructions of compiler-side reconvergence (scheme
  // exec_mask, docs/reconverging-cfg.md), inserted by its lowering (never
  // parsed). Operand 0 is a re-join mask number (Imm) of the current call
  // frame, or for emask.branchz the label.
  EmaskDefer,    // [@p] emask.defer M: the executing lanes wait in mask M, leaving the exec mask
  EmaskBranchz,  // emask.branchz L: on to L when the exec mask is empty
  EmaskJoin,     // emask.join M: the lanes waiting in M join the exec mask; M empties
  Count_
};
const char* opcode_name(Opcode op);

// Rna (round to nearest, ties away from zero) exists only for cvt to .tf32.
enum class Rounding : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi, Rna };
enum class MulMode : uint8_t { None, Lo, Hi, Wide };
enum class CmpOp : uint8_t {
  None,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,  // signed/float ordered
  Lo,
  Ls,
  Hi,
  Hs,  // unsigned
  Equ,
  Neu,
  Ltu,
  Leu,
  Gtu,
  Geu,  // float unordered
  Num,
  Nan,
};
enum class BoolOp : uint8_t { None, And, Or, Xor };
enum class AtomOp : uint8_t { None, Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
enum class VoteMode : uint8_t { None, All, Any, Uni, Ballot };
enum class ShflMode : uint8_t { None, Up, Down, Bfly, Idx };
enum class TestpOp : uint8_t { None, Finite, Infinite, Number, NotANumber, Normal, Subnormal };
enum class PrmtMode : uint8_t { None, F4e, B4e, Rc8, Ecl, Ecr, Rc16 };
// bar / barrier: a plain barrier, or one that reduces a predicate over the
// threads that arrive (bar.red.popc.u32, bar.red.and.pred, bar.red.or.pred).
enum class BarrierRed : uint8_t { None, Popc, And, Or };
// Texture / surface geometry (.1d .2d .3d; the layered, cube and multisample
// geometries are refused by the parser).
enum class TexGeom : uint8_t { None, D1, D2, D3 };
// tex's level-of-detail form: plain or .base, .level (an lod operand), .grad
// (two gradient vectors). Textures have one level, so all read level 0.
enum class TexLod : uint8_t { Base, Level, Grad };
// txq / suq: the attribute asked for.
enum class TexQuery : uint8_t {
  None,
  Width,
  Height,
  Depth,
  NormalizedCoords,
  FilterMode,
  AddrMode0,
  AddrMode1,
  AddrMode2,
};
// suld / sust: what an access outside the surface does (.trap faults, .clamp
// moves it to the nearest element, .zero reads 0 / drops the store).
enum class SurfaceClamp : uint8_t { Trap, Clamp, Zero };
// mbarrier: the operation (cp.async.mbarrier.arrive is CpAsyncArrive).
enum class MbarrierOp : uint8_t {
  None,
  Init,
  Arrive,
  ArriveDrop,
  TestWait,
  TryWait,
  PendingCount,
  Inval,
  CpAsyncArrive
};
// Tensor-core instructions: which matrix a wmma.load/store fragment holds.
enum class MatrixFrag : uint8_t { None, A, B, C, D };
// The tensor-core details of wmma.*, mma and ldmatrix. Element types are IR
// types, with tf32 (which has none) as `tf32` set and the type F32.
struct MmaInfo {
  MatrixFrag frag = MatrixFrag::None;   // wmma.load / wmma.store
  uint8_t m = 0, n = 0, k = 0;          // the shape (ldmatrix: 8, 8, 0)
  bool a_row = true;                    // .row (else .col): A's, or a load/store's, layout
  bool b_row = false;                   // wmma.mma / mma: B's layout
  bool a_tf32 = false;                  // A and B are .tf32
  bool trans = false;                   // ldmatrix .trans
  uint8_t count = 1;                    // ldmatrix .x1/.x2/.x4
  Type a = Type::None, b = Type::None;  // the element types of A and B
  Type c = Type::None, d = Type::None;  // of C and D (a load's / store's element type in `a`)
};

struct Operand {
  enum class Kind : uint8_t {
    None,      // absent optional operand
    Reg,       // register `reg` (index into Function::regs)
    Imm,       // integer literal: `imm` holds it as 64-bit two's complement
    ImmF32,    // 0fXXXXXXXX: `imm` holds the 32 IEEE bits
    ImmF64,    // 0dXXXXXXXXXXXXXXXX or a decimal float literal: `imm` holds 64 IEEE bits
               // (the parser converts float literals to the operand's type: an
               // .f32 operand is always ImmF32, an .f64 one ImmF64)
    Special,   // special register `sreg` with component `comp` (0..2 = x,y,z)
    Symbol,    // the address of variable `symbol` (index into Module::symbols)
    Address,   // [base + offset]: base is register `reg` if has_reg, else
               // variable `symbol` if has_symbol, else absolute `offset`
    Vector,    // {a, b, ...}: the elements are in `elems`
    Label,     // branch target, resolved to `target`
    Function,  // callee of call: index `func` into Module::functions
    Sink,      // `_`: a destination whose value is discarded
  };
  Kind kind = Kind::None;
  bool negated = false;  // `!p` where PTX allows it (setp/set combine operand, selp etc.)
  bool has_reg = false;
  bool has_symbol = false;
  uint8_t comp = 0;
  SpecialReg sreg = SpecialReg::Tid;
  Type reg_type = Type::None;  // Reg / Address base: the register's declared type
  uint32_t reg = 0;
  uint32_t symbol = 0;
  uint32_t func = 0;
  int64_t offset = 0;
  uint64_t imm = 0;
  Pc target = 0;
  std::vector<Operand> elems;
};

// Operand layouts, destination(s) first, as written in PTX:
//   most ALU ops:       d, a [, b [, c]]
//   setp:               p, q (Kind::None when no `|q`), a, b [, c] (c only with a BoolOp)
//   set:                d, a, b [, c]
//   selp / slct:        d, a, b, c
//   cvt / cvta / mov:   d, a  (mov d may be a Vector to unpack, or a a Vector to pack)
//   cvt to .f16x2/.bf16x2: d, a, b  (a converts into the upper half, b the lower)
//   setp .f16x2/.bf16x2: p, q, a, b [, c]  (p for the lower halves, q the upper)
//   ld:                 d (Reg or Vector), Address
//   st:                 Address, a (Reg, Imm or Vector)
//   atom:               d, Address, b [, c]   (c: cas new value)
//   red:                Address, b
//   bar / barrier:      a [, b]               (barrier id, optional thread count)
//   bar.red:            d, a, b, c            (b Kind::None when absent; c the predicate,
//                                              maybe negated)
//   membar / fence:     (none)
//   bra:                Label
//   call:               Vector(rets, each Symbol), Function, Vector(args, each Symbol)
//                       (the vectors are empty when absent)
//   ret / exit:         (none)
//   vote:               d, a                  (a: predicate, maybe negated) [, membermask for .sync
//   as last]
//                       layout for vote.sync: d, a, membermask
//   shfl:               d [, p (Kind::None if absent)], a, b, c [, membermask]
//                       always stored as: d, p, a, b, c, membermask(None if not .sync)
//   activemask:         d
//   testp:              p, a
//   prmt:               d, a, b, c
//   bfe:                d, a, b, c;  bfi: d, f, a, b, c
//   mad / fma / mad24:  d, a, b, c
//   with the carry flag (add.cc, addc, sub.cc, subc, mad.cc, madc: carry_in
//   or carry_out set), the carry flag is an operand like any register, so
//   data-flow analyses see it, at fixed positions:
//     add / sub:        d, CF-out, a, b, CF-in
//     mad:              d, CF-out, a, b, c, CF-in
//   where CF-out is Kind::None without .cc and CF-in Kind::None for add/sub/
//   mad (no `c` suffix); both name the function's hidden carry register
//   (kCarryFlagReg).
//   shf:                d, a, b, c            (shift_right, shift_clamp)
//   bfind:              d, a                  (shiftamt)
//   lop3:               d, a, b, c, immLut    (immLut an Imm 0..255)
//   bmsk:               d, a, b               (shift_clamp)
//   redux:              d, a, membermask      (reduction in `atom`)
//   match:              d, p, a, membermask   (p Kind::None unless match.all's d|p)
//   elect:              d, p, membermask      (d may be the sink `_`)
//   nanosleep:          t
//   tex:                d, p, a, c, lod|dPdx, dPdy, e
//                       (d a Vector of 4, or of 2 with v2; p Kind::None unless d|p; a the
//                       handle; c the coordinates, a Vector (or a Reg for 1d); lod for
//                       .level, dPdx and dPdy for .grad, else Kind::None; e the texel
//                       offset Vector or Kind::None)
//   tld4:               d, p, a, c, None, None, e  (the component in tex_component)
//   txq / suq:          d, a                  (the attribute in tex_query)
//   suld:               d, a, b               (b the coordinates, as tex's c)
//   sust:               a, b, c               (c the value: Reg or Vector)
//   trap:               (none)
//   wmma.load:          d, Address, stride  (d a Vector; stride Kind::None when absent)
//   wmma.store:         Address, a, stride  (a a Vector)
//   wmma.mma / mma:     d, a, b, c          (each a Vector)
//   ldmatrix:           d, Address          (d a Vector of 1, 2 or 4)
//   cp.async:           Address (shared), Address (global), cp-size, src-size
//                       (src-size Kind::None when absent; both Imm or src-size a Reg)
//   cp.async.wait_group: N (Imm; wait_all is N = 0); commit_group: (none)
//   mbarrier.init:      Address, count
//   mbarrier.arrive / arrive_drop: d (a token, or Sink), Address [, count]
//   mbarrier.test_wait / try_wait: p, Address, token (or phase parity with .parity)
//   mbarrier.pending_count: d, token;   mbarrier.inval: Address
//   cp.async.mbarrier.arrive: Address
//   call through a register: Vector(rets), Reg (the function's address), Vector(args)
struct Instruction {
  Opcode op = Opcode::Mov;
  Type type = Type::None;        // the (last) type suffix; cvt: destination type
  Type src_type = Type::None;    // cvt / set / slct: source type; otherwise None
  Space space = Space::Generic;  // ld/st/atom/red/cvta
  bool cvta_to = false;          // cvta.to.<space>
  uint8_t vec = 1;               // .v2 / .v4
  Rounding rnd = Rounding::None;
  MulMode mul = MulMode::None;     // mul/mad: .lo/.hi/.wide
  CmpOp cmp = CmpOp::None;         // setp/set
  BoolOp boolop = BoolOp::None;    // setp/set: .and/.or/.xor
  AtomOp atom = AtomOp::None;      // atom/red; redux: the reduction (Add/Min/Max/And/Or/Xor)
  VoteMode vote = VoteMode::None;  // vote; match: Any or All
  ShflMode shfl = ShflMode::None;
  TestpOp testp = TestpOp::None;
  PrmtMode prmt = PrmtMode::None;
  BarrierRed barrier_red = BarrierRed::None;        // bar.red / barrier.red
  TexGeom geom = TexGeom::None;                     // tex tld4 suld sust
  TexLod tex_lod = TexLod::Base;                    // tex
  TexQuery tex_query = TexQuery::None;              // txq suq
  SurfaceClamp surface_clamp = SurfaceClamp::Trap;  // suld sust
  uint8_t tex_component = 0;                        // tld4: 0..3 = r, g, b, a
  MmaInfo mma;                                      // wmma.* mma ldmatrix
  MbarrierOp mbarrier = MbarrierOp::None;           // mbarrier
  bool sat = false, ftz = false, approx = false, full = false;
  bool nan = false;          // min/max .NaN: a NaN input gives the canonical NaN
  bool xorsign_abs = false;  // min/max .xorsign.abs (half types)
  bool relu = false;         // fma / cvt .relu: a negative result becomes +0
  bool satfinite = false;    // cvt .satfinite: out of range goes to the largest finite value
  bool tf32 = false;         // cvt .tf32.f32: the destination is a tf32 held in a .b32
  bool abs = false;          // redux .abs (f32): the reduction of the magnitudes
  bool parity = false;       // mbarrier test_wait/try_wait .parity: b is a phase parity
  bool no_complete = false;  // mbarrier.arrive .noComplete / cp.async.mbarrier.arrive .noinc
  bool uni = false;          // bra.uni / call.uni
  bool is_volatile = false;
  bool sync = false;         // vote.sync / shfl.sync / barrier.sync / bar.sync
  bool aligned = false;      // barrier.sync.aligned
  bool shift_clamp = false;  // shf.clamp / bmsk.clamp (otherwise .wrap)
  bool shift_right = false;  // shf.r (otherwise shf.l)
  bool shiftamt = false;     // bfind.shiftamt
  bool carry_in = false;     // addc / subc / madc: reads the carry flag
  bool carry_out = false;    // .cc: writes the carry flag
  bool has_guard = false;
  bool guard_negated = false;  // @!p
  // Written by the exec-mask lowering (models/reconverge/exec_mask_lowering.h),
  // not copied from the source: what the run statistics count as mask
  // instructions.
  bool lowered = false;
  uint32_t guard_reg = 0;
  std::vector<Operand> ops;
  Pc pc = 0;
  uint32_t function = 0;  // index of the enclosing function in Module::functions
  SourceLoc loc;
  std::string text;  // the source text of the instruction, for traces and errors
};

// Warp-collective instructions: a lane's result depends on other lanes'
// registers (or, for the tensor-core ones, the warp executes them as one),
// so they need the whole static warp together.
inline bool is_warp_collective(Opcode op) {
  switch (op) {
    case Opcode::Vote:
    case Opcode::Shfl:
    case Opcode::Activemask:
    case Opcode::Redux:
    case Opcode::Match:
    case Opcode::Elect:
    case Opcode::WmmaLoad:
    case Opcode::WmmaStore:
    case Opcode::WmmaMma:
    case Opcode::Mma:
    case Opcode::Ldmatrix:
      return true;
    default:
      return false;
  }
}

// A function's address as a value (`mov.u64 %rd, f;`, a function name in a
// .global initialiser): opaque numbers far from any data address, so a load
// through one faults and a call through anything else is refused.
constexpr uint64_t kFunctionAddressBase = 0xfc00000000000000ull;
inline uint64_t function_address(uint32_t function) {
  return kFunctionAddressBase + uint64_t(function) * 16;
}

// How many of in.ops, from the first, are destinations (some may be
// Kind::None: setp's q, shfl's p, ...). Never more than in.ops.size().
size_t destination_count(const Instruction& in);

// The name of the hidden register that holds a function's carry flag (PTX's
// CC.CF): a per-lane predicate the parser declares on the first carry
// instruction. It cannot clash with a PTX name ('.' is not allowed in
// identifiers) and is not in scope, so only carry instructions reach it.
// Like any register it belongs to the current call frame: PTX does not
// preserve CC across calls.
inline constexpr char kCarryFlagReg[] = "%cc.cf";

struct RegDecl {
  std::string name;  // "%r12", "%SP"
  Type type = Type::None;
};

struct Symbol {
  std::string name;
  Space space = Space::Global;
  Type type = Type::B8;  // element type
  uint64_t size = 0;     // bytes (0 for an unsized .extern .shared array)
  uint32_t align = 1;
  std::vector<uint8_t> init;  // initial bytes (little endian), may be shorter than size
  int32_t function = -1;      // enclosing function, -1 at module scope
  bool is_extern = false;     // .extern .shared (dynamic shared memory)
  // Offset of the variable within its space, assigned by the parser:
  //   Global/Const: within the module's global/const data segment
  //   Shared: within the CTA's static shared memory (extern: at shared_static_size)
  //   Local: within the enclosing function's local frame
  //   Param (kernel parameter): within the kernel's parameter buffer
  //   Param (function formal, return value, or call-site .param in a body):
  //          within the enclosing function's per-thread parameter frame
  uint64_t offset = 0;
  SourceLoc loc;
};

// Functions the CUDA runtime provides to kernels, declared .extern in the
// PTX and never defined there: the executor carries them out at the call
// (docs/printf.md).
enum class SystemFunction : uint8_t {
  None,
  Vprintf,     // vprintf(format, argument buffer): printf
  AssertFail,  // __assertfail(message, file, line, function, char size): a failed assert
};

struct Function {
  std::string name;
  bool is_entry = false;                         // .entry (kernel) vs .func
  SystemFunction system = SystemFunction::None;  // a runtime function: no body, begin == end
  std::vector<uint32_t> params;                  // symbols, in declaration order
  std::vector<uint32_t> rets;                    // .func return-value symbols
  std::vector<RegDecl> regs;
  Pc begin = 0, end = 0;  // [begin, end) in Module::code
  std::unordered_map<std::string, Pc> labels;
  uint64_t local_size = 0;         // bytes of .local variables (frame)
  uint64_t param_frame_size = 0;   // per-thread .param frame (funcs and call sites)
  uint64_t param_buffer_size = 0;  // kernels: bytes of the parameter buffer
  SourceLoc loc;
};

struct Module {
  std::string source_name;  // file path, or "<string>"
  std::string version;      // ".version 7.0" -> "7.0"
  std::string target;       // "sm_70"
  unsigned address_size = 64;
  std::vector<Function> functions;
  std::vector<Symbol> symbols;
  std::vector<Instruction> code;  // code[pc / kInstrBytes]
  uint64_t global_data_size = 0;  // bytes of module .global variables
  uint64_t const_data_size = 0;   // bytes of module .const variables
  uint64_t shared_static_size = 0;
  // Flow blocks the exec-mask lowering inserted (0 for any other module).
  uint64_t flow_blocks = 0;
  // Functions whose address is a value (mov of a function name, a function
  // name in a .global initialiser): the callees an indirect call may reach.
  // Function indices, sorted and each once: an indirect call's target is
  // looked up by binary search.
  std::vector<uint32_t> address_taken;

  const Function* find_function(const std::string& name) const;  // nullptr if absent
  const Instruction& at(Pc pc) const { return code[pc / kInstrBytes]; }
  const Function& function_at(Pc pc) const { return functions[at(pc).function]; }
};

}  // namespace warptlm
