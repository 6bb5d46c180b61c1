#include "reconverge/reconverging_cfg.h"

#include <algorithm>
#include <unordered_set>

#include "frontend/postdom.h"

namespace warptlm {

std::string BranchGraph::block_name(uint32_t b) const {
  if (b < blocks.size() && !blocks[b].name.empty()) return blocks[b].name;
  return "block " + std::to_string(b);
}

uint32_t ReconvergingCfg::route(uint32_t at, uint32_t from, uint32_t intent) const {
  for (const Route& r : blocks.at(at).routes)
    if (r.from == from && r.intent == intent) return r.to;
  throw std::logic_error("flow block " + blocks.at(at).name + " has no route from " +
                         blocks.at(from).name + " to " + blocks.at(intent).name);
}

namespace {

std::vector<bool> reachable(const std::vector<std::vector<uint32_t>>& succ, uint32_t root) {
  std::vector<bool> seen(succ.size(), false);
  std::vector<uint32_t> stack{root};
  seen[root] = true;
  while (!stack.empty()) {
    const uint32_t b = stack.back();
    stack.pop_back();
    for (uint32_t s : succ[b])
      if (!seen[s]) {
        seen[s] = true;
        stack.push_back(s);
      }
  }
  return seen;
}

std::vector<std::vector<uint32_t>> reversed(const std::vector<std::vector<uint32_t>>& succ) {
  std::vector<std::vector<uint32_t>> pred(succ.size());
  for (uint32_t b = 0; b < succ.size(); ++b)
    for (uint32_t s : succ[b]) pred[s].push_back(b);
  return pred;
}

// Whether each reachable divergent two-way block of the graph `succ` has a
// successor that post-dominates it (`exit`: the one block without successors).
bool reconverging(const std::vector<std::vector<uint32_t>>& succ,
                  const std::vector<bool>& divergent, uint32_t entry, uint32_t exit) {
  const std::vector<int32_t> ipdom = immediate_dominators(reversed(succ), exit);
  const std::vector<bool> live = reachable(succ, entry);
  for (uint32_t b = 0; b < succ.size(); ++b) {
    if (!live[b] || !divergent[b] || succ[b].size() != 2) continue;
    const auto pdom = [&](uint32_t s) {
      return tree_dominates(ipdom, static_cast<int32_t>(s), static_cast<int32_t>(b));
    };
    if (!pdom(succ[b][0]) && !pdom(succ[b][1])) return false;
  }
  return true;
}

uint32_t the_exit(const BranchGraph& g, const std::vector<bool>& live) {
  std::vector<uint32_t> exits;
  for (uint32_t b = 0; b < g.blocks.size(); ++b)
    if (live[b] && g.blocks[b].succ.empty()) exits.push_back(b);
  if (exits.empty())
    throw CfgError("the CFG has no exit: no block reachable from " + g.block_name(g.entry) +
                   " ends without a successor");
  if (exits.size() > 1) {
    std::string names;
    for (uint32_t e : exits) names += (names.empty() ? "" : ", ") + g.block_name(e);
    throw CfgError("the CFG has " + std::to_string(exits.size()) + " exits (" + names +
                   "); the transformation needs one: join them in one exit block first");
  }
  return exits.front();
}

std::vector<std::vector<uint32_t>> successors(const BranchGraph& g) {
  std::vector<std::vector<uint32_t>> succ;
  for (const BranchGraph::Block& b : g.blocks) succ.push_back(b.succ);
  return succ;
}

}  // namespace

void check_branch_graph(const BranchGraph& g) {
  if (g.entry >= g.blocks.size())
    throw CfgError("the entry " + std::to_string(g.entry) + " is not a block (the CFG has " +
                   std::to_string(g.blocks.size()) + ")");
  for (uint32_t b = 0; b < g.blocks.size(); ++b) {
    const std::vector<uint32_t>& s = g.blocks[b].succ;
    if (s.size() > 2)
      throw CfgError(g.block_name(b) + " has " + std::to_string(s.size()) +
                     " successors; a block ends in a jump or a two-way branch");
    for (uint32_t t : s)
      if (t >= g.blocks.size())
        throw CfgError(g.block_name(b) + " branches to " + std::to_string(t) +
                       ", which is not a block");
    if (s.size() == 2 && s[0] == s[1])
      throw CfgError(g.block_name(b) + " branches to " + g.block_name(s[0]) +
                     " both ways; make it a jump");
  }
  const std::vector<std::vector<uint32_t>> succ = successors(g);
  const std::vector<bool> live = reachable(succ, g.entry);
  const uint32_t exit = the_exit(g, live);
  const std::vector<bool> reaches_exit = reachable(reversed(succ), exit);
  for (uint32_t b = 0; b < g.blocks.size(); ++b)
    if (live[b] && !reaches_exit[b])
      throw CfgError(g.block_name(b) + " cannot reach the exit" +
                     (g.block_name(exit) == "exit" ? "" : " " + g.block_name(exit)) +
                     " (an infinite loop): its lanes would never reconverge");
}

bool is_reconverging(const BranchGraph& g) {
  check_branch_graph(g);
  std::vector<bool> divergent;
  for (const BranchGraph::Block& b : g.blocks) divergent.push_back(b.divergent);
  const std::vector<std::vector<uint32_t>> succ = successors(g);
  return reconverging(succ, divergent, g.entry, the_exit(g, reachable(succ, g.entry)));
}

namespace {

std::vector<std::vector<uint32_t>> successors(const ReconvergingCfg& cfg) {
  std::vector<std::vector<uint32_t>> succ;
  for (const ReconvergingCfg::Block& b : cfg.blocks) succ.push_back(b.succ);
  return succ;
}

}  // namespace

std::vector<bool> reachable_blocks(const BranchGraph& graph) {
  return reachable(successors(graph), graph.entry);
}

std::vector<bool> reachable_blocks(const ReconvergingCfg& cfg) {
  return reachable(successors(cfg), cfg.entry);
}

std::vector<int32_t> immediate_post_dominators(const ReconvergingCfg& cfg) {
  return immediate_dominators(reversed(successors(cfg)), cfg.exit);
}

bool is_reconverging(const ReconvergingCfg& cfg) {
  std::vector<bool> divergent;
  for (const ReconvergingCfg::Block& b : cfg.blocks) divergent.push_back(b.divergent);
  return reconverging(successors(cfg), divergent, cfg.entry, cfg.exit);
}

std::vector<uint32_t> reconvergence_order(const BranchGraph& g) {
  check_branch_graph(g);
  // Reverse postorder of a depth-first search that takes successor 1 first,
  // so successor 0 comes first in the order; then the exit moves last.
  std::vector<uint32_t> post;
  std::vector<uint8_t> state(g.blocks.size(), 0);  // 0 new, 1 on the stack, 2 done
  std::vector<std::pair<uint32_t, size_t>> stack{{g.entry, 0}};
  state[g.entry] = 1;
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    const std::vector<uint32_t>& s = g.blocks[b].succ;
    if (next < s.size()) {
      const uint32_t t = s[s.size() - 1 - next++];
      if (state[t] == 0) {
        state[t] = 1;
        stack.emplace_back(t, 0);
      }
      continue;
    }
    state[b] = 2;
    post.push_back(b);
    stack.pop_back();
  }
  std::vector<uint32_t> order(post.rbegin(), post.rend());
  const auto exit = std::find_if(order.begin(), order.end(),
                                 [&](uint32_t b) { return g.blocks[b].succ.empty(); });
  std::rotate(exit, exit + 1, order.end());
  return order;
}

