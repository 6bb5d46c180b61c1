// Breadth-first search, level-synchronous frontier expansion over a CSR graph
// (BFS). Each CTA searches its own graph of `nodes` vertices from vertex 0
// with the whole level loop inside the kernel: a frontier pass, in which every
// frontier vertex visits its out-edges and marks the unvisited heads for the
// next level, and an update pass, which turns the marks into the new frontier;
// __syncthreads() separates the passes, and the loop ends when a level adds
// no vertex. Whether a vertex is on the frontier, how many edges it has, and
// whether an edge's head is already visited all come from loaded data: BFS's
// data-dependent divergence, with data-dependent loop trips over the edges.
#include "../common/cuda_shim.h"

// Most vertices per graph; the shared flag arrays are sized for it.
#define BFS_MAX_NODES 1024

// Graph g = ctaid owns vertices [g * nodes, (g + 1) * nodes) of row_start /
// cost; its edges hold heads as indices local to the graph. row_start has one
// entry per vertex plus a final one. cost[v] = BFS level of v from the graph's
// vertex 0, or -1 when v is unreachable.
extern "C" __global__ void bfs_levels(const unsigned* row_start, const unsigned* edges, int* cost,
                                      unsigned nodes) {
  __shared__ unsigned frontier[BFS_MAX_NODES];
  __shared__ unsigned next[BFS_MAX_NODES];
  __shared__ unsigned visited[BFS_MAX_NODES];
  __shared__ unsigned grew;
  unsigned t = tid_x(), threads = ntid_x();
  unsigned base = ctaid_x() * nodes;
  const unsigned* rows = row_start + base;
  int* level_of = cost + base;
  for (unsigned v = t; v < nodes; v += threads) {
    unsigned is_source = v == 0;
    frontier[v] = is_source;
    visited[v] = is_source;
    next[v] = 0;
    level_of[v] = is_source ? 0 : -1;
  }
  for (;;) {
    if (t == 0) grew = 0;
    __syncthreads();
    // Frontier pass: expand every frontier vertex along its out-edges.
    for (unsigned v = t; v < nodes; v += threads) {
      if (frontier[v]) {
        frontier[v] = 0;
        int level = level_of[v] + 1;
        for (unsigned e = rows[v]; e < rows[v + 1]; ++e) {
          unsigned head = edges[e];
          if (!visited[head]) {
            // Several frontier vertices may reach the same head: they all
            // write the same level.
            level_of[head] = level;
            next[head] = 1;
          }
        }
      }
    }
    __syncthreads();
    // Update pass: the marked vertices become the next frontier.
    for (unsigned v = t; v < nodes; v += threads) {
      if (next[v]) {
        next[v] = 0;
        frontier[v] = 1;
        visited[v] = 1;
        grew = 1;
      }
    }
    __syncthreads();
    unsigned more = grew;
    // Nobody may clear `grew` for the next level before everyone has read it.
    __syncthreads();
    if (!more) break;
  }
}
