// Binomial option pricing (BINOM): backward induction over a recombining tree,
// one European call per CTA. With T threads the tree has T - 1 steps and T
// leaves; thread t owns node t of the current level. The leaves hold the
// payoffs max(S_t - X, 0), and each step back replaces node t by the
// discounted expectation of its two children, for the nodes that still exist:
// `t <= i` at level i. That shrinking condition is BINOM's programmatic
// divergence: the busy threads are a prefix, so the idle lanes are whole
// warps plus one warp's tail, never compactable.
//
// Only float * + - and max are used (no exp: the host passes the leaves' stock
// prices), and the PTX is built with -ffp-contract=off, so the host reference
// reproduces every value bit for bit.
#include "../common/cuda_shim.h"

// Most threads (tree leaves) per CTA; the shared array is sized for it.
#define BINOM_MAX_LEAVES 128

// Option o = ctaid: leaf stock prices leaf_price[o * T .. + T), strike
// strike[o], and the risk-neutral up / down probabilities already multiplied
// by the one-step discount factor, pu_df[o] and pd_df[o]. value[o] = the
// option's price at the root.
extern "C" __global__ void binomial_price(const float* leaf_price, const float* strike,
                                          const float* pu_df, const float* pd_df, float* value) {
  __shared__ float node[BINOM_MAX_LEAVES];
  unsigned t = tid_x(), leaves = ntid_x();
  unsigned o = ctaid_x();
  float up = pu_df[o], down = pd_df[o];
  node[t] = __builtin_fmaxf(leaf_price[o * leaves + t] - strike[o], 0.0f);
  __syncthreads();
  for (int i = (int)leaves - 2; i >= 0; --i) {
    float v = 0.0f;
    if ((int)t <= i) v = up * node[t + 1] + down * node[t];
    // Everyone has read level i + 1 before anyone writes level i.
    __syncthreads();
    if ((int)t <= i) node[t] = v;
    __syncthreads();
  }
  if (t == 0) value[o] = node[0];
}