namespace {

// The open-tree transformation of one graph.
class OpenTree {
 public:
  OpenTree(const BranchGraph& g, const std::vector<uint32_t>& order) : g_(g) {
    out_.original_blocks = g.blocks.size();
    out_.entry = g.entry;
    out_.exit = order.back();
    out_.order = order;
    for (uint32_t b = 0; b < g.blocks.size(); ++b) {
      ReconvergingCfg::Block ob;
      ob.succ = g.blocks[b].succ;
      ob.original_succ = ob.succ;
      ob.edge_to = ob.succ;
      ob.divergent = g.blocks[b].divergent && ob.succ.size() == 2;
      ob.name = g.block_name(b);
      out_.blocks.push_back(ob);
    }
    live_ = reachable(successors(g), g.entry);
    preds_.resize(g.blocks.size());
    for (uint32_t b = 0; b < g.blocks.size(); ++b)
      if (live_[b])
        for (uint32_t s : g.blocks[b].succ) preds_[s].push_back(b);
    nodes_.resize(2 * g.blocks.size());
  }

  ReconvergingCfg run() {
    build_nodes();
    for (size_t i = 0; i < schedule_.size(); ++i) process(schedule_[i]);
    if (!root_.children.empty())
      throw std::logic_error("reconverging CFG: nodes left open after the exit");
    return std::move(out_);
  }

