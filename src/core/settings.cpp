#include "src/core/settings.h"

#include <cmath>
#include <sstream>
#include <type_traits>

#include "src/core/error.h"

namespace glimpse {
namespace {

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

bool Unbounded(const Range& r) { return std::isinf(r.lo) && std::isinf(r.hi); }

// "in (0, 10]", ">= 0", "> 0", "<= 1".
std::string Describe(const Range& r) {
  if (std::isinf(r.hi)) return (r.lo_open ? "> " : ">= ") + ToText(r.lo);
  if (std::isinf(r.lo)) return (r.hi_open ? "< " : "<= ") + ToText(r.hi);
  return std::string("in ") + (r.lo_open ? "(" : "[") + ToText(r.lo) + ", " + ToText(r.hi) + (r.hi_open ? ")" : "]");
}

bool Inside(const Range& r, double v) {
  return (r.lo_open ? v > r.lo : v >= r.lo) && (r.hi_open ? v < r.hi : v <= r.hi);
}

}  // namespace

Range AtLeast(double lo) { return {lo, std::numeric_limits<double>::infinity(), false, false}; }
Range Positive() { return {0, std::numeric_limits<double>::infinity(), true, false}; }
Range Between(double lo, double hi) { return {lo, hi, false, false}; }
Range AboveUpTo(double lo, double hi) { return {lo, hi, true, false}; }

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
template int ParseNumber(const std::string&, const std::string&);
template std::int64_t ParseNumber(const std::string&, const std::string&);
template std::uint64_t ParseNumber(const std::string&, const std::string&);
template double ParseNumber(const std::string&, const std::string&);

bool ParseBool(const std::string& name, const std::string& s) {
  if (s == "true" || s == "1" || s == "yes") return true;
  if (s == "false" || s == "0" || s == "no") return false;
  Fail("option --", name, ": expected true or false, found '", s, "'");
}

template <class T>
std::string NumberText(const T& v) {
  return ToText(v);
}
template std::string NumberText(const int&);
template std::string NumberText(const std::int64_t&);
template std::string NumberText(const std::uint64_t&);
template std::string NumberText(const double&);

std::string ValueText(double v) { return ToText(v); }
std::string ValueText(std::int64_t v) { return ToText(v); }
std::uint64_t ParseSeed(const std::string& option, const std::string& text) {
  return ParseNumber<std::uint64_t>(option, text);
}

template <class T>
T KindOption<T>::Get(const Settings& s) const {
  const std::string* text = s.Find(name);
  return text ? Parse<T>(name, *text) : fallback;
}

template <class T>
OptionRow KindOption<T>::Row() const {
  const KindOption<T> o = *this;
  OptionRow row;
  row.name = name, row.group = group, row.help = help;
  row.is_flag = std::is_same<T, bool>::value;
  row.fallback = Text(fallback);
  if constexpr (std::is_arithmetic<T>::value && !std::is_same<T, bool>::value)  // (a choice's help names them)
    if (!Unbounded(range)) row.help += " (" + Describe(range) + ")";
  // Parsed and checked on the way in, so a bad value is refused where it is given; stored as its text.
  row.canonical = [o](const std::string& text) {
    const T v = Parse<T>(o.name, text);
    if constexpr (std::is_arithmetic<T>::value && !std::is_same<T, bool>::value) {
      Check(Inside(o.range, static_cast<double>(v)), "option --", o.name, ": expected ",
            std::is_integral<T>::value ? "a whole number " : "a number ", Describe(o.range), ", found ", Text(v));
    } else if constexpr (std::is_same<T, std::string>::value) {
      bool ok = o.choices.empty();
      std::string list;
      for (const auto& c : o.choices) ok = ok || c == v, list += (list.empty() ? "" : "|") + c;
      Check(ok, "option --", o.name, ": expected ", list, ", found '", v, "'");
    }
    return Text(v);
  };
  return row;
}

template struct KindOption<int>;
template struct KindOption<double>;
template struct KindOption<bool>;
template struct KindOption<std::string>;

}  // namespace glimpse
