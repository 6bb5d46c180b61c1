// One registry design for every interchangeable component (reconvergence
// schemes, warp schedulers, lane permutations, compaction units, DRAM
// schedulers, write policies): a name, a one-line description and a factory,
// in registration order with the built-ins first.
//
// The built-ins are listed by a function the registry calls on first use
// (explicit, not static self-registration, which a static library's linker
// may drop). A user component is added with add() before the configuration
// that names it is validated; validation, the CLI's `list` and Python ask the
// registry, so the name is accepted everywhere. A name can be registered once:
// a plug-in cannot silently replace a built-in. A component may declare
// options (component_options.h), which the configuration offers as fields.
// Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "registry/component_options.h"

namespace warptlm {

// Counts registrations in every registry of this process, so that what is
// derived from them (the configuration's option fields) knows when to look
// again.
inline std::atomic<uint64_t>& registration_generation() {
  static std::atomic<uint64_t> generation{0};
  return generation;
}

// A table derived from the registries (the configuration's fields, the
// statistics), built on first use and again after any registration. Earlier
// tables are kept, so a reference handed out stays valid. Thread-safe.
template <typename Table>
class DerivedFromRegistries {
 public:
  explicit DerivedFromRegistries(Table (*build)()) : build_(build) {}
  const Table& get() {
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t generation = registration_generation().load();
    if (tables_.empty() || generation != built_at_) {
      tables_.push_back(std::make_unique<const Table>(build_()));
      built_at_ = generation;
    }
    return *tables_.back();
  }

 private:
  Table (*build_)();
  std::mutex mutex_;
  std::vector<std::unique_ptr<const Table>> tables_;
  uint64_t built_at_ = 0;
};

template <typename Factory>
class ComponentRegistry {
 public:
  struct Entry {
    Entry(std::string n, std::string d, Factory f, std::vector<OptionInfo> o = {})
        : name(std::move(n)), description(std::move(d)), factory(f), options(std::move(o)) {}
    std::string name;
    std::string description;
    Factory factory;
    std::vector<OptionInfo> options;  // its configuration fields "<name>.<option>"
  };

  // `kind` names what it holds in messages ("warp scheduler"); `field` is
  // the configuration field that chooses one ("scheduler").
  ComponentRegistry(std::string kind, std::string field, std::vector<Entry> (*builtins)())
      : kind_(std::move(kind)), field_(std::move(field)), builtins_(builtins) {}

  // std::invalid_argument for an empty name, a null factory, a name that is
  // already registered or a bad option declaration (check_option_infos).
  void add(const std::string& name, const std::string& description, Factory factory,
           const std::vector<OptionInfo>& options = {}) {
    if (name.empty()) throw std::invalid_argument("name: a " + kind_ + " needs a name");
    if (!factory)
      throw std::invalid_argument("factory: null factory for " + kind_ + " '" + name + "'");
    check_option_infos(name, options);
    std::lock_guard<std::mutex> lock(mutex_);
    load();
    for (const Entry& e : entries_)
      if (e.name == name)
        throw std::invalid_argument(kind_ + " '" + name + "' is already registered");
    entries_.push_back(Entry{name, description, factory, options});
    ++registration_generation();
  }

  std::vector<std::string> names() const {
    std::lock_guard<std::mutex> lock(mutex_);
    load();
    std::vector<std::string> out;
    out.reserve(entries_.size());
    for (const Entry& e : entries_) out.push_back(e.name);
    return out;
  }
  // (name, description) pairs, in registration order.
  std::vector<std::pair<std::string, std::string>> descriptions() const {
    std::lock_guard<std::mutex> lock(mutex_);
    load();
    std::vector<std::pair<std::string, std::string>> out;
    for (const Entry& e : entries_) out.emplace_back(e.name, e.description);
    return out;
  }
  // Every entry, in registration order.
  std::vector<Entry> entries() const {
    std::lock_guard<std::mutex> lock(mutex_);
    load();
    return entries_;
  }
  // The factory of `name`; std::invalid_argument naming the field and listing
  // the known names for an unknown one.
  Factory factory(const std::string& name) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return find(name).factory;
  }
  // The options of `name` with the values `values` sets (throws like
  // factory(), and naming the field of a value out of range).
  ComponentOptions options(const std::string& name, const OptionValues& values) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return ComponentOptions(name, find(name).options, values);
  }
  // What each entry declares, those without options left out.
  std::vector<DeclaredOptions> declared_options() const {
    std::lock_guard<std::mutex> lock(mutex_);
    load();
    std::vector<DeclaredOptions> out;
    for (const Entry& e : entries_)
      if (!e.options.empty()) out.push_back(DeclaredOptions{field_, e.name, e.options});
    return out;
  }

 private:
  // Caller holds the mutex.
  const Entry& find(const std::string& name) const {
    load();
    for (const Entry& e : entries_)
      if (e.name == name) return e;
    std::string known;
    for (const Entry& e : entries_) known += (known.empty() ? "" : ", ") + e.name;
    throw std::invalid_argument(field_ + ": unknown " + kind_ + " '" + name + "' (known: " + known +
                                ")");
  }

  // Caller holds the mutex.
  void load() const {
    if (loaded_) return;
    entries_ = builtins_();
    loaded_ = true;
  }

  std::string kind_, field_;
  std::vector<Entry> (*builtins_)();
  mutable std::mutex mutex_;
  mutable bool loaded_ = false;
  mutable std::vector<Entry> entries_;
};

}  // namespace warptlm