 private:
  static constexpr uint32_t kRoot = ~uint32_t(0) - 1;  // the open tree's root (not a node)
  static constexpr uint32_t kNone = ~uint32_t(0);

  // Node 2b stands for block b; node 2b + 1 for the branch of a divergent
  // block b whose successors both come earlier in the order (a "virtual"
  // node, processed first, so the branch's edges are forward edges).
  struct Node {
    bool visited = false, armed = false, uniform = true, flow = false, has_virtual = false;
    uint32_t parent = kNone;
    std::vector<uint32_t> children;
    unsigned open_in = 0, open_out = 0;
    uint32_t first_succ = kNone;  // a flow block: its first successor to be visited
  };
  static uint32_t main_node(uint32_t b) { return 2 * b; }
  static uint32_t block_of(uint32_t n) { return n / 2; }
  static bool is_virtual(uint32_t n) { return n % 2 == 1; }
  Node& node(uint32_t n) { return n == kRoot ? root_ : nodes_[n]; }

  std::vector<uint32_t> succ_nodes(uint32_t n) const {
    const uint32_t b = block_of(n);
    if (!is_virtual(n) && nodes_[n].has_virtual) return {n + 1};
    std::vector<uint32_t> s;
    for (uint32_t t : out_.blocks[b].succ) s.push_back(main_node(t));
    return s;
  }
  // The flow predecessors first (in creation order), then the others.
  std::vector<uint32_t> pred_nodes(uint32_t n) const {
    if (is_virtual(n)) return {n - 1};
    std::vector<uint32_t> p;
    for (int pass = 0; pass < 2; ++pass)
      for (uint32_t b : preds_[block_of(n)]) {
        const bool flow = out_.blocks[b].flow;
        if (flow != (pass == 0)) continue;
        p.push_back(nodes_[main_node(b)].has_virtual ? main_node(b) + 1 : main_node(b));
      }
    return p;
  }

  void build_nodes() {
    std::vector<size_t> position(g_.blocks.size(), kNone);
    for (size_t i = 0; i < out_.order.size(); ++i) position[out_.order[i]] = i;
    std::vector<uint32_t> virtuals, mains;
    for (size_t i = 0; i < out_.order.size(); ++i) {
      const uint32_t b = out_.order[i];
      Node& n = nodes_[main_node(b)];
      n.open_in = static_cast<unsigned>(preds_[b].size());
      n.open_out = static_cast<unsigned>(out_.blocks[b].succ.size());
      n.uniform = !out_.blocks[b].divergent;
      unsigned backward = 0;
      for (uint32_t s : out_.blocks[b].succ) backward += position[s] <= i;
      if (!n.uniform && backward == 2) {
        Node& v = nodes_[main_node(b) + 1];
        v.open_in = 1;
        v.open_out = n.open_out;
        v.uniform = false;
        n.has_virtual = true;
        n.uniform = true;
        n.open_out = 1;
        virtuals.push_back(main_node(b) + 1);
      }
      mains.push_back(main_node(b));
    }
    // Each virtual node goes in front of all that came before it.
    schedule_.assign(virtuals.rbegin(), virtuals.rend());
    schedule_.insert(schedule_.end(), mains.begin(), mains.end());
  }

