// Settings: what a registered kind receives (docs/architecture.md, "Settings per kind"). A kind
// declares its own options once, each a KindOption with its type, default, range or choices and help;
// it is made from a Settings, the values of those options alone, and its rules may read SharedFacts,
// the few options of other axes that they need. No kind sees the run's whole configuration, which
// lives in src/train; src/train/make_kinds.h builds each kind's Settings from it.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace glimpse {

// A row of the option table that a kind owns (KindOption::Row), independent of any configuration.
struct OptionRow {
  std::string name;   // command-line / config-file name, e.g. "draw-sigma"
  std::string group;  // task, sensor, model, policy, optimizer, system
  std::string help;   // a number's ends with the range it must be in
  bool is_flag = false;
  std::string fallback;  // the default, as text
  // The value's canonical text (what the run file stores): parsed as the option's type and checked
  // against its range or choices; throws Error naming --name otherwise.
  std::function<std::string(const std::string&)> canonical;
};

// The values of the options one kind owns, by name, as canonical text; an option absent is at its
// default.
class Settings {
 public:
  Settings() = default;  // every option at its default
  explicit Settings(std::map<std::string, std::string> values) : values_(std::move(values)) {}
  const std::string* Find(const std::string& name) const {
    const auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }

 private:
  std::map<std::string, std::string> values_;
};

// The options of other axes that kinds' own rules read (KindInfo::validate).
struct SharedFacts {
  double lr = 1e-3;      // --lr (adam: its weight decay times lr stays below 1)
  int samples = 1;       // --samples (leave-one-out needs 2)
  double step_loss = 0;  // --step-loss (the dense reward needs the classifier after every glimpse)
  int patch = 8;         // --patch (the transformer and the pathwise retina need 2)
};

// The interval a numeric option must lie in; open ends exclude their bound. Default: any number.
struct Range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false, hi_open = false;
};
Range AtLeast(double lo);               // [lo, inf)
Range Positive();                       // (0, inf)
Range Between(double lo, double hi);    // [lo, hi]
Range AboveUpTo(double lo, double hi);  // (lo, hi]

// An option that one kind owns: declared once in the kind's file, e.g.
//   const KindOption<double> kSigma{"draw-sigma", "sensor", "initial filter std", 1.0, AtLeast(0)};
//   ... kSigma.Row() in the kind's KindInfo::options; kSigma.Get(settings) in its factory.
// T: int, double, bool or std::string (choices: the values it may take; empty: any).
template <class T>
struct KindOption {
  const char* name;
  const char* group;
  const char* help;
  T fallback;                             // the default
  Range range = {};                       // numbers only
  std::vector<std::string> choices = {};  // strings only
  T Get(const Settings& s) const;         // the value, or the default when absent
  OptionRow Row() const;
};

// Text for a value that reads back as the same value (0.1, not 0.10000000000000001).
std::string ValueText(double v);
std::string ValueText(std::int64_t v);
template <class T>
std::string NumberText(const T& v);  // T: int, std::int64_t, std::uint64_t or double
// A seed given as text, as --seed reads it (a whole number of at least 0); Error naming --option if not.
std::uint64_t ParseSeed(const std::string& option, const std::string& text);
// Typed reads of an option's text with a message naming --name on a bad value.
template <class T>
T ParseNumber(const std::string& name, const std::string& text);
bool ParseBool(const std::string& name, const std::string& text);

}  // namespace glimpse
