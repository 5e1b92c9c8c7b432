// Registry<Kind>: the registered kinds of one axis (task, attention, location policy, core, glimpse
// network, baseline, reward, optimizer, schedule, agent), in registration order.
//
// A kind is a value that starts with a KindInfo: its name (the option value that selects it), a
// one-line help, the option rows it owns (listed by --help, stored in run files; each row checks its
// own range or choices), its own rules on the options of other axes, and then its facts and factory
// (each axis's Kind adds those, made from the kind's Settings: src/core/settings.h).
// Kind names are compared in exactly one place: Registry::Get. Each axis has one function that lists
// its kinds, one registration line each (docs/architecture.md, "How to add a kind").
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "src/core/error.h"
#include "src/core/settings.h"

namespace glimpse {

struct KindInfo {
  std::string name;                // the value of the axis's option, e.g. "draw" for --attention draw
  std::string help;                // one line, shown by --help
  std::vector<OptionRow> options;  // option rows this kind owns (listed once, under this kind)
  // Options owned by another kind that this kind reads too, by name (learned-std starts from the gaussian
  // policy's "std"), so that UnreadKindOptions counts them as read.
  std::vector<std::string> also_reads;
  // Throws Error naming the option when this kind cannot run with its settings and the shared
  // facts (a rule across axes: adam's weight decay against --lr); null: nothing to check.
  std::function<void(const Settings&, const SharedFacts&)> validate;
};

template <class Kind>
class Registry {
 public:
  // option: the option that selects a kind of this axis ("attention"), named in error messages.
  Registry(std::string option, std::vector<Kind> kinds) : option_(std::move(option)), kinds_(std::move(kinds)) {
    for (std::size_t i = 0; i < kinds_.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        Check(kinds_[i].name != kinds_[j].name, "two kinds of --", option_, " are named '", kinds_[i].name, "'");
  }

  // The kind named `name`; Error "option --X: expected a|b|c, found 'name'" otherwise.
  const Kind& Get(const std::string& name) const {
    if (const Kind* k = Find(name)) return *k;
    Fail("option --", option_, ": expected ", List(), ", found '", name, "'");
  }
  const Kind* Find(const std::string& name) const {
    for (const Kind& k : kinds_)
      if (k.name == name) return &k;
    return nullptr;
  }
  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (const Kind& k : kinds_) names.push_back(k.name);
    return names;
  }
  std::string List() const {  // "a|b|c"
    std::string s;
    for (const Kind& k : kinds_) s += (s.empty() ? "" : "|") + k.name;
    return s;
  }
  std::string Help() const {  // "a (help) | b (help)"
    std::string s;
    for (const Kind& k : kinds_) s += (s.empty() ? "" : " | ") + k.name + " (" + k.help + ")";
    return s;
  }
  const std::string& option() const { return option_; }
  const std::vector<Kind>& kinds() const { return kinds_; }
  typename std::vector<Kind>::const_iterator begin() const { return kinds_.begin(); }
  typename std::vector<Kind>::const_iterator end() const { return kinds_.end(); }

 private:
  std::string option_;
  std::vector<Kind> kinds_;
};

}  // namespace glimpse
