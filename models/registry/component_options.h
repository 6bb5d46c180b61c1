// Options of a registered component: a component declares its integer
// options when it is registered (name, range, default, description), the
// configuration offers each as the field "<component>.<option>"
// (mp_ipdom.st_entries, capri.entries), and the factory reads the values the
// configuration set through ComponentOptions. Scheme-specific settings thus
// live with their scheme, not in the shared interfaces, and a plug-in's
// options are configured, validated, listed and swept like the built-ins'.
// Header-only: plug-ins read their options with it.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace warptlm {

// One integer option. Its configuration field is "<component>.<name>".
struct OptionInfo {
  std::string name;  // lower-case letters, digits and '_'
  int64_t min = 0, max = 0;
  int64_t default_value = 0;
  bool power_of_two = false;  // the value must also be a power of two
  std::string doc;            // one line: what it sets, and what 0 means if special
};

// A component's declared options, as its registry reports them.
struct DeclaredOptions {
  std::string selector;   // the field that selects the component: "reconvergence"
  std::string component;  // "mp_ipdom"
  std::vector<OptionInfo> options;
};

// Option values by configuration field ("mp_ipdom.st_entries"); an option
// not present has its default.
using OptionValues = std::map<std::string, int64_t>;

inline bool option_in_range(const OptionInfo& o, int64_t v) {
  return v >= o.min && v <= o.max && (!o.power_of_two || (v > 0 && (v & (v - 1)) == 0));
}

// "an integer in [1, 65536], a power of two", as the configuration says it.
inline std::string describe_option_range(const OptionInfo& o) {
  return "an integer in [" + std::to_string(o.min) + ", " + std::to_string(o.max) + "]" +
         (o.power_of_two ? ", a power of two" : "");
}

// std::invalid_argument naming `field` when `v` is out of option `o`'s range.
inline void check_option_value(const std::string& field, const OptionInfo& o, int64_t v) {
  if (!option_in_range(o, v))
    throw std::invalid_argument(field + ": must be " + describe_option_range(o) + ", got " +
                                std::to_string(v));
}

// Checks what a component declares at registration: std::invalid_argument
// naming the component and the option.
inline void check_option_infos(const std::string& component, const std::vector<OptionInfo>& infos) {
  for (size_t i = 0; i < infos.size(); ++i) {
    const OptionInfo& o = infos[i];
    bool name_ok = !o.name.empty();
    for (char c : o.name)
      name_ok = name_ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
    if (!name_ok)
      throw std::invalid_argument("options: '" + component + "' declares an option named '" +
                                  o.name + "' (use lower-case letters, digits and '_')");
    for (size_t j = 0; j < i; ++j)
      if (infos[j].name == o.name)
        throw std::invalid_argument("options: '" + component + "' declares '" + o.name + "' twice");
    if (o.min > o.max || !option_in_range(o, o.default_value))
      throw std::invalid_argument("options: the default " + std::to_string(o.default_value) +
                                  " of " + component + "." + o.name + " is not " +
                                  describe_option_range(o));
  }
}

// What a component's factory reads: each declared option's value, the
// configured one or the default.
class ComponentOptions {
 public:
  ComponentOptions() = default;
  // The options `infos` of `component` with the values `values` gives
  // ("<component>.<option>" keys; other keys are not this component's).
  // std::invalid_argument naming the field for a value out of its range.
  ComponentOptions(std::string component, const std::vector<OptionInfo>& infos,
                   const OptionValues& values)
      : component_(std::move(component)) {
    for (const OptionInfo& o : infos) {
      const std::string field = component_ + "." + o.name;
      const auto it = values.find(field);
      const int64_t v = it == values.end() ? o.default_value : it->second;
      check_option_value(field, o, v);
      values_.emplace_back(o.name, v);
    }
  }

  // The component these options belong to ("" for none).
  const std::string& component() const { return component_; }
  // The value of option `name`; std::logic_error when the component did not
  // declare it (a defect of the component, not of the configuration).
  int64_t get(const std::string& name) const {
    for (const auto& [n, v] : values_)
      if (n == name) return v;
    throw std::logic_error("'" + component_ + "' reads option '" + name +
                           "', which it did not declare when it was registered");
  }
  unsigned get_unsigned(const std::string& name) const { return static_cast<unsigned>(get(name)); }

 private:
  std::string component_;
  std::vector<std::pair<std::string, int64_t>> values_;
};

}  // namespace warptlm