  // The union of subtrees of the open tree, in a deterministic order.
  struct Subtrees {
    std::vector<uint32_t> nodes;
    std::unordered_set<uint32_t> set, roots;
  };
  void add_subtree(Subtrees& s, uint32_t root) {
    if (s.set.count(root)) return;
    s.roots.insert(root);
    std::vector<uint32_t> stack{root};
    while (!stack.empty()) {
      const uint32_t n = stack.back();
      stack.pop_back();
      s.nodes.push_back(n);
      s.set.insert(n);
      for (uint32_t c : node(n).children) {
        if (!s.set.count(c))
          stack.push_back(c);
        else
          s.roots.erase(c);
      }
    }
  }

  bool has_open_edge_elsewhere(const Subtrees& s, uint32_t target) const {
    for (uint32_t n : s.nodes)
      for (uint32_t t : succ_nodes(n))
        if (t != target && !nodes_[t].visited) return true;
    return false;
  }

  void process(uint32_t n) {
    if (!is_virtual(n)) {
      // Defuse armed predecessors: their subtrees' open edges that lead
      // elsewhere go through a flow block first.
      Subtrees armed;
      for (uint32_t p : pred_nodes(n))
        if (nodes_[p].armed) add_subtree(armed, p);
      if (has_open_edge_elsewhere(armed, n)) reroute(armed);
    }
    add_node(n);
    // Backward edges.
    Subtrees back;
    for (uint32_t s : succ_nodes(n)) {
      Node& sn = nodes_[s];
      if (!sn.visited) continue;
      add_subtree(back, s);
      Node& self = nodes_[n];
      --self.open_out;
      if (!self.open_in && !self.open_out) remove_node(n);
      --sn.open_in;
      if (!sn.open_in && !sn.open_out) remove_node(s);
    }
    if (back.roots.size() > 1) {
      reroute(back);
      return;
    }
    uint32_t first = kNone;
    for (uint32_t m : back.nodes)
      for (uint32_t t : succ_nodes(m)) {
        if (nodes_[t].visited) continue;
        if (first == kNone) {
          first = t;
        } else if (t != first) {
          reroute(back);
          return;
        }
      }
  }

  static void erase_value(std::vector<uint32_t>& v, uint32_t x) {
    auto it = std::find(v.begin(), v.end(), x);
    if (it != v.end()) v.erase(it);
  }

