#include "src/core/config.h"

#include <sstream>
#include <type_traits>

#include "src/core/error.h"

namespace glimpse {
namespace {

template <class T>
T ParseNumber(const std::string& name, const std::string& s) {
  // An unsigned read of "-1" succeeds in C++ streams and wraps to the largest value: refused instead.
  if constexpr (std::is_unsigned<T>::value)
    if (s.find('-') != std::string::npos)
      Fail("option --", name, ": expected a whole number of at least 0, found '", s, "'");
  std::istringstream is(s);
  T v{};
  is >> v;
  if (is.fail() || !is.eof())
    Fail("option --", name, ": expected a ", std::is_integral<T>::value ? "whole number" : "number", ", found '", s,
         "'");
  return v;
}

bool ParseBool(const std::string& name, const std::string& s) {
  if (s == "true" || s == "1" || s == "yes") return true;
  if (s == "false" || s == "0" || s == "no") return false;
  Fail("option --", name, ": expected true or false, found '", s, "'");
}

// The shortest text that reads back as the same value (0.1, not 0.10000000000000001).
template <class T>
std::string ToText(const T& v) {
  for (int precision = 6;; ++precision) {
    std::ostringstream os;
    os.precision(precision);
    os << v;
    std::istringstream is(os.str());
    T back{};
    is >> back;
    if (back == v || precision >= 17) return os.str();
  }
}

// A kind option's value in each type: parsed (and so checked) from text, and back.
template <class T>
T Parse(const std::string& name, const std::string& s) {
  if constexpr (std::is_same<T, bool>::value)
    return ParseBool(name, s);
  else if constexpr (std::is_same<T, std::string>::value)
    return s;
  else
    return ParseNumber<T>(name, s);
}
template <class T>
std::string Text(const T& v) {
  if constexpr (std::is_same<T, bool>::value)
    return v ? "true" : "false";
  else if constexpr (std::is_same<T, std::string>::value)
    return v;
  else
    return ToText(v);
}

}  // namespace

std::string ValueText(double v) { return ToText(v); }
std::string ValueText(std::int64_t v) { return ToText(v); }
std::uint64_t ParseSeed(const std::string& option, const std::string& text) {
  return ParseNumber<std::uint64_t>(option, text);
}

template <class T>
OptionSpec Num(const char* name, const char* group, const char* help, T ExperimentConfig::*f) {
  return {name,
          group,
          help,
          false,
          [f](const ExperimentConfig& c) { return ToText(c.*f); },
          [f, name](ExperimentConfig& c, const std::string& s) { c.*f = ParseNumber<T>(name, s); }};
}
template OptionSpec Num(const char*, const char*, const char*, int ExperimentConfig::*);
template OptionSpec Num(const char*, const char*, const char*, std::int64_t ExperimentConfig::*);
template OptionSpec Num(const char*, const char*, const char*, std::uint64_t ExperimentConfig::*);
template OptionSpec Num(const char*, const char*, const char*, double ExperimentConfig::*);

OptionSpec Flag(const char* name, const char* group, const char* help, bool ExperimentConfig::*f) {
  return {name,
          group,
          help,
          true,
          [f](const ExperimentConfig& c) { return Text(c.*f); },
          [f, name](ExperimentConfig& c, const std::string& s) { c.*f = ParseBool(name, s); }};
}

OptionSpec Str(const char* name, const char* group, const char* help, std::string ExperimentConfig::*f) {
  return {name,
          group,
          help,
          false,
          [f](const ExperimentConfig& c) { return c.*f; },
          [f](ExperimentConfig& c, const std::string& s) { c.*f = s; }};
}

template <class T>
T KindOption<T>::Get(const ExperimentConfig& c) const {
  const auto it = c.kind_options.find(name);
  return it == c.kind_options.end() ? fallback : Parse<T>(name, it->second);
}

template <class T>
OptionSpec KindOption<T>::Row() const {
  const KindOption<T> o = *this;
  return {name, group, help, std::is_same<T, bool>::value, [o](const ExperimentConfig& c) { return Text(o.Get(c)); },
          // Parsed on the way in, so a bad value is refused where it is given; stored as its text.
          [o](ExperimentConfig& c, const std::string& s) { c.kind_options[o.name] = Text(Parse<T>(o.name, s)); }};
}

template struct KindOption<int>;
template struct KindOption<double>;
template struct KindOption<bool>;
template struct KindOption<std::string>;

}  // namespace glimpse
