// Errors and checks. Every message says what was expected and what was found, so a user can fix the
// input without reading the source.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace glimpse {

// Thrown for bad input and impossible configurations; the CLI prints what() and exits non-zero.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

namespace detail {
inline void Append(std::ostringstream&) {}
template <class A, class... R>
void Append(std::ostringstream& os, const A& a, const R&... r) {
  os << a;
  Append(os, r...);
}
}  // namespace detail

// Builds a message from any streamable parts: Format("expected ", 3, " found ", 4).
template <class... A>
std::string Format(const A&... parts) {
  std::ostringstream os;
  detail::Append(os, parts...);
  return os.str();
}

template <class... A>
[[noreturn]] void Fail(const A&... parts) {
  throw Error(Format(parts...));
}

// Check(cond, "what", ...): throws Error with the message when cond is false.
template <class... A>
void Check(bool cond, const A&... parts) {
  if (!cond) Fail(parts...);
}

// CheckEq(found, expected, "what"): "what: expected 3, found 4".
template <class U, class V>
void CheckEq(const U& found, const V& expected, const std::string& what) {
  if (!(found == expected)) Fail(what, ": expected ", expected, ", found ", found);
}

// CheckRange(v, lo, hi, "what"): lo <= v <= hi.
template <class U, class V>
void CheckRange(const U& v, const V& lo, const V& hi, const std::string& what) {
  if (!(v >= lo && v <= hi)) Fail(what, ": expected a value in [", lo, ", ", hi, "], found ", v);
}

}  // namespace glimpse
