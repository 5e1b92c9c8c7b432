// The trainer's messages to a person: progress lines, epoch summaries, stops, roll-backs and where its
// parameters came from. The trainer composes each line and hands it here instead of printing it; the
// run file gets the numbers through the RunLogger (src/store/run_logger.h), this gets the words.
#pragma once

#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

namespace glimpse {

class Progress {
 public:
  virtual ~Progress() = default;
  virtual void Line(const std::string& text) = 0;  // one line, without its newline
};

// glimpse train's terminal: each line as it comes, flushed (a log file follows the run).
class TerminalProgress : public Progress {
 public:
  void Line(const std::string& text) override { std::cout << text << "\n" << std::flush; }
};

// A duration for a person: "42s", "3m07s", "1h05m".
inline std::string Duration(double s) {
  std::ostringstream os;
  const long total = static_cast<long>(s + 0.5);
  if (total >= 3600)
    os << total / 3600 << "h" << std::setw(2) << std::setfill('0') << (total % 3600) / 60 << "m";
  else if (total >= 60)
    os << total / 60 << "m" << std::setw(2) << std::setfill('0') << total % 60 << "s";
  else
    os << total << "s";
  return os.str();
}

// Library callers and tests that want no output.
class SilentProgress : public Progress {
 public:
  void Line(const std::string&) override {}
};

}  // namespace glimpse