  void reroute(const Subtrees& s) {
    const uint32_t x = static_cast<uint32_t>(out_.blocks.size());
    ReconvergingCfg::Block xb;
    xb.flow = true;
    xb.name = "flow" + std::to_string(out_.flow_blocks());
    out_.blocks.push_back(xb);
    preds_.emplace_back();
    nodes_.resize(2 * out_.blocks.size());
    Node& xn = nodes_[main_node(x)];
    xn.flow = true;
    xn.uniform = false;
    std::vector<uint32_t> targets;  // x's successors, in the order first routed
    auto route_to = [&](uint32_t from, uint32_t intent, uint32_t t) {
      out_.blocks[x].routes.push_back({from, intent, t});
      if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
    };
    for (uint32_t n : s.nodes) {
      Node& pn = nodes_[n];
      if (!pn.open_out) continue;
      const uint32_t b = block_of(n);
      ReconvergingCfg::Block& pb = out_.blocks[b];
      ++xn.open_in;
      if (pn.flow) {
        // Its open successors (all but the first visited one) move to x.
        const uint32_t first = pn.first_succ == kNone ? kNone : block_of(pn.first_succ);
        for (ReconvergingCfg::Route& r : pb.routes)
          if (r.to != first) {
            route_to(b, r.intent, r.to);
            r.to = x;
          }
        for (uint32_t t : pb.succ)
          if (t != first) {
            if (nodes_[main_node(t)].visited)
              throw std::logic_error("reconverging CFG: a flow block's closed edge to " +
                                     out_.blocks[t].name + " is not its first");
            --nodes_[main_node(t)].open_in;
            erase_value(preds_[t], b);
            --pn.open_out;
          }
        if (pn.open_out) throw std::logic_error("reconverging CFG: open edges left on " + pb.name);
        pb.succ.clear();
        if (first != kNone) pb.succ.push_back(first);
        pb.succ.push_back(x);
        pb.divergent = pb.succ.size() == 2;
        pn.open_out = 1;
      } else {
        unsigned rerouted = 0;
        for (uint32_t& t : pb.succ) {
          if (nodes_[main_node(t)].visited) continue;
          route_to(b, t, t);  // an open edge leads to an original block
          --nodes_[main_node(t)].open_in;
          erase_value(preds_[t], b);
          for (uint32_t& e : pb.edge_to)
            if (e == t) e = x;
          t = x;
          ++rerouted;
        }
        if (rerouted != pn.open_out)
          throw std::logic_error("reconverging CFG: " + pb.name + " has open edges to " +
                                 "visited blocks");
        if (pb.succ.size() == 2 && pb.succ[0] == pb.succ[1]) {
          // Both ways lead to x: a jump; x's routes carry the condition.
          pb.succ.pop_back();
          pb.divergent = false;
        }
        pn.open_out = 1;
      }
      preds_[x].push_back(b);
    }
    for (uint32_t t : targets) {
      ++nodes_[main_node(t)].open_in;
      preds_[t].push_back(x);
      out_.blocks[x].succ.push_back(t);
      ++xn.open_out;
    }
    out_.blocks[x].divergent = out_.blocks[x].succ.size() == 2;
    add_node(main_node(x));
  }

  void add_node(uint32_t n) {
    std::vector<uint32_t> visited_preds;
    for (uint32_t p : pred_nodes(n))
      if (nodes_[p].visited) visited_preds.push_back(p);
    if (!nodes_[n].open_in && !nodes_[n].open_out)
      throw std::logic_error("reconverging CFG: " + out_.blocks[block_of(n)].name +
                             " added without open edges");
    uint32_t head = kRoot;
    if (!visited_preds.empty()) {
      // The paths from the visited predecessors up to their lowest common
      // ancestor (or the root) become one path, at whose bottom n goes.
      std::vector<uint32_t> heads = visited_preds;
      std::unordered_set<uint32_t> on_paths;
      size_t i = 0;
      bool hit_root = false;
      while (!heads.empty() && (heads.size() > 1 || hit_root)) {
        if (i >= heads.size()) i = 0;
        if (on_paths.count(heads[i])) {
          heads.erase(heads.begin() + static_cast<long>(i));
          continue;
        }
        on_paths.insert(heads[i]);
        if (node(heads[i]).parent == kRoot) {
          hit_root = true;
          heads.erase(heads.begin() + static_cast<long>(i));
          continue;
        }
        heads[i] = node(heads[i]).parent;
        ++i;
      }
      head = hit_root ? kRoot : heads.front();
      std::vector<uint32_t> branches, leaves;
      for (;;) {
        Node& h = node(head);
        for (auto it = h.children.begin(); it != h.children.end();) {
          if (on_paths.count(*it)) {
            Node& c = nodes_[*it];
            c.parent = kNone;
            (c.children.empty() ? leaves : branches).push_back(*it);
            it = h.children.erase(it);
          } else {
            ++it;
          }
        }
        uint32_t next;
        if (!branches.empty()) {
          next = branches.back();
          branches.pop_back();
        } else if (!leaves.empty()) {
          next = leaves.back();
          leaves.pop_back();
        } else {
          break;
        }
        h.children.push_back(next);
        nodes_[next].parent = head;
        head = next;
      }
    }
    node(head).children.push_back(n);
    nodes_[n].parent = head;
    for (uint32_t p : visited_preds) {
      Node& pn = nodes_[p];
      --pn.open_out;
      if (!pn.uniform) pn.armed = true;
      --nodes_[n].open_in;
      if (pn.flow && pn.first_succ == kNone) pn.first_succ = n;
      if (!pn.open_out && !pn.open_in) remove_node(p);
    }
    if (!nodes_[n].open_in && !nodes_[n].open_out) remove_node(n);
    nodes_[n].visited = true;
  }

  void remove_node(uint32_t n) {
    Node& r = nodes_[n];
    if (r.parent == kNone)
      throw std::logic_error("reconverging CFG: " + out_.blocks[block_of(n)].name +
                             " removed from the open tree twice");
    Node& parent = node(r.parent);
    for (uint32_t c : r.children) {
      nodes_[c].parent = r.parent;
      parent.children.push_back(c);
    }
    r.children.clear();
    erase_value(parent.children, n);
    r.parent = kNone;
    if (r.flow && out_.blocks[block_of(n)].succ.size() > 2)
      throw std::logic_error("reconverging CFG: " + out_.blocks[block_of(n)].name +
                             " closed with more than two successors");
  }

  const BranchGraph& g_;
  ReconvergingCfg out_;
  std::vector<bool> live_;
  std::vector<std::vector<uint32_t>> preds_;  // per output block (reachable ones)
  std::vector<Node> nodes_;
  Node root_;
  std::vector<uint32_t> schedule_;
};

}  // namespace

ReconvergingCfg make_reconverging(const BranchGraph& g, const std::vector<uint32_t>& order) {
  check_branch_graph(g);
  const std::vector<bool> live = reachable(successors(g), g.entry);
  const uint32_t exit = the_exit(g, live);
  std::vector<bool> seen(g.blocks.size(), false);
  size_t count = 0;
  for (uint32_t b : order) {
    if (b >= g.blocks.size() || !live[b] || seen[b])
      throw CfgError("order: " + std::to_string(b) +
                     (b < g.blocks.size() && seen[b] ? " appears twice"
                                                     : " is not a block reachable from the entry"));
    seen[b] = true;
    ++count;
  }
  if (count != static_cast<size_t>(std::count(live.begin(), live.end(), true)))
    throw CfgError("order: it lists " + std::to_string(count) + " of the " +
                   std::to_string(std::count(live.begin(), live.end(), true)) +
                   " blocks reachable from the entry");
  if (order.back() != exit)
    throw CfgError("order: the exit " + g.block_name(exit) + " must come last");
  if (is_reconverging(g)) {
    // Already reconverging: unchanged.
    ReconvergingCfg out;
    out.original_blocks = g.blocks.size();
    out.entry = g.entry;
    out.exit = exit;
    out.order = order;
    for (uint32_t b = 0; b < g.blocks.size(); ++b) {
      ReconvergingCfg::Block ob;
      ob.succ = ob.original_succ = ob.edge_to = g.blocks[b].succ;
      ob.divergent = g.blocks[b].divergent && ob.succ.size() == 2;
      ob.name = g.block_name(b);
      out.blocks.push_back(ob);
    }
    return out;
  }
  return OpenTree(g, order).run();
}

ReconvergingCfg make_reconverging(const BranchGraph& g) {
  return make_reconverging(g, reconvergence_order(g));
}

}  // namespace warptlm
